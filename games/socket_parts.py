"""What the apps above games add to the table sockets: the written contract.

The table page's socket (games/consumers.py `TableConsumer`) and the program's socket
(games/protocol.py `PlayConsumer`) carry more than the match: the table chat
(chat/sockets.py) and, on the program's socket, quick play (quickplay/protocol.py).
Those apps sit above games, so games never imports them: each registers a *part*
from its `AppConfig.ready()` (`register_page_part`, `register_program_part`), and
every connection makes one of each part, handing it itself.

A part sees its connection only through `SocketPart`'s few properties and methods
below (who, in which language, on which channel; send), and the connection calls
its part only through these hooks:

- page parts: `frames` (the browser frame types it answers, `receive(frame)`),
  `joined(seated)` once the page's socket follows its table, `caught_up()` after the
  first position went out, `closed()`;
- program parts: `messages` ({type: {field: (kind, required)}}, checked by the protocol
  like its own, then `on_<type>(message)`), `table_followed(table_id)`,
  `table_left(table_id)`, `closed()`;
- both: a channel-layer message whose type names no handler of the connection goes
  to the part that has one (`chat.message` -> `chat_message(event)`).

A page part's HTML replaces the page's elements of the same ids (match.js); the match page
keeps an empty `#page-part-signal` for a part's signal (the arena's move to the next match).
"""


class SocketPart:
    """One app's share of one connection."""

    def __init__(self, connection):
        self._connection = connection

    @property
    def player(self):
        return self._connection.player

    @property
    def language(self) -> str:
        return self._connection.language

    @property
    def channel_name(self) -> str:
        return self._connection.channel_name

    @property
    def channel_layer(self):
        return self._connection.channel_layer

    async def send(self, text_data: str) -> None:
        await self._connection.send(text_data=text_data)


class PagePart(SocketPart):
    """A part of the table page's socket (HTML fragments)."""

    frames: tuple = ()

    @property
    def table_id(self) -> int:
        return self._connection.table_id

    @property
    def closing(self) -> bool:
        return self._connection.closing

    async def joined(self, seated: bool) -> None:
        """The socket follows its table; `seated`: whether its player sits there."""

    async def caught_up(self) -> None:
        """The table's position went out: what the part has to catch up on may follow."""

    async def receive(self, frame: dict) -> None:
        """One of `frames`: {"type": ..., "data": the frame as sent}."""

    async def closed(self) -> None:
        """The socket closed."""


class ProgramPart(SocketPart):
    """A part of the program's socket (JSON messages, docs/protocol.md)."""

    messages: dict = {}

    def follows(self, table_id: int) -> bool:
        """Whether the connection follows that table (joined, watching or resynced)."""
        return table_id in self._connection.tables

    async def send_json(self, data: dict) -> None:
        await self._connection.send_json(data)

    async def follow_table(self, table_id: int) -> None:
        """Follow a table as a `join_table` would (a quick play pairing seats the player there)."""
        await self._connection.follow_table(table_id)

    async def table_followed(self, table_id: int) -> None:
        """The connection follows `table_id` now (or again, after a join)."""

    async def table_left(self, table_id: int) -> None:
        """The connection no longer follows `table_id`."""

    async def closed(self) -> None:
        """The connection closed."""


_page_parts: list[type] = []
_program_parts: list[type] = []


def register_page_part(part: type) -> None:
    if part not in _page_parts:
        _page_parts.append(part)


def register_program_part(part: type) -> None:
    if part not in _program_parts:
        _program_parts.append(part)


def page_parts_for(connection) -> list[PagePart]:
    return [part(connection) for part in _page_parts]


def program_parts_for(connection) -> list[ProgramPart]:
    return [part(connection) for part in _program_parts]


def page_frames() -> dict:
    """{browser frame type: the part class that answers it}."""
    return {frame: part for part in _page_parts for frame in part.frames}


def program_messages() -> dict:
    """{message type: its fields} of every program part."""
    return {kind: fields for part in _program_parts for kind, fields in part.messages.items()}


def part_for(parts: list, handler_name: str):
    """The handler named `handler_name` on the first of `parts` that has one, or None."""
    for part in parts:
        handler = getattr(part, handler_name, None)
        if handler is not None:
            return handler
    return None
