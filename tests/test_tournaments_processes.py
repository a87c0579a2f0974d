"""An arena survives a web process killed mid-round (the production shape of
tests/test_restarts.py: two Daphne processes, a Celery worker and beat, PostgreSQL, Redis).

Four players' arena pages are open, two on each web process, while their two matches run;
the first process is killed (`kill -9`). The matches still end and count; the players whose
pages died with the process are paused (nobody has seen them), the others are paired again
at once; each paused player who opens the page again (on the surviving process) comes back
and is seated. Nobody is ever at two arena tables.

A Swiss likewise: six players, two of them on the process killed during round one. The round
goes on and ends; round two is paired among the four still there (the two others sit it out
with 0 and are paused); once they open the page again on the surviving process they are
paired in round three, and no pair has met twice."""

import asyncio
import os
import signal
import time
from datetime import timedelta

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import live
from games.models import Match
from tests.factories import make_player
from tests.live_clients import session_cookie_for
from tests.server_processes import production_environment
from tests.test_restarts import launched
from tournaments import services
from tournaments.models import ArenaGame, Participant, ParticipantStatus, Result, Status, Tournament

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout_sensitive]

ABSENT_SECONDS = 15
SECRET_KEY = "arena-restart-test-key-0123456789-abcdefghijklmnopqrstuvwxyz"
KILLED = 0


@pytest.fixture
def two_web_processes(transactional_db, tmp_path, settings):
    settings.TOURNAMENT_ABSENT_SECONDS = ABSENT_SECONDS  # this process ends the matches, and pairs after them
    settings.SECRET_KEY = SECRET_KEY  # the sessions this process makes for the pages are the servers' too
    env = production_environment(tmp_path, SECRET_KEY, PRESENCE_BEAT_SECONDS="1",
                                 TOURNAMENT_ABSENT_SECONDS=str(ABSENT_SECONDS), TOURNAMENT_TICK_SECONDS="1")
    with launched(env, tmp_path / "logs") as launcher:
        yield launcher


async def arena_page(port, player, tournament_id):
    cookie = await sync_to_async(session_cookie_for)(player)
    return await websockets.connect(f"ws://127.0.0.1:{port}/ws/tournament/{tournament_id}/?lang=en",
                                    additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"})


async def until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not await sync_to_async(condition)():
        assert time.monotonic() < deadline, f"{what}: " + await sync_to_async(_standing)()
        await asyncio.sleep(0.2)


def _standing():
    return ", ".join(f"{p.player.user.username} {p.status} game {p.game_id} seen {p.seen_at:%H:%M:%S}"
                     for p in Participant.objects.select_related("player__user")) + f" (now {timezone.now():%H:%M:%S})"


def status_of(player):
    return Participant.objects.get(player=player).status


def game_of(player):
    return Participant.objects.get(player=player).game_id


def resign(player):
    game = Participant.objects.get(player=player).game
    live.submit(Match.objects.get(table_id=game.table_id).pk, player, live.Resign())


def nobody_twice():
    seated = [p.pk for game in ArenaGame.objects.filter(finished_at__isnull=True) for p in game.players.all()]
    return len(seated) == len(set(seated))


async def test_an_arena_survives_a_web_process_killed_mid_round(two_web_processes):
    tournament = await sync_to_async(Tournament.objects.create)(
        name="Arena", variant="japanese", rated=False, status=Status.RUNNING,
        starts_at=timezone.now() - timedelta(minutes=1))
    ana, beka, gio, dato = [await sync_to_async(make_player)(name) for name in ("ana", "beka", "gio", "dato")]
    for player in (ana, beka, gio, dato):
        await sync_to_async(services.join)(player, tournament)
    assert await sync_to_async(game_of)(ana) == await sync_to_async(game_of)(beka)
    assert await sync_to_async(game_of)(gio) == await sync_to_async(game_of)(dato)
    web = two_web_processes.web()
    pages = {player: await arena_page(web[KILLED if player in (ana, beka) else 1 - KILLED][0], player, tournament.pk)
             for player in (ana, beka, gio, dato)}

    os.kill(web[KILLED][1], signal.SIGKILL)  # mid-round: both matches are running
    await asyncio.sleep(ABSENT_SECONDS + 3)  # ana's and beka's pages died unseen; gio's and dato's beat on
    for loser in (beka, dato):
        await sync_to_async(resign)(loser)

    scores = await sync_to_async(lambda: {p.player.user.username: p.score
                                          for p in Participant.objects.select_related("player__user")})()
    assert scores == {"ana": 2, "beka": 0, "gio": 2, "dato": 0}
    assert await sync_to_async(Result.objects.count)() == 4
    await until(lambda: status_of(ana) == status_of(beka) == ParticipantStatus.PAUSED, 30,
                "the players of the killed process were not paused")
    await until(lambda: game_of(gio) is not None and game_of(gio) == game_of(dato), 30,
                "the players still there were not paired again")
    assert await sync_to_async(game_of)(ana) is None

    survivor = web[1 - KILLED][0]
    for player in (ana, beka):  # they open the arena page again, on the process that is left
        await pages[player].close()
        pages[player] = await arena_page(survivor, player, tournament.pk)
    await until(lambda: game_of(ana) is not None and game_of(ana) == game_of(beka), 30,
                "the players who came back were not seated")
    assert await sync_to_async(status_of)(ana) == ParticipantStatus.ACTIVE
    assert await sync_to_async(nobody_twice)()
    for page in pages.values():
        await page.close()


def current_round(tournament):
    tournament.refresh_from_db()
    return tournament.current_round


def playing_round(tournament, number):
    return [frozenset(p.player.user.username for p in game.players.select_related("player__user"))
            for game in ArenaGame.objects.filter(tournament=tournament, round=number)]


def resign_round(tournament):
    """The later joiner at each table of the round being played resigns."""
    for game in ArenaGame.objects.filter(tournament=tournament, finished_at__isnull=True):
        loser = game.players.order_by("-pk").first().player
        live.submit(Match.objects.get(table_id=game.table_id).pk, loser, live.Resign())


async def test_a_swiss_round_goes_on_when_a_web_process_is_killed_and_its_players_sit_out_until_back(
        two_web_processes):
    from tournaments.models import Bye, Kind

    # It starts once everyone is in with a page open: the beat ticks every second from before the
    # test, and a tick between two joins would pair the first round without the later joiners.
    tournament = await sync_to_async(Tournament.objects.create)(
        name="Swiss", kind=Kind.SWISS, rounds=3, variant="japanese", rated=False,
        starts_at=timezone.now() + timedelta(hours=1))
    names = ("ana", "beka", "gio", "dato", "eka", "fati")
    players = {name: await sync_to_async(make_player)(name) for name in names}
    for player in players.values():
        await sync_to_async(services.join)(player, tournament)
    web = two_web_processes.web()
    opened = timezone.now()
    pages = {name: await arena_page(web[KILLED if name in ("ana", "beka") else 1 - KILLED][0], player, tournament.pk)
             for name, player in players.items()}
    await until(lambda: all(p.seen_at > opened for p in Participant.objects.filter(tournament=tournament)), 30,
                "the pages' heartbeats did not tell the arena their players are there")
    await sync_to_async(Tournament.objects.filter(pk=tournament.pk).update)(starts_at=timezone.now())
    # The first tick waits for the worker and beat to be up (seconds on a loaded machine).
    await until(lambda: current_round(tournament) == 1, 60, "the beat did not start the Swiss")
    assert await sync_to_async(playing_round)(tournament, 1) == [{"ana", "beka"}, {"gio", "dato"}, {"eka", "fati"}], (
        await sync_to_async(_standing)())

    os.kill(web[KILLED][1], signal.SIGKILL)  # mid-round: the three matches are running
    await asyncio.sleep(ABSENT_SECONDS + 3)  # ana's and beka's pages died unseen; the others' beat on
    await sync_to_async(resign_round)(tournament)
    await until(lambda: current_round(tournament) == 2, 30, "round two was not paired")
    assert sorted(await sync_to_async(playing_round)(tournament, 2), key=sorted) == [
        {"dato", "fati"}, {"eka", "gio"}]  # by score: the winners meet, the losers meet
    absent = await sync_to_async(lambda: sorted(
        (b.participant.player.user.username, b.points, b.absent) for b in Bye.objects.select_related(
            "participant__player__user")))()
    assert absent == [("ana", 0, True), ("beka", 0, True)]  # they sat round two out with nothing
    assert await sync_to_async(status_of)(players["ana"]) == ParticipantStatus.PAUSED

    survivor = web[1 - KILLED][0]
    for name in ("ana", "beka"):  # they open the Swiss page again, on the process that is left
        await pages[name].close()
        pages[name] = await arena_page(survivor, players[name], tournament.pk)
    await until(lambda: status_of(players["ana"]) == status_of(players["beka"]) == ParticipantStatus.ACTIVE, 30,
                "the players who came back are not back")
    await sync_to_async(resign_round)(tournament)
    await until(lambda: current_round(tournament) == 3, 30, "round three was not paired")
    third = await sync_to_async(playing_round)(tournament, 3)
    assert any("ana" in pair for pair in third) and any("beka" in pair for pair in third)
    every_pair = [pair for number in (1, 2, 3) for pair in await sync_to_async(playing_round)(tournament, number)]
    assert len(every_pair) == len(set(every_pair))  # no pair twice
    assert await sync_to_async(nobody_twice)()
    for page in pages.values():
        await page.close()
