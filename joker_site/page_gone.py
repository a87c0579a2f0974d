"""A frame sent to a page that has just gone is dropped, so the socket's goodbye still runs.

A page can close while its socket's handler is still answering (a phone dropping its
connection while the table's first frame is drawn). Daphne then refuses the send
("Attempt to send on a closed protocol", autobahn's `Disconnected`); the ASGI spec has
other servers raise an `OSError`. Raised out of a handler, that error ends the consumer:
the `websocket.disconnect` that the server queues for it is never read, so `disconnect()`
never runs, and a table seat stays counted as connected for as long as the process lives
(games/services/presence.py): its player is never shown as gone and no bot takes the
seat. Dropped here, the frame is lost with the page that would have shown it, and the
disconnect that follows is handled as any other.
"""

import logging

log = logging.getLogger(__name__)

try:
    from autobahn.exception import Disconnected
except ImportError:  # served by something other than Daphne
    PAGE_GONE: tuple[type[BaseException], ...] = (OSError,)
else:
    PAGE_GONE = (Disconnected, OSError)


class DropFramesToAPageGone:
    """Put before `AsyncWebsocketConsumer` in a consumer's bases."""

    async def send(self, text_data=None, bytes_data=None, close=False):
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except PAGE_GONE as gone:
            log.info("%s: a frame to a page that has gone was dropped (%s)", type(self).__name__, gone)
