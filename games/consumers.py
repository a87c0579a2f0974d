"""Websocket consumers for browsers (htmx's ws extension).

The server pushes HTML fragments swapped in by id (`hx-swap-oob`); the browser
sends forms as JSON. A consumer never forwards state it was given: on every
"something moved" notice it reads the match and renders its own seat's view.
"""

import json
import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from accounts.languages import in_language, page_socket_language
from accounts.sockets import MemberSocket
from joker_site.db_outage import DatabaseUnavailable
from joker_site.db_threads import in_thread, move_in_thread, unless_database_away
from joker_site.frame_budget import BudgetedFrames
from joker_site.page_gone import DropFramesToAPageGone
from joker_site.refetch import RefetchAtMostEverySecond
from joker_site.refusals import Refusal

from . import live
from .advice_tasks import AdviceBesideTheQueue
from .consumer_dispatch import DispatchWithoutHop
from .frames import UnreadableFrame, read_json_object
from .notice_turns import LaterUpdates
from .services import presence, spectators
from .services.broadcast import LOBBY_GROUP, table_group
from .services.spectators import WatchRefused
from .socket_parts import page_frames, page_parts_for
from .table_reads import (
    follow_move_notice,
    note_spectators,
    shared_table_read,
)

log = logging.getLogger(__name__)


class LobbyConsumer(RefetchAtMostEverySecond, DispatchWithoutHop, BudgetedFrames, MemberSocket,
                    DropFramesToAPageGone, AsyncWebsocketConsumer):
    """Tells the lobby page to refetch its list (with its own filters and rights), at most once
    a second (joker_site/refetch.py): spectators coming and going and matches moving on do not
    make every lobby refetch for each of them."""

    async def connect(self):
        from accounts.players import player_for_scope

        self.language = page_socket_language(self.scope)
        self.player = await player_for_scope(self.scope)
        await self.follow_member(self.player)
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        self.stop_refetching()
        await self.forget_member()
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the lobby socket only listens: whatever arrives is dropped

    async def lobby_changed(self, event):
        await self.refetch_soon()

    async def send_refetch_signal(self):
        with translation.override(self.language):
            html = render_to_string("games/_lobby_signal.html", {"lang": self.language})
        await self.send(text_data=html)


class TableConsumer(DispatchWithoutHop, BudgetedFrames, AdviceBesideTheQueue, MemberSocket,
                    DropFramesToAPageGone, AsyncWebsocketConsumer):
    """One browser tab at a table: the waiting room, then the live match.

    Incoming frames are htmx ws-send JSON: {"type": "act", "version": N, "play"/"bid"/"trump": ...},
    {"type": "resync"}. Every reply is HTML for this tab's seat only.
    """

    layings = None  # version -> how the page lays its cards (games/pacing.py), until it is drawn
    in_sight = False  # whether this seat's page said it is in sight (counted in presence)

    async def connect(self):
        try:
            await self._connect()
        except DatabaseUnavailable:  # said once per outage; htmx opens the socket again
            self.closing = True
            await self.close(code=CLOSE_TRY_AGAIN_LATER)
        except Exception:
            # A fault of ours while the page opens: closed, the page opens it again. Raised, it
            # would end the consumer before its disconnect ran, and the seat counted as
            # connected would stay so (joker_site/page_gone.py).
            log.exception("table %s: a page's socket failed to open", getattr(self, "table_id", "?"))
            self.closing = True
            await self.close(code=CLOSE_TRY_AGAIN_LATER)

    async def _connect(self):
        from accounts.players import player_for_scope

        self.closing = False
        self.parts = page_parts_for(self)  # the table chat (games/socket_parts.py)
        self.later_updates = LaterUpdates()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.language = page_socket_language(self.scope)
        self.player = await player_for_scope(self.scope)
        self.group = table_group(self.table_id)
        refusal = await in_thread(in_language(spectators.refusal_to_follow, self.language))(self.table_id, self.player)
        if refusal is not None and refusal.code == "no_such_table":
            await self.close(code=4404)
            return
        if refusal is not None:
            await self.accept()
            await self.refuse_watcher(refusal)
            return
        await self.follow_member(self.player)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.seat_id = await in_thread(presence.connected)(self.table_id, self.player)
        if self.seat_id is not None:
            await self.page_in_sight(True)
        for part in self.parts:  # the table chat's room
            await part.joined(seated=self.seat_id is not None)
        if self.seat_id is None:  # someone without a seat: a spectator, counted while the socket is open
            self.spectator_id = await in_thread(spectators.came)(self.table_id, self.player)
        await self.send_state()
        for part in self.parts:  # the chat's last messages
            await part.caught_up()

    async def page_in_sight(self, in_sight: bool):
        """The page says whether it is in sight (a seat's page counts for push's "your move",
        games/services/presence.py); a page is in sight from its connection until it says not."""
        if getattr(self, "seat_id", None) is None or in_sight == self.in_sight:
            return
        self.in_sight = in_sight
        await in_thread(presence.page_in_sight)(self.seat_id, in_sight)

    async def disconnect(self, code):
        self.later_updates.cancel()
        self.stop_advice()
        if getattr(self, "seat_id", None) and self.in_sight:
            self.in_sight = False
            await in_thread(presence.page_in_sight)(self.seat_id, False)
        await self.forget_member()
        for part in getattr(self, "parts", ()):
            await part.closed()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "seat_id", None):
            await unless_database_away(in_thread(presence.disconnected)(self.seat_id))
        if getattr(self, "spectator_id", None):
            spectator_id, self.spectator_id = self.spectator_id, None
            await unless_database_away(in_thread(spectators.went)(spectator_id))

    async def refuse_watcher(self, refusal):
        """Someone without a seat may not watch this match (services/spectators.py): say why, close (4403)."""
        self.closing = True
        if getattr(self, "spectator_id", None):
            spectator_id, self.spectator_id = self.spectator_id, None
            await in_thread(spectators.went)(spectator_id)
        html = await in_thread(_refusal_fragment)(self.table_id, self.player, refusal, self.language)
        await self.send(text_data=html)
        await self.close(code=CLOSE_WATCH_REFUSED)

    async def spectators_changed(self, event):
        """How many watch now: only the small count, on a page that shows the match."""
        note_spectators(event)
        if self.closing or getattr(self, "shown_version", -1) < 0:
            return
        with translation.override(self.language):
            html = render_to_string("games/_spectator_count.html", {"spectators": event["count"], "oob": True})
        await self.send(text_data=html)

    async def frames_refused(self, budget):
        with translation.override(self.language):
            await self.send_error(budget.refusal_sentence())

    async def receive(self, text_data=None, bytes_data=None):
        if self.closing:
            return
        try:
            await self.answer(text_data)
        except Refusal as refusal:  # the database away (joker_site/db_outage.py): say so, the page may retry
            await self.send_error(refusal.message)
        except Exception:
            # A fault of ours must not close a seat's socket (its disconnect grace would start).
            log.exception("table %s: a frame failed", self.table_id)
            with translation.override(self.language):
                await self.send_error(_("The server could not answer that message."))

    async def answer(self, text_data):
        try:
            with translation.override(self.language):
                frame = parse_browser_frame(text_data)
        except Refusal as refusal:
            await self.send_error(refusal.message)
            return
        if frame["type"] == "resync":
            await self.send_state()
            return
        if frame["type"] == "visibility":
            await self.page_in_sight(frame["visible"])
            return
        if frame["type"] in ADVICE_FRAMES:
            await self.answer_advice(frame)
            return
        part = next((part for part in self.parts if frame["type"] in part.frames), None)
        if part is not None:  # a chat frame
            await part.receive(frame)
            return
        self.own_move_next = False
        outcome = await move_in_thread(in_language(act_for_player, self.language))(self.table_id, self.player, frame)
        self.own_move_next = outcome is None  # its notice is the next this tab handles: it skips the turns
        if outcome is None:
            self.frame_budget.refund()  # a move the match took: the turns pace those (joker_site/frame_budget.py)
        else:
            await self.send_error(outcome)
            await self.send_state(keep_error=True)  # a stale tab catches up at once

    async def answer_advice(self, frame):
        """A hint or a deal's review (games/services/hints.py): worked out beside this tab's queue
        of frames and notices, on a database thread (games/advice_tasks.py)."""
        if self.advice_busy():
            with translation.override(self.language):
                await self.send_error(self.busy_sentence())
            return
        self.work_out_advice(self._send_advice(frame))

    async def _send_advice(self, frame):
        try:
            html = await in_thread(in_language(advice_fragment, self.language))(self.table_id, self.player, frame)
        except Refusal as refusal:
            await self.send_error(refusal.message)
            return
        except Exception:
            log.exception("table %s: a hint or review failed", self.table_id)
            with translation.override(self.language):
                await self.send_error(_("The server could not answer that message."))
            return
        if not self.closing:
            await self.send(text_data=html + render_to_string("games/_match_error.html", {"message": ""}))

    async def table_changed(self, event):
        """A move (its notice carries the version) or a presence change (none): a position this
        tab already shows costs nothing; a new one is rendered from this process's one read
        of the table at that version (shared by every tab here)."""
        version = event.get("version")
        if self.closing or (version is not None and version <= getattr(self, "shown_version", -1)):
            return
        if event.get("laying"):
            self.layings = {**(self.layings or {}), version: event["laying"]}
        await follow_move_notice(event)
        if version is not None and getattr(self, "own_move_next", False):
            self.own_move_next = False  # the first move's notice after this tab's move: its own (or a later one)
            await self.send_state(version=version)
            return
        self.later_updates.want(self.table_id, version, self._draw_update)  # in its turn, not in this handler

    async def _draw_update(self, version):
        if not self.closing and (version is None or version > getattr(self, "shown_version", -1)):
            await self.send_state(version=version)

    async def table_check(self, event):
        """The sweeper's reminder of the table's version: only a tab that missed it renders again."""
        if event.get("version") is None or event["version"] > getattr(self, "shown_version", -1):
            await self.send_state()

    async def send_state(self, keep_error=False, version=None):
        """This tab's view; a refusal shown earlier goes with the position it was about
        (only the catch-up sent right after the refusal keeps it). `version`: the one a
        notice announced (a read of it made in this process serves)."""
        try:
            html, shown = await in_thread(table_fragment)(
                self.table_id, self.player, self.language, version)
        except WatchRefused as refusal:  # the match started under a watcher who may not see it
            await self.refuse_watcher(refusal)
            return
        showing = getattr(self, "shown_version", -1)
        if shown < showing or (version is not None and shown == showing):
            # Another render already showed a later position (a presence change's read that
            # began before a move's notice and ended after it), or this one.
            return
        html += self._laying_of(showing, shown)
        self.shown_version = shown
        if not keep_error:
            html += render_to_string("games/_match_error.html", {"message": ""})
        await self.send(text_data=html)

    def _laying_of(self, showing, shown) -> str:
        """How the page lays the cards of version `shown` after `showing` (games/pacing.py), when
        it showed the version just before: a tab that missed versions shows the position at once."""
        layings = self.layings or {}
        laying = layings.get(shown) if shown == showing + 1 else None
        self.layings = {version: steps for version, steps in layings.items() if version > shown} or None
        if not laying:
            return ""
        return format_html('<template id="match-laying" data-version="{}" data-steps="{}"></template>',
                           shown, json.dumps(laying))

    async def send_error(self, message):
        with translation.override(self.language):
            html = render_to_string("games/_match_error.html", {"message": message})
        await self.send(text_data=html)

    async def say_closing(self, sentence):
        await self.send_error(sentence)


class FrameError(Refusal):
    """A browser frame that is not a well-formed message (the protocol's codes)."""


def parse_browser_frame(text_data) -> dict:
    """Check the shape of a browser frame; the engine checks what it means."""
    try:
        data = read_json_object(text_data)  # games/frames.py: what any socket refuses to read
    except UnreadableFrame:
        raise FrameError("bad_json", _("That message could not be read.")) from None
    kind = data.get("type", "act")
    if not isinstance(kind, str):
        raise FrameError("unknown_type", _("Unknown message type."))
    if kind in ("resync", "resign", "berserk", "hint"):
        return {"type": kind}
    if kind == "review":
        if type(data.get("deal")) is not int:
            raise FrameError("bad_message", _("Say which deal to review: its number."))
        return {"type": kind, "deal": data["deal"]}
    if kind == "visibility":
        if not isinstance(data.get("visible"), bool):
            raise FrameError("bad_message", _("Say whether the page is in sight: true or false."))
        return {"type": kind, "visible": data["visible"]}
    if kind in page_frames():
        return {"type": kind, "data": data}  # its part reads it (chat/sockets.py)
    if kind != "act":
        raise FrameError("unknown_type", _("Unknown message type."))
    try:
        version = int(data["version"])
    except (KeyError, TypeError, ValueError):
        raise FrameError("bad_message", _("The message does not say which position it was made against."))
    action = {}
    for key in ("play", "joker", "suit", "trump"):
        if key in data:
            if not isinstance(data[key], str):
                raise FrameError("malformed_action", _("That action is not understood."))
            action[key] = data[key]
    if "bid" in data:
        try:
            action["bid"] = int(data["bid"])
        except (TypeError, ValueError):
            raise FrameError("malformed_action", _("A bid is a whole number."))
    if not action:
        raise FrameError("malformed_action", _("That action is not understood."))
    return {"type": "act", "version": version, "action": action}


ADVICE_FRAMES = ("hint", "review")
CLOSE_WATCH_REFUSED = 4403
CLOSE_TRY_AGAIN_LATER = 1013  # the database was away, or a fault of ours, when the socket opened


def _refusal_fragment(table_id, player, refusal, language) -> str:
    from .models import Table

    with translation.override(language):
        table = Table.objects.get(pk=table_id)
        return render_to_string("games/_watch_refused_live.html", {"table": table, "player": player,
                                                                    "refusal": refusal})


def act_for_player(table_id, player, frame) -> str | None:
    """A page's move, resignation or berserk (games/live.py, the protocol's way in too): the refusal's
    message for the page, or None when it was made."""
    commands = {"resign": live.Resign, "berserk": live.Berserk}
    command = commands[frame["type"]]() if frame["type"] in commands else live.Move(frame["action"], frame["version"])
    try:
        live.act(live.match_at_table(table_id), player, command)
    except Refusal as refusal:
        return refusal.message
    return None


def advice_fragment(table_id, player, frame) -> str:
    """The HTML of a hint (beside the hand) or of a deal's review (in the deal's summary), for the
    asking player's page alone; a refusal (a rated table, a spectator, not their move) raises."""
    from .advice_words import hint_shown, review_shown
    from .services import hints

    match_id = live.match_at_table(table_id)
    if frame["type"] == "hint":
        return render_to_string("games/_hint.html", {"hint": hint_shown(hints.hint(match_id, player)), "oob": True})
    review = hints.review(match_id, player, frame["deal"])
    return render_to_string("games/_deal_review.html", {"deal": review["deal"], "review": review_shown(review),
                                                         "oob": True})


def table_fragment(table_id, player, language, version=None) -> tuple[str, int]:
    """The tab's HTML and the match version it shows (-1 before the match).

    `version`: the one a notice announced. The match and its seats come from this
    process's one read of the table at that version or later (games/table_reads.py's
    TableRead, shared with the JSON protocol's connections); without one, or before
    the match, from the database."""
    from .match_views import page_context
    from .models import Table, TableStatus
    with translation.override(language):
        read = shared_table_read(table_id, version) if version is not None else None
        if read is not None:
            table = read.match.table
            # Counted when a read starts from nothing; the count's own notices keep it (note_spectators).
            watching = read.shared.get("spectators")
            if watching is None:
                watching = read.shared["spectators"] = spectators.count(table_id)
            context = page_context(table, player, match=read.match, public=read.public_seats(), watching=watching)
        else:
            table = Table.objects.select_related("creator").get(pk=table_id)
            if table.status == TableStatus.CLOSED and not hasattr(table, "match"):
                return render_to_string("games/_table_closed.html", {"table": table, "oob": True}), -1
            if table.status == TableStatus.OPEN or not hasattr(table, "match"):
                seats = {s.index: s for s in table.seats.select_related("player")}
                return render_to_string("games/_seat_list.html", {
                    "table": table, "seats": [seats.get(i) for i in range(table.seat_count)], "oob": True,
                }), -1
            context = page_context(table, player)
        if context["me"] is None:  # a watcher: the shared read serves them only if they may watch
            refusal = spectators.watch_refusal(table, player)
            if refusal is not None:
                raise refusal
        html = render_to_string("games/_match.html", context) + render_to_string("games/_waiting_gone.html")
        return html, context["version"]
