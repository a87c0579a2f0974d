"""Websocket consumers for browsers (htmx's ws extension).

The server pushes HTML fragments swapped in by id (`hx-swap-oob`); the browser
sends forms as JSON. A consumer never forwards state it was given: on every
"something moved" notice it reads the match and renders its own seat's view.
"""

import json
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from .services import presence
from .services.broadcast import LOBBY_GROUP, table_group

log = logging.getLogger(__name__)


LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)


def _language_of(scope):
    """The page's language: the page puts it in the socket's address (`?lang=en`), since
    browsers send no Referer with a websocket handshake; then the Referer's URL prefix,
    the language cookie, Georgian."""
    asked = parse_qs(scope.get("query_string", b"").decode(errors="ignore")).get("lang", [""])[0]
    if asked in LANGUAGES:
        return asked
    for name, value in scope.get("headers", []):
        if name == b"referer":
            parts = value.decode(errors="ignore").split("/")
            if len(parts) > 3 and parts[3] in LANGUAGES:
                return parts[3]
    for name, value in scope.get("headers", []):
        if name == b"cookie" and b"django_language=" in value:
            return value.decode(errors="ignore").split("django_language=")[1].split(";")[0][:2]
    return "ka"


class LobbyConsumer(AsyncWebsocketConsumer):
    """Tells the lobby page to refetch its list (with its own filters and rights)."""

    async def connect(self):
        self.language = _language_of(self.scope)
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the lobby socket only listens

    async def lobby_changed(self, event):
        with translation.override(self.language):
            html = render_to_string("games/_lobby_signal.html", {"lang": self.language})
        await self.send(text_data=html)


class TableConsumer(AsyncWebsocketConsumer):
    """One browser tab at a table: the waiting room, then the live match.

    Incoming frames are htmx ws-send JSON: {"type": "act", "version": N, "play"/"bid"/"trump": ...},
    {"type": "resync"}. Every reply is HTML for this tab's seat only.
    """

    async def connect(self):
        from accounts.players import player_for_scope

        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.language = _language_of(self.scope)
        self.player = await player_for_scope(self.scope)
        self.group = table_group(self.table_id)
        if not await database_sync_to_async(_may_watch)(self.table_id, self.player):
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.seat_id = await database_sync_to_async(presence.connected)(self.table_id, self.player)
        await self.send_state()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "seat_id", None):
            await database_sync_to_async(presence.disconnected)(self.seat_id)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            with translation.override(self.language):
                frame = parse_browser_frame(text_data)
        except FrameError as exc:
            await self.send_error(exc.message)
            return
        if frame["type"] == "resync":
            await self.send_state()
            return
        handler = resign_for_player if frame["type"] == "resign" else act_for_player
        outcome = await database_sync_to_async(_in_language(handler, self.language))(self.table_id, self.player, frame)
        if outcome is not None:
            await self.send_error(outcome)
            await self.send_state()  # a stale tab catches up at once

    async def table_changed(self, event):
        await self.send_state()

    async def send_state(self):
        html = await database_sync_to_async(render_table_fragment)(self.table_id, self.player, self.language)
        await self.send(text_data=html)

    async def send_error(self, message):
        with translation.override(self.language):
            html = render_to_string("games/_match_error.html", {"message": message})
        await self.send(text_data=html)


def _in_language(function, language):
    """Run `function` with the page's language active (refusals are read by people)."""

    def wrapped(*args):
        with translation.override(language):
            return function(*args)

    return wrapped


class FrameError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def parse_browser_frame(text_data) -> dict:
    """Check the shape of a browser frame; the engine checks what it means."""
    from django.utils.translation import gettext as _

    try:
        data = json.loads(text_data or "")
    except ValueError:
        raise FrameError(_("That message could not be read."))
    if not isinstance(data, dict):
        raise FrameError(_("That message could not be read."))
    kind = data.get("type", "act")
    if kind in ("resync", "resign"):
        return {"type": kind}
    if kind != "act":
        raise FrameError(_("Unknown message type."))
    try:
        version = int(data["version"])
    except (KeyError, TypeError, ValueError):
        raise FrameError(_("The message does not say which position it was made against."))
    action = {}
    for key in ("play", "joker", "suit", "trump"):
        if key in data:
            if not isinstance(data[key], str):
                raise FrameError(_("That action is not understood."))
            action[key] = data[key]
    if "bid" in data:
        try:
            action["bid"] = int(data["bid"])
        except (TypeError, ValueError):
            raise FrameError(_("A bid is a whole number."))
    if not action:
        raise FrameError(_("That action is not understood."))
    return {"type": "act", "version": version, "action": action}


def _may_watch(table_id, player) -> bool:
    from .models import Table
    from .services.tables import can_see

    table = Table.objects.select_related("creator__user").filter(pk=table_id).first()
    return table is not None and can_see(table, player)


def act_for_player(table_id, player, frame) -> str | None:
    """Perform a browser's action; the refusal message, or None when it was applied."""
    from django.utils.translation import gettext as _

    from .models import Match, Seat
    from .services.matches import MatchError, perform

    seat = Seat.objects.filter(table_id=table_id, player=player, left_at__isnull=True).first() if player else None
    if seat is None:
        return _("You are not sitting at this table.")
    match_id = Match.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
    if match_id is None:
        return _("The match has not started yet.")
    try:
        perform(match_id, seat.index, frame["action"], frame["version"])
    except MatchError as exc:
        return exc.message
    return None


def resign_for_player(table_id, player, frame) -> str | None:
    from django.utils.translation import gettext as _

    from .models import Match
    from .services.matches import MatchError, resign

    match_id = Match.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
    if match_id is None or player is None:
        return _("You are not sitting at this table.")
    try:
        resign(match_id, player)
    except MatchError as exc:
        return exc.message
    return None


def render_table_fragment(table_id, player, language) -> str:
    from .match_views import table_context
    from .models import Table, TableStatus

    with translation.override(language):
        table = Table.objects.select_related("creator").get(pk=table_id)
        if table.status == TableStatus.OPEN or not hasattr(table, "match"):
            seats = {s.index: s for s in table.seats.select_related("player")}
            return render_to_string("games/_seat_list.html", {
                "table": table, "seats": [seats.get(i) for i in range(table.seat_count)], "oob": True,
            })
        return render_to_string("games/_match.html", table_context(table, player)) + render_to_string("games/_waiting_gone.html")
