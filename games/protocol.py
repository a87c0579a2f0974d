"""The JSON websocket protocol for programs (docs/protocol.md), at `ws/play/`.

A program authenticates with a personal access token in the handshake's
`Authorization: Bearer <token>` header (or, from a page, with the browser's
session), creates or joins tables, and plays. The position it receives is
exactly `seat_view(match, seat)`, the dict the browser's HTML is rendered from.

Like the browser's consumer, this one never forwards state it was given: a
"table changed" notice only says which version exists now, and each
connection reads and renders its own seat's view. Every refusal is an `error`
message; it changes nothing and keeps the socket open.
"""

import functools
import json
import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.languages import header_of, program_socket_language
from accounts.sockets import (
    CLOSE_CREDENTIALS_GONE,
    revoked_sentence,
    session_group,
    session_key_of,
    token_group,
    user_group,
)
from joker_site.db_outage import DatabaseUnavailable
from joker_site.db_threads import in_thread, move_in_thread, unless_database_away
from joker_site.frame_budget import BudgetedFrames
from joker_site.page_gone import DropFramesToAPageGone
from joker_site.refusals import Refusal  # every service's refusals are one, sent as they are

from . import live
from .advice_tasks import AdviceBesideTheQueue
from .consumer_dispatch import DispatchWithoutHop
from .frames import NotAnObject, UnreadableFrame, read_json_object
from .frames import reply_to as _reply
from .notice_turns import LaterUpdates
from .services import presence, spectators
from .services.broadcast import table_group
from .socket_parts import part_for, program_messages, program_parts_for
from .table_reads import (
    TableRead,
    follow_move_notice,
    match_for_view,
    note_spectators,
    read_at_least,
    read_once,
    read_table_now,
)

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)
CLOSE_UNAUTHENTICATED = CLOSE_CREDENTIALS_GONE  # at the handshake, or later when the token or account goes
CLOSE_TRY_AGAIN_LATER = 1013  # the handshake met the database away (`unavailable`)


class TokenOrSameOrigin:
    """ASGI middleware: a browser's socket must come from one of our pages, a program's need not.

    The Origin check keeps another site's page from opening a socket that rides on the
    visitor's session cookie. The Origin must be the socket's own origin, host *and port*
    (a page served on another port of the same host is another origin), and the host one of
    ALLOWED_HOSTS. A page cannot set an Authorization header on a websocket, so a handshake
    that carries one is a program's, which authenticates with its token instead of cookies:
    the token is looked at here, once. An expired one (or one whose scope does not even
    cover watching) is refused before the consumer runs (403); a known one travels on in
    `scope["access_token"]`, for the acts to ask `accounts.tokens.allows(token, "play")`.
    An unknown or revoked token is left to the consumer, which says so in a frame.
    """

    DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

    def __init__(self, application):
        from channels.security.websocket import WebsocketDenier

        self.application = application
        self.deny = WebsocketDenier()

    async def __call__(self, scope, receive, send):
        authorization = header_of(scope, b"authorization")
        if authorization is not None:
            from accounts.tokens import allows, token_for_handshake

            try:
                token = await in_thread(token_for_handshake)(authorization)
            except DatabaseUnavailable as away:
                return await self._say_unavailable(away, receive, send)
            if token is not None:
                if not allows(token, "watch"):
                    return await self.deny(scope, receive, send)
                scope = {**scope, "access_token": token}
            return await self.application(scope, receive, send)
        if not self.same_origin(scope):
            return await self.deny(scope, receive, send)
        return await self.application(scope, receive, send)

    @staticmethod
    async def _say_unavailable(away, receive, send):
        """The token could not be looked at (the database away): the `unavailable` error, then
        the close code 1013 (try again later)."""
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": encode_frame(error_frame(away))})
        await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})

    @classmethod
    def same_origin(cls, scope) -> bool:
        """Whether the handshake's Origin is scheme-host-port the Host it was sent to."""
        from urllib.parse import urlsplit

        from django.http.request import split_domain_port, validate_host

        origin, host = header_of(scope, b"origin"), header_of(scope, b"host")
        if not origin or not host:
            return False
        try:
            parsed = urlsplit(origin)
            origin_port = parsed.port or cls.DEFAULT_PORTS.get(parsed.scheme)
        except ValueError:  # a port that is not a number
            return False
        host_name, host_port = split_domain_port(host.lower())
        if not host_name or parsed.hostname is None or origin_port is None:
            return False
        host_port = int(host_port) if host_port else cls.DEFAULT_PORTS[parsed.scheme]
        return (parsed.hostname == host_name.strip("[]") and origin_port == host_port
                and validate_host(host_name, settings.ALLOWED_HOSTS))


class PlayConsumer(DispatchWithoutHop, BudgetedFrames, AdviceBesideTheQueue,
                   DropFramesToAPageGone, AsyncWebsocketConsumer):
    """One program's connection: any number of tables, one seat at each (and its parts,
    games/socket_parts.py: the quick play queue, quickplay/protocol.py; the table chat,
    chat/sockets.py)."""

    async def dispatch(self, message):
        """Every handler speaks the connection's language: a pushed position too (a guest's
        name), not only the answers to its own messages. (The pushes were made in the
        process's default language, and their shared reads under that language's key, so the
        acts' reads, made in the connection's language, never served them.)"""
        with translation.override(getattr(self, "language", None)):
            await super().dispatch(message)

    async def connect(self):
        self.parts = program_parts_for(self)
        self.later_updates = LaterUpdates()
        self.language = program_socket_language(self.scope)
        self.player = None
        self.tables = {}  # table id -> the last version sent (None before the match), for subscribed tables
        self.presence_seats = {}  # table id -> seat id counted as connected by this socket
        self.spectator_rows = {}  # table id -> Spectator row of this socket, at tables it follows without a seat
        self.credential_groups = []  # the token's and the member's groups (accounts/sockets.py)
        await self.accept()
        try:
            await self._authenticate()
        except DatabaseUnavailable as away:  # said once per outage: the program tries again
            self.player = None
            await self.send_json(error_frame(away))
            await self.close(code=CLOSE_TRY_AGAIN_LATER)

    async def _authenticate(self):
        authorization = header_of(self.scope, b"authorization")
        if authorization is not None:
            player, token_id = await in_thread(_credentials_for_authorization)(authorization)
            if player is None or not await self._follow_credentials(player, token_id):
                await self._refuse_connection(
                    "invalid_token", gettext_lazy("The access token is missing, unknown or revoked."))
                return
        else:
            from accounts.players import player_for_scope

            player = await player_for_scope(self.scope)
            if player is None or not await self._follow_credentials(player, None):
                await self._refuse_connection(
                    "not_authenticated",
                    gettext_lazy("Send a personal access token (Authorization: Bearer <token>) or sign in first."))
                return
        self.player = player

    async def _follow_credentials(self, player, token_id) -> bool:
        """Join the groups a revocation or a ban is announced to, then check the credentials
        again: one revoked or banned between the first check and joining is caught here."""
        if token_id is not None:
            self.credential_groups.append(token_group(token_id))
        elif session_key_of(self.scope):  # a page's session: its log-out closes this socket
            self.credential_groups.append(session_group(session_key_of(self.scope)))
        if player.user_id is not None:
            self.credential_groups.append(user_group(player.user_id))
        for group in self.credential_groups:
            await self.channel_layer.group_add(group, self.channel_name)
        return await in_thread(_credentials_hold)(player, token_id)

    async def _refuse_connection(self, code, message):
        with translation.override(self.language):
            await self.send_json({"type": "error", "code": code, "message": str(message)})
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def disconnect(self, code):
        self.later_updates.cancel()
        self.stop_advice()
        for group in self.credential_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        for table_id in list(self.tables):
            await self.channel_layer.group_discard(table_group(table_id), self.channel_name)
        for seat_id in self.presence_seats.values():
            await unless_database_away(in_thread(presence.disconnected)(seat_id))
        for part in getattr(self, "parts", ()):
            await part.closed()
        for row_id in self.spectator_rows.values():
            await unless_database_away(in_thread(spectators.went)(row_id))
        self.tables.clear()
        self.presence_seats.clear()
        self.spectator_rows.clear()

    # --- receiving ----------------------------------------------------------------------

    async def frames_refused(self, budget):
        with translation.override(self.language):
            await self.send_error(Refusal("rate_limited", budget.refusal_sentence(),
                                          {"retry_after": round(budget.retry_after(), 2)}))

    async def receive(self, text_data=None, bytes_data=None):
        if self.player is None:
            return  # the connection is being closed
        message = None
        try:
            message = parse_frame(text_data)
            check_message(message)
            if message["type"] == "ping":  # the transport's floor: no database, no thread
                await self.send_json(_reply(message, {"type": "pong"}))
                return
            self._check_token_may(message["type"])
            handler = getattr(self, "on_" + message["type"], None) or part_for(self.parts, "on_" + message["type"])
            await handler(message)
        except Refusal as refusal:
            await self.send_error(refusal, message)
        except Exception:
            # A fault of ours must not close a seat's socket (the disconnect grace would
            # start, and a Japanese seat could lose by forfeit): log it, answer, stay open.
            log.exception("protocol message failed: %r", message)
            await self.send_error(Refusal("server_error", _("The server could not answer that message.")),
                                  message)

    def _check_token_may(self, kind):
        """A read-only token may follow tables and read, not play, sit, stand or chat
        (accounts.tokens.allows: the one check of a token's scope and expiry)."""
        from accounts.tokens import allows

        if kind not in WATCHING_MESSAGES and not allows(self.scope.get("access_token"), "play"):
            raise Refusal("read_only_token", _("This access token may watch but not play."))

    async def on_hello(self, message):
        if message.get("language") is not None:
            self.language = message["language"]
            translation.activate(self.language)
        welcome = await in_thread(_welcome)(self.player, self.language)
        await self.send_json(_reply(message, welcome))

    async def on_create_table(self, message):
        table_id = await in_thread(_create_table)(self.player, message.get("variant"), message.get("options"))
        await self._subscribe(table_id, message)

    async def on_join_table(self, message):
        table_id = message["table"]
        address = (self.scope.get("client") or [""])[0] or ""  # behind the proxy, its view (docs/deploy.md)
        await in_thread(_join_table)(self.player, table_id, message.get("password") or "", message.get("seat"), address)
        await self._subscribe(table_id, message)

    async def on_leave_table(self, message):
        table_id = message["table"]
        await in_thread(_leave_table)(self.player, table_id)
        await self._unsubscribe(table_id)
        await self.send_json(_reply(message, {"type": "left", "table": table_id}))

    async def on_resync(self, message):
        if message.get("match") is not None:
            table_id = await in_thread(_table_of_match)(message["match"])
        else:
            table_id = message["table"]
        refusal = await in_thread(spectators.refusal_to_follow)(table_id, self.player)
        if refusal is not None:
            raise refusal
        self.tables.pop(table_id, None)  # send the position even if this version went out before
        await self._subscribe(table_id, message)

    async def on_watch(self, message):
        """Follow a table without a seat: its public positions (the engine's view(None)), if
        this member may watch it (services/spectators.py). A `resync` of a table where one
        does not sit is the same thing; `watch` says so."""
        await self.on_resync(message)

    async def on_act(self, message):
        match_id, version, action = message["match"], message["version"], message["action"]
        if "seat" in action:
            raise Refusal("invalid_action", _("Leave the seat out of the action: the server knows where you sit."))
        try:
            table_id, view = await move_in_thread(_act)(self.player, match_id, version, action)
        except Refusal as refusal:
            await self.send_error(refusal, message)
            if refusal.code == "stale_version":
                await self._resend(match_id)  # a client that fell behind catches up at once
            return
        self.frame_budget.refund()  # a move the match took: the turns pace those (joker_site/frame_budget.py)
        await self._send_view(table_id, view, message)

    async def on_hint(self, message):
        """The advice level's move for this connection's seat now and why (games/services/hints.py)."""
        await self._advise(message, _hint, message["match"])

    async def on_review(self, message):
        """A finished classic deal's review for this connection's seat."""
        await self._advise(message, _review, message["match"], message["deal"])

    async def _advise(self, message, work, *args):
        """Worked out beside the connection's queue of messages and pushes (games/advice_tasks.py)."""
        if self.advice_busy():
            raise Refusal("advice_busy", self.busy_sentence())
        self.work_out_advice(self._send_advice(message, work, args))

    async def _send_advice(self, message, work, args):
        try:
            answer = await in_thread(work)(self.player, *args)
        except Refusal as refusal:
            await self.send_error(refusal, message)
            return
        except Exception:
            log.exception("protocol message failed: %r", message)
            await self.send_error(Refusal("server_error", _("The server could not answer that message.")), message)
            return
        await self.send_json(_reply(message, answer))

    async def on_rematch(self, message):
        """After a match: sit at its rematch (the first to ask creates it; the others meet there)."""
        table_id = await in_thread(_rematch)(self.player, message["table"])
        await self._subscribe(table_id, message)

    async def on_resign(self, message):
        table_id, view = await move_in_thread(_resign)(self.player, message["match"])
        await self._send_view(table_id, view, message)

    async def on_berserk(self, message):
        """Halve this player's own bank before the match's first move, as the page's ⚔ button does."""
        table_id, view = await move_in_thread(_berserk)(self.player, message["match"])
        await self._send_view(table_id, view, message)

    # --- sending --------------------------------------------------------------------------

    async def table_changed(self, event):
        """A notice from a table's group: render this connection's own view, unless it already has it."""
        table_id, version = event.get("table"), event.get("version")
        if table_id not in self.tables:
            return
        await follow_move_notice(event)
        if not self._behind(table_id, version):
            return  # its own move's notice, answered already: not a turn (its next act would wait behind it)
        self.later_updates.want(table_id, version, functools.partial(self._draw_update, table_id))

    async def _draw_update(self, table_id, version):
        """An update's turn has come: draw it unless the position went out meanwhile (the answer
        to this connection's own move) or the table is no longer followed."""
        if self._behind(table_id, version):
            await self._send_table(table_id, version=version)

    def _behind(self, table_id, version) -> bool:
        """Whether this connection follows the table and has not been sent `version` (None: unknown)."""
        if table_id not in self.tables:
            return False
        sent = self.tables[table_id]
        return version is None or sent is None or version > sent

    async def table_check(self, event):
        """The sweeper's reminder of a table's version (games/services/broadcast.py): the same."""
        await self.table_changed(event)

    async def _subscribe(self, table_id, message=None):
        if table_id not in self.tables:
            await self.channel_layer.group_add(table_group(table_id), self.channel_name)
            self.tables[table_id] = None
            seat_id = await in_thread(presence.connected)(table_id, self.player)
            if seat_id is not None:
                self.presence_seats[table_id] = seat_id
            else:  # no seat here: a spectator while it follows the table
                self.spectator_rows[table_id] = await in_thread(spectators.came)(table_id, self.player)
        for part in self.parts:  # the table chat's room, again after a join (chat/sockets.py)
            await part.table_followed(table_id)
        await self._send_table(table_id, message)

    async def follow_table(self, table_id):
        """Follow a table as `join_table` does, for a part (quick play seats the player there)."""
        await self._subscribe(table_id)

    async def _unsubscribe(self, table_id):
        if self.tables.pop(table_id, "absent") != "absent":
            await self.channel_layer.group_discard(table_group(table_id), self.channel_name)
        seat_id = self.presence_seats.pop(table_id, None)
        if seat_id is not None:
            await in_thread(presence.disconnected)(seat_id)
        for part in self.parts:
            await part.table_left(table_id)
        row_id = self.spectator_rows.pop(table_id, None)
        if row_id is not None:
            await in_thread(spectators.went)(row_id)

    async def _resend(self, match_id):
        table_id = await in_thread(_table_of_match)(match_id)
        if table_id in self.tables:
            self.tables[table_id] = None
            await self._send_table(table_id)

    async def _send_table(self, table_id, message=None, version=None):
        """The match position for this connection's seat, or the waiting room before the match
        (`version`: the one a notice announced, which this process may have read already)."""
        view = None
        if version is not None:
            view = _view_in_memory(table_id, self.player, version)
            if view is None:  # one read for all of this process's connections to the table
                await read_once(table_id, version)
                view = _view_in_memory(table_id, self.player, version)
        if view is not None:  # no thread: the acts waiting for one go first
            await self._send_view(table_id, view, message)
            return
        kind, payload = await in_thread(_table_payload)(table_id, self.player, version)
        if kind == "refused":  # the match started under a watcher who may not see it
            await self._unsubscribe(table_id)
            await self.send_error(payload, message)
            return
        if kind == "state":
            await self._send_view(table_id, payload, message)
        else:
            await self.send_json(_reply(message, payload))

    async def _send_view(self, table_id, view, message=None):
        """A position; `message`: the one it answers (its `id` comes back), None for a push."""
        sent = self.tables.get(table_id)
        if sent is not None and view["version"] < sent:
            return  # a newer position already went out
        if table_id in self.tables:
            self.tables[table_id] = view["version"]
        await self.send_json(_reply(message, {"type": "state", **view}))

    async def spectators_changed(self, event):
        """How many watch a table this connection follows (services/spectators.py)."""
        note_spectators(event)
        if event.get("table") in self.tables:
            await self.send_json({"type": "spectators", "table": event["table"], "count": event["count"]})

    async def credentials_revoked(self, event):
        """The right to this socket ended (accounts/sockets.py: a log-out, a changed password, a
        closed account, a ban, a revoked token): say why, close (4401)."""
        if self.player is None:
            return
        sentence = await revoked_sentence(event["reason"], self.player, self.language)
        if sentence is None:
            return  # the ban was lifted meanwhile
        self.player = None  # no message is read any more
        await self._refuse_connection(event["reason"], sentence)

    async def send_error(self, refusal, message=None):
        await self.send_json(error_frame(refusal, message))

    async def send_json(self, data):
        await self.send(text_data=encode_frame(data))


def encode_frame(data) -> str:
    """Strict JSON (no NaN); what `parse_frame` let in can always be encoded."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def error_frame(refusal, message=None) -> dict:
    """The `error` answering `message` (None when the frame could not be read as an object)."""
    error = {"type": "error", "code": refusal.code, "message": refusal.message}
    if refusal.params.get("version") is not None:
        error["version"] = refusal.params["version"]
    params = {name: value for name, value in refusal.params.items() if name != "version"}
    if params and _encodable(params):
        error["params"] = params  # the facts a program may act on, e.g. a pause's `until`
    if message is not None:
        error["in_reply_to"] = message.get("type")
    return _reply(message, error)


def _encodable(value) -> bool:
    try:
        encode_frame(value)
    except (TypeError, ValueError):
        return False
    return True


# What each message may carry besides `type` and `id` (any JSON value): field -> (kind, required).
# An optional field may be absent or null; fields not listed are ignored. create_table's
# variant and options are checked against the table form (`invalid_option`).
MESSAGE_FIELDS = {
    "hello": {"language": ("language", False)},
    "create_table": {},
    "join_table": {"table": ("whole", True), "seat": ("whole", False), "password": ("text", False)},
    "leave_table": {"table": ("whole", True)},
    "resync": {"match": ("whole", False), "table": ("whole", False)},  # one of the two
    "watch": {"match": ("whole", False), "table": ("whole", False)},  # one of the two
    "act": {"match": ("whole", True), "version": ("whole", True), "action": ("object", True)},
    "resign": {"match": ("whole", True)},
    "berserk": {"match": ("whole", True)},
    "rematch": {"table": ("whole", True)},
    "hint": {"match": ("whole", True)},
    "review": {"match": ("whole", True), "deal": ("whole", True)},
    "ping": {},
}


def message_fields() -> dict:
    """Every message a program may send: the match's (MESSAGE_FIELDS) and its parts' (the table
    chat's, quick play's: games/socket_parts.py)."""
    return MESSAGE_FIELDS | program_messages()
# What a read-only access token may send: saying hello, following tables, a table's chat history.
WATCHING_MESSAGES = ("hello", "resync", "watch", "ping", "chat_history")
BIGINT_LIMIT = 2 ** 63  # ids, versions and seats are PostgreSQL bigints: no larger number names one


def parse_frame(text_data) -> dict:
    """The frame as a JSON object (games/frames.py says what is refused), or `bad_json`."""
    try:
        return read_json_object(text_data)
    except NotAnObject:
        raise Refusal("bad_json", _("A message is a JSON object with a type.")) from None
    except UnreadableFrame:
        raise Refusal("bad_json", _("That message could not be read.")) from None


def check_message(message: dict) -> None:
    """A known type, and every field it uses of the right kind; the handlers check what they mean."""
    kind = message.get("type")
    fields = message_fields()
    if not isinstance(kind, str) or kind not in fields:
        raise Refusal("unknown_type", _("Unknown message type."))
    for name, (field_kind, required) in fields[kind].items():
        value = message.get(name)
        if value is not None or required:
            _check_field(name, field_kind, value)
    if kind in ("resync", "watch") and message.get("match") is None and message.get("table") is None:
        _check_field("table", "whole", None)


def _check_field(name, kind, value) -> None:
    if kind == "whole":
        if type(value) is not int:  # bool is an int to Python, not to JSON
            raise Refusal("bad_message", _("The field “%(name)s” must be a whole number.") % {"name": name})
        if not -BIGINT_LIMIT <= value < BIGINT_LIMIT:
            raise Refusal("bad_message", _("The number in the field “%(name)s” is too large.") % {"name": name})
    elif kind == "text" and not isinstance(value, str):
        raise Refusal("bad_message", _("The field “%(name)s” must be text.") % {"name": name})
    elif kind == "flag" and not isinstance(value, bool):
        raise Refusal("bad_message", _("The field “%(name)s” must be true or false.") % {"name": name})
    elif kind == "object" and not isinstance(value, dict):
        raise Refusal("bad_message", _("The field “%(name)s” must be a JSON object.") % {"name": name})
    elif kind == "language" and not (isinstance(value, str) and value in LANGUAGES):
        raise Refusal("bad_message", _("The field “%(name)s” must be one of: %(choices)s.")
                      % {"name": name, "choices": ", ".join(LANGUAGES)})


# --- the database side (each runs in a worker thread) ------------------------------------------

def _credentials_for_authorization(header):
    """(the token owner's player, the token's id), or (None, None) for a header that admits no one."""
    from accounts.players import player_for_user
    from accounts.tokens import access_token_for, bearer_token

    token = access_token_for(bearer_token(header))
    return (player_for_user(token.user), token.pk) if token is not None else (None, None)


def _credentials_hold(player, token_id) -> bool:
    """The token (if any) still exists and the member is not banned."""
    from accounts.access import play_refusal
    from accounts.models import AccessToken

    if token_id is not None and not AccessToken.objects.filter(pk=token_id).exists():
        return False
    return play_refusal(player) is None


def _welcome(player, language) -> dict:
    with translation.override(language):
        name = str(player.display_name_text)
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "language": language,
        "player": {"id": player.pk, "name": name, "guest": player.is_guest},
        "tables": _active_tables(player),
    }


def _active_tables(player) -> list[dict]:
    """Where the player sits now (waiting rooms and running matches): what to resync after a reconnect."""
    from .models import Seat, TableStatus

    seats = (Seat.objects.filter(player=player, left_at__isnull=True,
                                 table__status__in=(TableStatus.OPEN, TableStatus.PLAYING))
             .select_related("table__match").order_by("table_id"))
    out = []
    for seat in seats:
        match = getattr(seat.table, "match", None)
        out.append({"table": seat.table_id, "seat": seat.index, "variant": seat.table.variant,
                    "status": seat.table.status, "match": match.pk if match else None,
                    "version": match.version if match else None})
    return out


def _create_table(player, variant, options) -> int:
    from .forms import FORM_BY_VARIANT
    from .services.tables import create_table

    form_class = FORM_BY_VARIANT.get(variant) if isinstance(variant, str) else None
    if form_class is None:
        raise Refusal("invalid_option", _("The variant is “classic” or “japanese”."))
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Refusal("invalid_option", _("Table options are a JSON object."))
    known = set(form_class.base_fields)
    unknown = sorted(set(options) - known)
    if unknown:
        raise Refusal("invalid_option", _("Unknown table option: %(name)s.") % {"name": unknown[0]})
    data = {name: field.initial for name, field in form_class.base_fields.items() if field.initial is not None}
    data.update(options)
    if data.get("fill_with_bots") is False:
        data.pop("fill_with_bots")  # an unchecked box is an absent one
    form = form_class(data={k: str(v) for k, v in data.items()}, player=player)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise Refusal("invalid_option", f"{field}: {errors[0]}")
    return create_table(player, form.table_settings()).pk


def _join_table(player, table_id, password, seat_index, client_address=""):
    from .models import Table
    from .services.tables import sit

    if not Table.objects.filter(pk=table_id).exists():
        raise Refusal("no_such_table", _("There is no such table."))
    sit(table_id, player, password=password, client_key=f"player:{player.pk}", client_address=client_address,
        seat_index=seat_index)


def _leave_table(player, table_id):
    from .models import Table
    from .services.tables import stand

    if not Table.objects.filter(pk=table_id).exists():
        raise Refusal("no_such_table", _("There is no such table."))
    stand(table_id, player)


def _rematch(player, table_id) -> int:
    from .models import Table
    from .services.tables import offer_rematch

    try:
        return offer_rematch(table_id, player).pk
    except Table.DoesNotExist:
        raise Refusal("no_such_table", _("There is no such table.")) from None


def _table_of_match(match_id) -> int:
    from .models import Match

    table_id = Match.objects.filter(pk=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise Refusal("no_such_match", _("There is no such match."))
    return table_id


def _view_in_memory(table_id, player, version):
    """A notice's view made on the event loop from what this process holds: its read of
    the table at `version` or later, that read's public seats and the position itself.
    None when anything is missing (the database thread reads it). A notice reaches every
    connection of the table at once: handing each to a database thread queued the acts,
    which hold the players' waiting, behind them."""
    from django.core.exceptions import SynchronousOnlyOperation

    from .services.matches import cached_state, held_seat
    from .services.presenter import seat_view

    read = read_at_least(table_id, version)
    if read is None:
        return None
    public = read.public_seats(made_here=False)
    state = cached_state(read.match) if public is not None else None
    if state is None:
        return None
    seat = held_seat(read.seats, player)
    if seat is None:  # a watcher: whether they may watch is asked of the database (_state_or_refusal)
        return None
    try:
        return seat_view(read.match, seat, state, seats=read.seats, public=public)
    except SynchronousOnlyOperation:  # something wanted the database after all
        return None


def _view_from(read: TableRead, player, state=None):
    from .services.matches import held_seat
    from .services.presenter import seat_view

    return seat_view(read.match, held_seat(read.seats, player), state, seats=read.seats,
                     public=read.public_seats())


def _state_or_refusal(read: TableRead, player):
    """("state", the view) for a seat or a spectator who may watch, ("refused", why) otherwise."""
    from .services.matches import held_seat

    if held_seat(read.seats, player) is None:
        refusal = spectators.watch_refusal(read.match.table, player, seats=read.seats)
        if refusal is not None:
            return "refused", refusal
    return "state", _view_from(read, player)


def _table_payload(table_id, player, version=None):
    """("state", seat view) once the match exists, else ("table", the waiting room).

    `version`: the one a notice announced; a read of it (or later) made in this
    process serves. Without one (a join, a resync, a presence change) it reads afresh."""
    from .models import Table
    from .services.presenter import public_seats, seat_of

    if version is not None:
        read = read_at_least(table_id, version)
        if read is not None:
            return _state_or_refusal(read, player)
    read = read_table_now(table_id)
    if read is not None:
        return _state_or_refusal(read, player)
    table = Table.objects.get(pk=table_id)
    return "table", {
        "type": "table",
        "table": table.pk,
        "variant": table.variant,
        "status": table.status,
        "seat": seat_of(table, player),
        "seats": public_seats(table),
        "options": table.record_options(),
        "stake": table.stake,
        "clock_seconds": table.clock_seconds,
        "bank_seconds": table.bank_seconds,
        "visibility": table.visibility,
        "rated": table.rated,
        "allow_spectators": table.allow_spectators,
        "match": None,
    }


def _act(player, match_id, version, action):
    """Make the move (games/live.py); (table id, the actor's new view) or a refusal (with the match's version)."""
    outcome, read = live.act(match_id, player, live.Move(action, version))
    return read.match.table_id, _view_from(read, player, outcome.state)


def _hint(player, match_id) -> dict:
    from .advice_words import hint_shown
    from .services import hints

    hint = hints.hint(match_id, player)
    return {"type": "hint", "match": match_id, **hint, "words": hint_shown(hint)}


def _review(player, match_id, deal) -> dict:
    from .advice_words import review_shown
    from .services import hints

    review = hints.review(match_id, player, deal)
    return {"type": "review", "match": match_id, **review, "words": review_shown(review)}


def _resign(player, match_id):
    return _act_and_view(player, match_id, live.Resign())


def _berserk(player, match_id):
    return _act_and_view(player, match_id, live.Berserk())


def _act_and_view(player, match_id, command):
    """Submit a player's resignation or berserk; (the table, the player's view read afresh)."""
    from .services.presenter import seat_view

    outcome, _read = live.act(match_id, player, command)
    match = match_for_view(pk=match_id)
    return match.table_id, seat_view(match, outcome.seat)
