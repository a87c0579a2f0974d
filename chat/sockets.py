"""Table chat over the table's websockets: the page's (games/consumers.py TableConsumer,
HTML fragments for chat.js) and the JSON protocol's (games/protocol.py PlayConsumer).

Each connection listens to one room of each table it has open: the players' room
while its player sits at the table, the spectators' room otherwise
(`chat.services.room_of`). A message reaches only its room's group, so a
spectator's words never reach the players (and the other way round). The
connection a message came from shows it at once; the room's group brings it to
every other connection, each rendering a quick phrase in its own reader's language.

`PlaceChatConsumer` (`ws/chat/<kind>/<id>/`) is the chat of a place another app owns (a
tournament's page): one group, every reader in it, the same frames and the same services.
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from accounts.languages import in_language, page_socket_language
from games.frames import UnreadableFrame, read_json_object, reply_to
from games.socket_parts import PagePart, ProgramPart
from joker_site.db_threads import in_thread
from joker_site.page_gone import DropFramesToAPageGone
from joker_site.refusals import Refusal

from . import services
from .models import Room
from .phrases import phrase_text

BROWSER_FRAMES = ("chat", "chat_report")


def _message_id(value):
    """A report's message id as a page sends it (a number, or digits in a string)."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value


def render_message(event: dict, reader, language: str) -> str:
    """One message as a reader's page shows it, in the reader's language."""
    mine = reader is not None and event["author"]["id"] == reader.pk
    with translation.override(language):
        return render_to_string("chat/_message.html", {
            "m": event, "mine": mine, "can_report": reader is not None and not mine,
            "said": phrase_text(event["phrase"]) if event["phrase"] else event["text"],
        })


def chat_frame(action: str, html: str = "", **data) -> str:
    """The envelope chat.js recognises (and match.js never sees)."""
    with translation.override(data.pop("language", None) or translation.get_language()):
        return render_to_string("chat/_frame.html", {"action": action, "html": html, "data": data})


def _history_and_hidden(table_id, player):
    """(room, its last messages, whether it has none to show but hidden ones)."""
    room, said = services.history(table_id, player)
    return room, said, not said and services.room_has_hidden(table_id, room)


class ChatPagePart(PagePart):
    """The table chat on the table page's socket (games/socket_parts.py): the room's group,
    the `chat` and `chat_report` frames, and the messages said in the room."""

    frames = BROWSER_FRAMES

    def __init__(self, connection):
        super().__init__(connection)
        self.chat_group_name = None

    async def joined(self, seated: bool):
        """Listen to the room of this connection: `seated`, whether its player sits at the table
        (what presence.connected found, so no query more)."""
        await self._follow_room(Room.PLAYERS if seated else Room.SPECTATORS)

    async def caught_up(self):
        """Send the room's last messages, once the connection listens to the room (after the
        table's position, which a page needs first). The page was
        drawn before its socket opened, and a phone's socket drops and comes back: a message
        said in between reached no group this connection was in. chat.js adds the ones its log
        lacks and drops the ones hidden meanwhile. A room with nothing to show sends nothing,
        unless a moderator hid messages there: then an empty list, and the page drops what it
        still shows."""
        room, said, any_hidden = await in_thread(_history_and_hidden)(self.table_id, self.player)
        await self._follow_room(room)
        if not said and not any_hidden:
            return
        html = mark_safe("".join(  # each one rendered by its template; joining them loses the mark
            render_message(services.message_event(message), self.player, self.language) for message in said))
        await self.send(chat_frame("history", html, language=self.language))

    async def _follow_room(self, room):
        group = services.chat_group(self.table_id, room)
        if group == self.chat_group_name:
            return
        if self.chat_group_name:
            await self.channel_layer.group_discard(self.chat_group_name, self.channel_name)
        await self.channel_layer.group_add(group, self.channel_name)
        self.chat_group_name = group

    async def closed(self):
        if self.chat_group_name:
            await self.channel_layer.group_discard(self.chat_group_name, self.channel_name)
            self.chat_group_name = None

    async def receive(self, frame):
        """A `chat` frame ({"phrase": key} or {"text": ...}) or a `chat_report` ({"message": id})."""
        def say(phrase, text):
            return services.post(self.table_id, self.player, phrase, text, self.channel_name)

        message = await answer_chat_frame(self, frame["type"], frame["data"], say)
        if message is not None:
            await self._follow_room(message.room)

    async def chat_message(self, event):
        if self.closing or event.get("from_channel") == self.channel_name:
            return
        html = render_message(event["message"], self.player, self.language)
        await self.send(chat_frame("add", html, language=self.language))

    async def chat_hidden(self, event):
        await self.send(chat_frame("remove", language=self.language, id=event["message_id"]))


async def answer_chat_frame(connection, kind: str, data: dict, say):
    """A page's `chat` or `chat_report` frame, for the table's socket and a place's alike: `say(phrase,
    text)` stores the message. The answer goes to `connection` (its player, language and send);
    a refusal is said there and changes nothing. Returns the message said, or None."""
    language = connection.language
    try:
        if kind == "chat":
            message = await in_thread(in_language(say, language))(data.get("phrase"), data.get("text"))
            html = render_message(services.message_event(message), connection.player, language)
            with translation.override(language):
                note = _("Only you see this message: it has words we do not allow.") if message.filtered else ""
            await connection.send(chat_frame("add", html, language=language, note=note, mine="1"))
            return message
        report = await in_thread(in_language(services.report, language))(_message_id(data.get("message")),
                                                                         connection.player)
        with translation.override(language):
            note = _("Thank you: the moderators will read this message.")
        await connection.send(chat_frame("reported", language=language, id=report.message_id, note=note))
    except Refusal as refusal:
        await connection.send(chat_frame("refused", language=language, note=refusal.message, code=refusal.code))
    return None


class PlaceChatConsumer(DropFramesToAPageGone, AsyncWebsocketConsumer):
    """The chat of a place (`ws/chat/<kind>/<id>/`, e.g. a tournament's page): everyone reads;
    who may write is the place's rule (services.post_in_place)."""

    async def connect(self):
        from accounts.players import player_for_scope

        self.language = page_socket_language(self.scope)
        route = self.scope["url_route"]["kwargs"]
        self.place = f"{route['kind']}:{route['place_id']}"
        self.group = None
        try:
            services.read_place(self.place)
        except services.ChatRefusal:
            await self.close(code=4404)
            return
        self.player = await player_for_scope(self.scope)
        self.group = services.place_group(self.place)
        await self.channel_layer.group_add(self.group, self.channel_name)
        said = await in_thread(services.place_history)(self.place, self.player)
        await self.accept()
        await self._catch_up(said)

    async def _catch_up(self, said):
        """The place's last messages once more: those said between the page's drawing and now.
        They are read after the group is joined (nothing said later is missed) and before the
        socket is accepted, so a message said once the socket is open comes by the group
        alone, never a second time in the history."""
        if said:
            html = mark_safe("".join(  # each one rendered by its template
                render_message(services.message_event(message), self.player, self.language) for message in said))
            await self.send(chat_frame("history", html, language=self.language))

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            data = read_json_object(text_data)
        except UnreadableFrame:
            data = {}
        kind = data.get("type")
        if kind not in BROWSER_FRAMES:
            with translation.override(self.language):
                await self.send(chat_frame("refused", language=self.language, code="bad_chat",
                                           note=_("That message could not be read.")))
            return

        def say(phrase, text):
            return services.post_in_place(self.place, self.player, phrase, text, self.channel_name)

        await answer_chat_frame(self, kind, data, say)

    async def chat_message(self, event):
        if event.get("from_channel") == self.channel_name:
            return
        await self.send(chat_frame("add", render_message(event["message"], self.player, self.language),
                                   language=self.language))

    async def chat_hidden(self, event):
        await self.send(chat_frame("remove", language=self.language, id=event["message_id"]))


class ChatProgramPart(ProgramPart):
    """The table chat on the program's socket (games/socket_parts.py): `chat`, `chat_report`
    and `chat_history` messages (docs/protocol.md), and the room of every table the
    connection follows."""

    # A quick phrase's key or a text, a report, the room's history.
    messages = {
        "chat": {"table": ("whole", True), "phrase": ("text", False), "text": ("text", False)},
        "chat_report": {"message": ("whole", True)},
        "chat_history": {"table": ("whole", True)},
    }

    def __init__(self, connection):
        super().__init__(connection)
        self.chat_groups = {}  # table id -> the room's group this connection listens to

    async def table_followed(self, table_id):
        group = services.chat_group(table_id, await in_thread(services.room_for)(table_id, self.player))
        if self.chat_groups.get(table_id) == group:
            return
        await self.table_left(table_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.chat_groups[table_id] = group

    async def table_left(self, table_id):
        group = self.chat_groups.pop(table_id, None)
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def closed(self):
        for table_id in list(self.chat_groups):
            await self.table_left(table_id)

    def _open_table(self, table_id):
        if not self.follows(table_id):
            raise services.ChatRefusal("not_at_table", _("Join or watch the table first (join_table or resync)."))

    async def on_chat(self, message):
        self._open_table(message["table"])
        said = await in_thread(services.post)(message["table"], self.player, message.get("phrase"),
                                              message.get("text"), self.channel_name)
        await self.table_followed(message["table"])
        await self.send_json(reply_to(message, {"type": "chat_sent",
                                                "message": services.as_reader_sees(services.message_event(said))}))

    async def on_chat_report(self, message):
        report = await in_thread(services.report)(message["message"], self.player)
        await self.send_json(reply_to(message, {"type": "chat_reported", "message": report.message_id}))

    async def on_chat_history(self, message):
        self._open_table(message["table"])
        room, said = await in_thread(services.history)(message["table"], self.player)
        await self.send_json(reply_to(message, {
            "type": "chat_history", "table": message["table"], "room": room,
            "messages": [services.as_reader_sees(services.message_event(m)) for m in said],
        }))

    async def chat_message(self, event):
        if self.player is None or event.get("from_channel") == self.channel_name:
            return
        with translation.override(self.language):
            await self.send_json({"type": "chat", "message": services.as_reader_sees(event["message"])})

    async def chat_hidden(self, event):
        if self.player is not None:
            await self.send_json({"type": "chat_hidden", "message": event["message_id"]})
