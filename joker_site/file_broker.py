"""The Celery broker of `make run`: kombu's filesystem transport, with messages that appear whole.

kombu's own `_put` creates the message's file under its final name and writes it after: a
reader that lists the folder in between moves the empty file away and fails to parse it
(JSONDecodeError), and that error stops the whole worker ("Unrecoverable error"), so the
embedded site's clocks and quick-play pairings stop with it. Here a message is written under a
name no reader takes (the queue's suffix is not its last), then renamed into the queue:
a rename within one folder is atomic, so a reader finds the whole message or nothing.
"""

import os
import uuid
from time import monotonic_ns

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

UNFINISHED_SUFFIX = ".part"  # kombu's _get takes only names ending in "<queue>.msg"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # Readers take the names in sorted order: kombu's milliseconds let two messages of one
        # millisecond swap, the system-wide monotonic clock in nanoseconds (padded) does not.
        name = f"{monotonic_ns():020d}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        unfinished = path + UNFINISHED_SUFFIX
        try:
            with open(unfinished, "wb", buffering=0) as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(unfinished, path)
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add file {path!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
