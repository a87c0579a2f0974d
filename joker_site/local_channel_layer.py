"""The channel layer of `make run`: in memory, reachable from the other local processes.

Under `make run` the Celery worker (clocks, grace times, the sweeper) is a process
of its own, while the browsers' and programs' sockets live in the one Daphne
process. Channels' in-memory layer alone would keep every notice the worker sends
inside the worker, where nobody listens: a clock's move or a forfeit reached no
page. This layer is the in-memory layer plus a Unix socket in the var folder:

- The process that serves sockets (the first to ask for a channel name, that is
  Daphne once a page or program connects) becomes the hub: it listens on
  `<var>/channels.sock` and delivers whatever arrives there to its own groups
  and channels, exactly as if it had been sent locally.
- Any other process (the worker, a management command) hands each `send` and
  `group_send` to the hub over that socket and waits for its acknowledgement.
  When no hub listens (the site is not running) nobody could receive the
  message anyway, and it is delivered locally as the in-memory layer would.

Like every channel layer it delivers at most once; the notices carry the
version, so a lost one is caught up by the next (docs/live-match.md). No
server, no port: the socket is a file only the site's user may open. One web
process only — the production shape uses Redis (docs/deploy.md).
"""

import asyncio
import hashlib
import json
import logging
import os
import struct
import tempfile
from pathlib import Path

from channels.layers import InMemoryChannelLayer

log = logging.getLogger(__name__)

SOCKET_NAME = "channels.sock"
# AF_UNIX paths are limited to 108 bytes (104 on macOS); past that the socket goes to the temp folder.
LONGEST_SOCKET_PATH = 100
FORWARD_TIMEOUT_SECONDS = 5
LARGEST_FRAME = 1 << 20
_LENGTH = struct.Struct("!I")
ACK = b"\x01"


def socket_path_for(directory) -> str:
    path = str(Path(directory) / SOCKET_NAME)
    if len(path.encode()) <= LONGEST_SOCKET_PATH:
        return path
    digest = hashlib.sha256(str(Path(directory).resolve()).encode()).hexdigest()[:16]
    return str(Path(tempfile.gettempdir()) / f"joker-{digest}.sock")


def _frame(operation: str, target: str, message: dict) -> bytes:
    body = json.dumps({"op": operation, "target": target, "message": message}, separators=(",", ":")).encode()
    if len(body) > LARGEST_FRAME:
        raise ValueError(f"a channel message of {len(body)} bytes is too large to pass between processes")
    return _LENGTH.pack(len(body)) + body


class LocalSocketChannelLayer(InMemoryChannelLayer):
    def __init__(self, directory, **kwargs):
        super().__init__(**kwargs)
        self.socket_path = socket_path_for(directory)
        self._hub = None  # the asyncio server, once this process is the hub
        self._hub_loop = None

    # --- becoming the hub -------------------------------------------------------------

    async def new_channel(self, prefix="specific."):
        """A consumer is starting here, so messages for it must come here."""
        await self._become_hub()
        return await super().new_channel(prefix)

    async def _become_hub(self):
        loop = asyncio.get_running_loop()
        if self._hub is not None and self._hub_loop is loop:
            return
        self._hub, self._hub_loop = "starting", loop  # other consumers starting meanwhile wait for nothing
        try:
            if await self._reachable():
                log.error("another web process already serves %s: under `make run` run one web process only "
                          "(several need REDIS_URL, docs/deploy.md)", self.socket_path)
                self._hub = "elsewhere"
                return
            try:
                os.unlink(self.socket_path)  # left by a process that was killed
            except FileNotFoundError:
                pass
            self._hub = await asyncio.start_unix_server(self._serve_connection, path=self.socket_path)
            os.chmod(self.socket_path, 0o600)
        except OSError:
            log.exception("could not listen on %s: background jobs will not reach this process's sockets",
                          self.socket_path)
            self._hub = "failed"

    def _is_hub(self) -> bool:
        return isinstance(self._hub, asyncio.AbstractServer)

    async def _reachable(self) -> bool:
        try:
            _reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(self.socket_path), 1)
        except (TimeoutError, OSError):
            return False
        writer.close()
        return True

    async def _serve_connection(self, reader, writer):
        """Deliver each frame another process sends, and acknowledge it."""
        try:
            while True:
                try:
                    header = await reader.readexactly(_LENGTH.size)
                except asyncio.IncompleteReadError:
                    return  # the sender is done
                (length,) = _LENGTH.unpack(header)
                if length > LARGEST_FRAME:
                    log.error("a local process sent a channel frame of %s bytes; closing its connection", length)
                    return
                frame = json.loads(await reader.readexactly(length))
                if frame["op"] == "group_send":
                    await super().group_send(frame["target"], frame["message"])
                else:
                    await super().send(frame["target"], frame["message"])
                writer.write(ACK)
                await writer.drain()
        except Exception:
            log.exception("a message from another local process could not be delivered")
        finally:
            writer.close()

    # --- sending --------------------------------------------------------------------

    async def send(self, channel, message):
        if self._is_hub() or not await self._forward("send", channel, message):
            await super().send(channel, message)

    async def group_send(self, group, message):
        if self._is_hub() or not await self._forward("group_send", group, message):
            await super().group_send(group, message)

    async def _forward(self, operation: str, target: str, message: dict) -> bool:
        """Hand the message to the hub; False when no hub listens."""
        assert isinstance(message, dict), "message is not a dict"
        frame = _frame(operation, target, message)
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_unix_connection(self.socket_path), FORWARD_TIMEOUT_SECONDS)
        except (TimeoutError, FileNotFoundError, ConnectionRefusedError):
            return False
        try:
            writer.write(frame)
            await writer.drain()
            if await asyncio.wait_for(reader.readexactly(1), FORWARD_TIMEOUT_SECONDS) != ACK:
                raise ConnectionError("the hub did not acknowledge the message")
            return True
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
            # It may have been delivered: never deliver it twice, locally where nobody listens.
            log.warning("passing a %s to %s to the web process failed: %s", operation, target, error)
            return True
        finally:
            writer.close()

    async def close(self):
        if self._is_hub():
            self._hub.close()
            self._hub = None
