"""The home page's waiting panel, live (`ws/quickplay/`): how many are looking, and the move
to the match the moment the pairing seats the player, whichever process or task paired them.

The page opens this socket only while its player waits (quickplay/_section.html). The socket
follows the player's group (paired, taken out) and the queue group (someone came or went);
on each notice it renders the panel again, for its own player, in its page's language.
"""

import logging
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.languages import page_socket_language
from accounts.sockets import MemberSocket
from joker_site import heartbeat
from joker_site.db_threads import in_thread
from joker_site.frame_budget import BudgetedFrames
from joker_site.page_gone import DropFramesToAPageGone

from . import services
from .models import EntryStatus, QueueEntry

log = logging.getLogger(__name__)


def _tell_still_here() -> None:
    services.still_here_all(_waiting_players.snapshot())


# Players whose page or program in this process follows their waiting entry: on the process's
# heartbeat (joker_site/heartbeat.py) the queue is told they are still there. A player whose
# every page closed is taken out by the next pairing (QUICKPLAY_ABSENT_SECONDS).
_waiting_players = heartbeat.Holds("quick-play waiters", _tell_still_here)


class StillHere:
    """Whether one socket holds its player as still waiting (for the heartbeat)."""

    def __init__(self, player):
        self.player_id = player.pk
        self.held = False

    async def follow(self, waiting: bool) -> None:
        """The socket follows a waiting entry now (`waiting`), or no longer."""
        if waiting and not self.held:
            _waiting_players.hold(self.player_id)
            self.held = True
        elif not waiting and self.held:
            await self.stop()

    async def stop(self) -> None:
        """No longer: once a beat that is writing now has finished, so nothing says "still here"
        for this socket after it closed."""
        if self.held:
            self.held = False
            await in_thread(_waiting_players.release_after_beat)(self.player_id)


def forget_waiting_players() -> None:
    """Forget this process's waiting players (tests whose sockets never closed)."""
    _waiting_players.forget()


class QuickPlayConsumer(BudgetedFrames, MemberSocket, DropFramesToAPageGone, AsyncWebsocketConsumer):
    async def connect(self):
        from accounts.players import player_for_scope

        self.language = page_socket_language(self.scope)
        self.player = await player_for_scope(self.scope)
        if self.player is None:
            await self.close(code=4403)
            return
        asked = parse_qs(self.scope.get("query_string", b"").decode(errors="ignore")).get("entry", [""])[0]
        self.entry_id = int(asked) if asked.isdigit() else None
        self.queue = None
        self.groups_followed = [services.player_group(self.player.pk), services.QUEUE_GROUP]
        await self.follow_member(self.player)
        for group in self.groups_followed:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        self.still_here = StillHere(self.player)
        await self.send_panel(go_if_paired=True)  # paired between the page's rendering and this socket

    async def disconnect(self, code):
        if getattr(self, "still_here", None) is not None:
            await self.still_here.stop()
        await self.forget_member()
        for group in getattr(self, "groups_followed", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the panel's buttons are form posts; whatever arrives here is dropped

    async def quickplay_changed(self, event):
        if self.queue is not None and event.get("queue") == self.queue:
            await self.send_panel()

    async def quickplay_paired(self, event):
        self.entry_id = event.get("entry", self.entry_id)
        await self.send_panel(go_if_paired=True)

    async def quickplay_dropped(self, event):
        await self.send_panel(dropped=event.get("code", ""))

    async def send_panel(self, go_if_paired=False, dropped=""):
        html, self.queue = await in_thread(panel_html)(
            self.player, self.language, self.entry_id if go_if_paired else None, dropped)
        await self.still_here.follow(self.queue is not None)
        await self.send(text_data=html)


def panel_html(player, language, paired_entry_id=None, dropped="") -> tuple[str, list | None]:
    """The panel (hx-swap-oob) and the queue it shows (None when the player no longer waits).

    `paired_entry_id`: the entry this page waited with; once paired, the page goes to its table."""
    from .views import section_context

    with translation.override(language):
        go_to = ""
        if paired_entry_id is not None:
            table_id = (QueueEntry.objects.filter(pk=paired_entry_id, player=player, status=EntryStatus.PAIRED)
                        .values_list("table_id", flat=True).first())
            if table_id is not None:
                go_to = reverse("table", kwargs={"table_id": table_id})
        context = section_context(player, notice=services.dropped_sentence(dropped) if dropped else "")
        context.update(oob=True, quickplay_go=go_to)
        entry = context["quickplay_entry"]
        html = render_to_string("quickplay/_panel.html", context)
    return html, services.Queue.of(entry).as_key() if entry is not None else None
