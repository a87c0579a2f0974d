"""The arena's live pages: the tournament page's socket (`ws/tournament/<id>/`) and the arena's
share of the table page's socket (games/socket_parts.py).

Both tell the arena on this process's heartbeat (joker_site/heartbeat.py) that their player
is there (`services.still_here_all`): a player whose every arena page and arena table closed
is paused by the next pairing (TOURNAMENT_ABSENT_SECONDS). Both follow the player's group:
when the pairing seats the player, the page asks where (`/tournaments/<id>/go/`) and goes
there. The tournament page also follows the tournament's group and fetches its live part
again when the standings change (at most once a second).
"""


from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from accounts.languages import page_socket_language
from accounts.sockets import MemberSocket
from games.socket_parts import PagePart
from joker_site import heartbeat
from joker_site.db_threads import in_thread
from joker_site.frame_budget import BudgetedFrames
from joker_site.page_gone import DropFramesToAPageGone
from joker_site.refetch import RefetchAtMostEverySecond

from . import services
from .models import ArenaGame, Tournament


def _tell_still_here() -> None:
    services.still_here_all(_arena_players.snapshot())


_arena_players = heartbeat.Holds("arena players", _tell_still_here)


def forget_arena_players() -> None:
    """Forget this process's arena players (tests whose sockets never closed)."""
    _arena_players.forget()


class Presence:
    """One socket's hold on its player as "there" for the arena's pairing."""

    def __init__(self):
        self.player_id = None

    def hold(self, player_id) -> None:
        if self.player_id is None:
            self.player_id = player_id
            _arena_players.hold(player_id)

    async def stop(self) -> None:
        if self.player_id is not None:
            player_id, self.player_id = self.player_id, None
            await in_thread(_arena_players.release_after_beat)(player_id)


def _go_signal(language: str, tournament_id: int) -> str:
    return render_to_string("tournaments/_go_signal.html", {"lang": language, "tournament_id": tournament_id})


class TournamentConsumer(RefetchAtMostEverySecond, BudgetedFrames, MemberSocket,
                         DropFramesToAPageGone, AsyncWebsocketConsumer):
    async def connect(self):
        from accounts.players import player_for_scope

        self.language = page_socket_language(self.scope)
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.player = await player_for_scope(self.scope)
        self.presence = Presence()
        if not await in_thread(Tournament.objects.filter(pk=self.tournament_id).exists)():
            await self.close(code=4404)
            return
        self.groups_followed = [services.tournament_group(self.tournament_id)]
        if self.player is not None:
            self.groups_followed.append(services.player_group(self.player.pk))
        await self.follow_member(self.player)
        for group in self.groups_followed:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if self.player is not None:
            self.presence.hold(self.player.pk)
            await in_thread(services.came_back)(self.player, self.tournament_id)

    async def disconnect(self, code):
        self.stop_refetching()
        await self.presence.stop()
        await self.forget_member()
        for group in getattr(self, "groups_followed", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the page's buttons are form posts; whatever arrives here is dropped

    async def tournament_changed(self, event):
        await self.refetch_soon()  # at most once a second (joker_site/refetch.py)

    async def send_refetch_signal(self):
        await self.send(text_data=render_to_string("tournaments/_live_signal.html",
                                                   {"lang": self.language, "tournament_id": self.tournament_id}))

    async def arena_seated(self, event):
        if event.get("tournament") == self.tournament_id:
            await self.send(text_data=_go_signal(self.language, self.tournament_id))


class ArenaTablePart(PagePart):
    """At an arena table: the player is there for the arena, and moves on to the next match."""

    async def joined(self, seated: bool) -> None:
        self.presence = Presence()
        self.group = None
        if not seated or self.player is None:
            return
        self.tournament_id = await in_thread(_tournament_of_table)(self.table_id)
        if self.tournament_id is None:
            return
        self.group = services.player_group(self.player.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.presence.hold(self.player.pk)

    async def closed(self) -> None:
        if getattr(self, "presence", None) is not None:
            await self.presence.stop()
        if getattr(self, "group", None) is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def arena_seated(self, event):
        if event.get("table") != self.table_id and event.get("tournament") == getattr(self, "tournament_id", None):
            await self.send(_go_signal(self.language, self.tournament_id))


def _tournament_of_table(table_id: int) -> int | None:
    return ArenaGame.objects.filter(table_id=table_id).values_list("tournament_id", flat=True).first()
