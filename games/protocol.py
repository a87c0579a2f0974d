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

import json
import logging
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from .services import presence
from .services.broadcast import table_group

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)
DEFAULT_LANGUAGE = "en"  # programs read English best; a person's client asks for ka or ru
CLOSE_UNAUTHENTICATED = 4401
MAX_FRAME_CHARS = 4096  # the largest honest message (create_table with a password) is far smaller


DB_THREADS = int(os.environ.get("PROTOCOL_DB_THREADS", "8"))
_db_executor = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="protocol-db")
_thread_connections = set()  # each worker thread's Django connection, to close them on demand
_thread_connections_lock = threading.Lock()


def in_thread(func):
    """Run ORM work on a pool of threads, not on the one thread Channels shares.

    Channels' default (`thread_sensitive=True`) runs all the database work of a
    process, every consumer's, one call after another on a single thread. Nothing
    here relies on thread affinity, and the row lock in `perform` keeps each
    match's moves in order. Each pool thread keeps its own database connection.
    """
    def call(*args, **kwargs):
        from django.db import DEFAULT_DB_ALIAS, connections

        with _thread_connections_lock:
            _thread_connections.add(connections[DEFAULT_DB_ALIAS])
        return func(*args, **kwargs)

    return database_sync_to_async(call, thread_sensitive=False, executor=_db_executor)


def close_thread_connections():
    """Close the pool threads' database connections (tests, before their database goes)."""
    with _thread_connections_lock:
        wrappers = list(_thread_connections)
        _thread_connections.clear()
    for wrapper in wrappers:
        wrapper.inc_thread_sharing()
        try:
            wrapper.close()
        finally:
            wrapper.dec_thread_sharing()


class Refusal(Exception):
    """A refused message: `code` for programs, `message` for people."""

    def __init__(self, code, message, version=None):
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.version = version


def _header(scope, name: bytes):
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _language_of(scope) -> str:
    for part in (_header(scope, b"accept-language") or "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


class TokenOrSameOrigin:
    """ASGI middleware: a browser's socket must come from one of our pages, a program's need not.

    The Origin check keeps another site's page from opening a socket that rides
    on the visitor's session cookie. A page cannot set an Authorization header
    on a websocket, so a handshake that carries one is a program's, which
    authenticates with its token instead of cookies.
    """

    def __init__(self, application):
        from channels.security.websocket import AllowedHostsOriginValidator

        self.application = application
        self.same_origin_only = AllowedHostsOriginValidator(application)

    async def __call__(self, scope, receive, send):
        if _header(scope, b"authorization") is not None:
            return await self.application(scope, receive, send)
        return await self.same_origin_only(scope, receive, send)


class PlayConsumer(AsyncWebsocketConsumer):
    """One program's connection: any number of tables, one seat at each."""

    async def connect(self):
        self.language = _language_of(self.scope)
        self.player = None
        self.tables = {}  # table id -> the last version sent (None before the match), for subscribed tables
        self.presence_seats = {}  # table id -> seat id counted as connected by this socket
        await self.accept()
        authorization = _header(self.scope, b"authorization")
        if authorization is not None:
            self.player = await in_thread(_player_for_authorization)(authorization)
            if self.player is None:
                await self._refuse_connection("invalid_token", _("The access token is missing, unknown or revoked."))
                return
        else:
            from accounts.players import player_for_scope

            self.player = await player_for_scope(self.scope)
            if self.player is None:
                await self._refuse_connection(
                    "not_authenticated",
                    _("Send a personal access token (Authorization: Bearer <token>) or sign in first."))
                return

    async def _refuse_connection(self, code, message):
        with translation.override(self.language):
            await self.send_json({"type": "error", "code": code, "message": str(message)})
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def disconnect(self, code):
        for table_id in list(self.tables):
            await self.channel_layer.group_discard(table_group(table_id), self.channel_name)
        for seat_id in self.presence_seats.values():
            await in_thread(presence.disconnected)(seat_id)
        self.tables.clear()
        self.presence_seats.clear()

    # --- receiving ----------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        if self.player is None:
            return  # the connection is being closed
        with translation.override(self.language):
            message = None
            try:
                message = parse_message(text_data)
                if message["type"] == "ping":  # the transport's floor: no database, no thread
                    await self.send_json(_reply(message, {"type": "pong"}))
                    return
                handler = getattr(self, "on_" + message["type"])
                await handler(message)
            except Refusal as refusal:
                await self.send_error(refusal, message)

    async def on_hello(self, message):
        if message.get("language") in LANGUAGES:
            self.language = message["language"]
            translation.activate(self.language)
        welcome = await in_thread(_welcome)(self.player, self.language)
        await self.send_json(_reply(message, welcome))

    async def on_create_table(self, message):
        table_id = await in_thread(_create_table)(self.player, message.get("variant"), message.get("options"))
        await self._subscribe(table_id, message)

    async def on_join_table(self, message):
        table_id = _int_field(message, "table")
        seat = message.get("seat")
        if seat is not None and type(seat) is not int:
            raise Refusal("bad_message", _("A seat is a whole number."))
        password = message.get("password", "")
        if not isinstance(password, str):
            raise Refusal("bad_message", _("A password is text."))
        await in_thread(_join_table)(self.player, table_id, password, seat)
        await self._subscribe(table_id, message)

    async def on_leave_table(self, message):
        table_id = _int_field(message, "table")
        await in_thread(_leave_table)(self.player, table_id)
        await self._unsubscribe(table_id)
        await self.send_json(_reply(message, {"type": "left", "table": table_id}))

    async def on_resync(self, message):
        if "match" in message:
            table_id = await in_thread(_table_of_match)(_int_field(message, "match"))
        else:
            table_id = _int_field(message, "table")
        await in_thread(_check_may_watch)(table_id, self.player)
        self.tables.pop(table_id, None)  # send the position even if this version went out before
        await self._subscribe(table_id, message)

    async def on_act(self, message):
        match_id = _int_field(message, "match")
        version = _int_field(message, "version")
        action = message.get("action")
        if not isinstance(action, dict):
            raise Refusal("bad_message", _("An act message needs an action object."))
        if "seat" in action:
            raise Refusal("invalid_action", _("Leave the seat out of the action: the server knows where you sit."))
        try:
            table_id, view = await in_thread(_act)(self.player, match_id, version, action)
        except Refusal as refusal:
            await self.send_error(refusal, message)
            if refusal.code == "stale_version":
                await self._resend(match_id)  # a client that fell behind catches up at once
            return
        await self._send_view(table_id, view)

    async def on_rematch(self, message):
        """After a match: sit at its rematch (the first to ask creates it; the others meet there)."""
        table_id = await in_thread(_rematch)(self.player, _int_field(message, "table"))
        await self._subscribe(table_id, message)

    async def on_resign(self, message):
        match_id = _int_field(message, "match")
        table_id, view = await in_thread(_resign)(self.player, match_id)
        await self._send_view(table_id, view)

    # --- sending --------------------------------------------------------------------------

    async def table_changed(self, event):
        """A notice from a table's group: render this connection's own view, unless it already has it."""
        table_id, version = event.get("table"), event.get("version")
        if table_id not in self.tables:
            return
        sent = self.tables[table_id]
        if version is not None and sent is not None and version <= sent:
            return
        await self._send_table(table_id, version=version)

    async def _subscribe(self, table_id, message=None):
        if table_id not in self.tables:
            await self.channel_layer.group_add(table_group(table_id), self.channel_name)
            self.tables[table_id] = None
            seat_id = await in_thread(presence.connected)(table_id, self.player)
            if seat_id is not None:
                self.presence_seats[table_id] = seat_id
        await self._send_table(table_id, message)

    async def _unsubscribe(self, table_id):
        if self.tables.pop(table_id, "absent") != "absent":
            await self.channel_layer.group_discard(table_group(table_id), self.channel_name)
        seat_id = self.presence_seats.pop(table_id, None)
        if seat_id is not None:
            await in_thread(presence.disconnected)(seat_id)

    async def _resend(self, match_id):
        table_id = await in_thread(_table_of_match)(match_id)
        if table_id in self.tables:
            self.tables[table_id] = None
            await self._send_table(table_id)

    async def _send_table(self, table_id, message=None, version=None):
        """The match position for this connection's seat, or the waiting room before the match
        (`version`: the one a notice announced, which this process may have read already)."""
        kind, payload = await in_thread(_table_payload)(table_id, self.player, version)
        if kind == "state":
            await self._send_view(table_id, payload)
        else:
            await self.send_json(_reply(message, payload))

    async def _send_view(self, table_id, view):
        sent = self.tables.get(table_id)
        if sent is not None and view["version"] < sent:
            return  # a newer position already went out
        if table_id in self.tables:
            self.tables[table_id] = view["version"]
        await self.send_json({"type": "state", **view})

    async def send_error(self, refusal, message=None):
        error = {"type": "error", "code": refusal.code, "message": refusal.message}
        if refusal.version is not None:
            error["version"] = refusal.version
        if message is not None:
            error["in_reply_to"] = message.get("type")
        await self.send_json(_reply(message, error))

    async def send_json(self, data):
        await self.send(text_data=json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def _reply(message, data):
    """A direct answer carries the `id` the client gave its message, if any."""
    if message is not None and "id" in message:
        data["id"] = message["id"]
    return data


MESSAGE_TYPES = ("hello", "create_table", "join_table", "leave_table", "act", "resync", "resign", "rematch", "ping")


def parse_message(text_data) -> dict:
    """Check that a frame is a JSON object with a known type; the handlers check the rest."""
    if text_data is None or len(text_data) > MAX_FRAME_CHARS:
        raise Refusal("bad_json", _("That message could not be read."))
    try:
        message = json.loads(text_data)
    except ValueError:
        raise Refusal("bad_json", _("That message could not be read."))
    if not isinstance(message, dict):
        raise Refusal("bad_json", _("A message is a JSON object with a type."))
    if message.get("type") not in MESSAGE_TYPES:
        raise Refusal("unknown_type", _("Unknown message type."))
    return message


def _int_field(message, name) -> int:
    value = message.get(name)
    if type(value) is not int:
        raise Refusal("bad_message", _("The field “%(name)s” must be a whole number.") % {"name": name})
    return value


# --- the database side (each runs in a worker thread) ------------------------------------------

def _player_for_authorization(header):
    from accounts.players import player_for_user
    from accounts.tokens import bearer_token, user_for_token

    user = user_for_token(bearer_token(header))
    return player_for_user(user) if user is not None else None


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
    from .services.tables import TableError, create_table

    form_class = FORM_BY_VARIANT.get(variant)
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
    try:
        return create_table(player, form.table_settings()).pk
    except TableError as exc:
        raise Refusal(exc.code, exc.message) from exc


def _join_table(player, table_id, password, seat_index):
    from .models import Table
    from .services.tables import TableError, sit

    if not Table.objects.filter(pk=table_id).exists():
        raise Refusal("no_such_table", _("There is no such table."))
    try:
        sit(table_id, player, password=password, client_key=f"player:{player.pk}", seat_index=seat_index)
    except TableError as exc:
        raise Refusal(exc.code, exc.message) from exc


def _leave_table(player, table_id):
    from .models import Table
    from .services.tables import TableError, stand

    if not Table.objects.filter(pk=table_id).exists():
        raise Refusal("no_such_table", _("There is no such table."))
    try:
        stand(table_id, player)
    except TableError as exc:
        raise Refusal(exc.code, exc.message) from exc


def _rematch(player, table_id) -> int:
    from .models import Table
    from .services.tables import TableError, offer_rematch

    try:
        return offer_rematch(table_id, player).pk
    except Table.DoesNotExist:
        raise Refusal("no_such_table", _("There is no such table.")) from None
    except TableError as exc:
        raise Refusal(exc.code, exc.message) from exc


def _table_of_match(match_id) -> int:
    from .models import Match

    table_id = Match.objects.filter(pk=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise Refusal("no_such_match", _("There is no such match."))
    return table_id


def _check_may_watch(table_id, player):
    from .models import Table
    from .services.tables import can_see

    table = Table.objects.select_related("creator__user").filter(pk=table_id).first()
    if table is None:
        raise Refusal("no_such_table", _("There is no such table."))
    if not can_see(table, player):
        raise Refusal("friends_only", _("This table is for the creator's friends only."))


def _match_for_view(**lookup):
    """The match with its table and seats (with players) in two queries. The record comes
    along: a process renders for its seats every move made in another process, so the
    cache usually holds only the previous position, which the record brings up to date."""
    from django.db.models import Prefetch

    from .models import Match
    from .services.matches import seats_with_players

    seats = Prefetch("table__seats", queryset=seats_with_players())
    found = list(Match.objects.select_related("table").prefetch_related(seats).filter(**lookup)[:1])  # one at most
    return found[0] if found else None


# --- one read per table and version for all of this process's connections ----------------
#
# A move is announced to every seat's connection, and several of them may be in
# this process: the first to render reads the match and its seats, the others
# render their own seat's view from that read. An entry only ever holds what was
# read after its version was committed (the seats too), so it is never older than
# what a presence notice (which always reads afresh) already showed.

TABLE_READS_KEPT = 512


@dataclass(frozen=True)
class TableRead:
    version: int
    started: float  # time.monotonic() when the read began: of two reads of one version, the later wins
    match: object
    seats: list


_table_reads: OrderedDict = OrderedDict()  # table id -> TableRead
_table_reads_lock = threading.Lock()


def _remember_read(table_id, read: TableRead) -> None:
    with _table_reads_lock:
        known = _table_reads.get(table_id)
        if known is None or (read.version, read.started) > (known.version, known.started):
            _table_reads[table_id] = read
            _table_reads.move_to_end(table_id)
            while len(_table_reads) > TABLE_READS_KEPT:
                _table_reads.popitem(last=False)


def _read_at_least(table_id, version):
    """This process's read of the table at `version` or later, if it has one."""
    with _table_reads_lock:
        read = _table_reads.get(table_id)
    return read if read is not None and read.version >= version else None


def forget_table_reads() -> None:
    """Tests that rewrite a match by hand."""
    with _table_reads_lock:
        _table_reads.clear()


def _seats_of(table_id):
    from .services.matches import seats_with_players

    return list(seats_with_players().filter(table_id=table_id))


def _view_from(read: TableRead, player, state=None):
    from .services.matches import held_seat
    from .services.presenter import seat_view

    return seat_view(read.match, held_seat(read.seats, player), state, seats=read.seats)


def _table_payload(table_id, player, version=None):
    """("state", seat view) once the match exists, else ("table", the waiting room).

    `version`: the one a notice announced; a read of it (or later) made in this
    process serves. Without one (a join, a resync, a presence change) it reads afresh."""
    from .models import Table
    from .services.presenter import public_seats, seat_of

    if version is not None:
        read = _read_at_least(table_id, version)
        if read is not None:
            return "state", _view_from(read, player)
    started = time.monotonic()
    match = _match_for_view(table_id=table_id)
    if match is not None:
        read = TableRead(match.version, started, match, list(match.table.seats.all()))
        _remember_read(table_id, read)
        return "state", _view_from(read, player)
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
        "visibility": table.visibility,
        "rated": table.rated,
        "match": None,
    }


def _seat_at_match(player, match_id) -> int:
    """The player's seat index at this match (one query), or a refusal."""
    from .models import Match, Seat

    seat = (Seat.objects.filter(table__match__pk=match_id, player=player, left_at__isnull=True)
            .values_list("index", flat=True).first())
    if seat is not None:
        return seat
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if version is None:
        raise Refusal("no_such_match", _("There is no such match."))
    raise Refusal("not_seated", _("You are not sitting at this table."), version)


def _act(player, match_id, version, action):
    """Perform the action; (table id, the actor's new view) or a refusal."""
    from .models import Match
    from .services.matches import MatchError, perform_for_player

    try:
        outcome = perform_for_player(match_id, player, action, version)
    except MatchError as exc:
        current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
        raise Refusal(exc.code, exc.message, current) from exc
    # The committed match and position are what perform holds; the seats are read again
    # now, after the commit, so that this read can serve the other seats' connections here.
    table_id = outcome.match.table_id
    read = TableRead(outcome.version, time.monotonic(), outcome.match, _seats_of(table_id))
    _remember_read(table_id, read)
    return table_id, _view_from(read, player, outcome.state)


def _resign(player, match_id):
    from .models import Match
    from .services.matches import MatchError, resign
    from .services.presenter import seat_view

    seat = _seat_at_match(player, match_id)
    try:
        resign(match_id, player)
    except MatchError as exc:
        current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
        raise Refusal(exc.code, exc.message, current) from exc
    match = _match_for_view(pk=match_id)
    return match.table_id, seat_view(match, seat)
