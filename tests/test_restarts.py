"""Restarts lose nothing: the production shape (scripts/run_prod.py — two Daphne
processes, a Celery worker and beat, PostgreSQL, Redis) with one web process killed
(`kill -9`) in the middle of several matches played by programs over the JSON protocol.

- The programs of the killed process reconnect to the other one, resync and play on;
  run_prod starts the killed process again.
- No action is lost or doubled: each match's record is a legal, complete game whose
  every action is the one its seat's program sent at that version (or a clock's move),
  one action per version, and every version reached one of its programs.
- A program that does not come back loses by forfeit: its web process died with the
  socket counted as open, the sweeper notices nobody has seen the seat, and the grace
  time runs from then. A program that stays away until its move clock has run out
  finds the clock's move made when it comes back, and plays on.
"""

import asyncio
import contextlib
import json
import os
import random
import signal
import time

import pytest
import websockets
from asgiref.sync import sync_to_async

from accounts.tokens import create_token
from games import engine
from games.models import Match, MatchStatus
from games.services import tables as table_service
from games.services.tables import TableSettings
from tests.factories import make_player
from tests.restart_programs import Launcher, Program, every_program_done
from tests.server_processes import production_environment

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout_sensitive]

START_TIMEOUT = 90
PLAY_TIMEOUT = 300
GRACE_SECONDS = 4
SHORT_CLOCK_SECONDS = 4
KILLED = 0  # the web process killed; programs there reconnect to the other
PLAYED_MATCHES = 3


@pytest.fixture
def production_shape(transactional_db, tmp_path):
    env = production_environment(tmp_path, "restart-test", DISCONNECT_GRACE_SECONDS=str(GRACE_SECONDS),
                                 SWEEP_INTERVAL_SECONDS="1")
    with launched(env, tmp_path / "logs") as launcher:
        yield launcher


@contextlib.contextmanager
def launched(env, log_dir):
    """The production shape started (both web processes listening), stopped when done."""
    launcher = Launcher(env, log_dir)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while len(launcher.web()) < 2 or not _listening(log_dir, 2):
            assert launcher.process.poll() is None, "".join(launcher.lines)
            assert time.monotonic() < deadline, "the production shape did not start:\n" + "".join(launcher.lines)
            time.sleep(0.2)
        yield launcher
    finally:
        launcher.stop()


def _listening(log_dir, count):
    logs = [log_dir / f"web-{i}.log" for i in range(count)]
    return all(log.exists() and "Listening on TCP address" in log.read_text() for log in logs)


@sync_to_async
def _japanese_match(names, clock_seconds=30):
    players = [make_player(name) for name in names]
    tokens = [create_token(player.user, "bot")[1] for player in players]
    table = table_service.create_table(players[0], TableSettings(variant="japanese", target=11,
                                                                 clock_seconds=clock_seconds))
    table_service.sit(table.pk, players[1])
    return table.pk, tokens


async def _until_the_clock_moved_for(table_id, seat_index, timeout=60):
    """Away until the move clock of this seat has run out and the bot moved for it."""
    from games.models import Seat

    timeouts = sync_to_async(lambda: Seat.objects.get(table_id=table_id, index=seat_index).timeouts_in_row)
    deadline = time.monotonic() + timeout
    while await timeouts() < 1:
        assert time.monotonic() < deadline, "the clock never moved for the absent program"
        await asyncio.sleep(0.2)


@sync_to_async
def _match_of(table_id):
    return Match.objects.select_related("table").get(table_id=table_id)


def _record_actions(record):
    return [action for deal in record["deals"] for action in deal["actions"]]


def _check_record(match, programs):
    """Legal and complete, one action per version, each the one its program sent at that
    version; returns the seats' actions that no program sent (made by a clock)."""
    state = engine.state_from_record(match.record)  # raises on any illegal action
    assert state.is_over() and match.status == MatchStatus.FINISHED, (match.pk, match.status)
    actions = _record_actions(match.record)
    early_end = 1 if match.end_reason in ("forfeit", "resign") else 0
    assert len(actions) == match.version - 1 - early_end, "an action lost or doubled"
    by_clock = []
    for index, action in enumerate(actions):
        version = index + 1  # the position it was made in
        sent = programs[action["seat"]].sent.get(version)
        made = {k: v for k, v in action.items() if k != "seat"}
        if sent != made:
            by_clock.append((action["seat"], version))
    return by_clock


async def _wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.1)


async def test_killing_one_web_process_mid_match_loses_no_action_and_every_timer_still_fires(production_shape):
    rng = random.Random(16)
    matches = []  # (table id, [program of seat 0, program of seat 1], what it shows)
    for index in range(PLAYED_MATCHES):
        table_id, tokens = await _japanese_match((f"ana{index}", f"beka{index}"))
        homes = (index % 2, 1 - index % 2)  # one program on each process
        matches.append((table_id, [Program(production_shape, tokens[s], table_id, homes[s]) for s in (0, 1)],
                        "played"))
    table_id, tokens = await _japanese_match(("silent", "patient"), clock_seconds=120)
    matches.append((table_id, [Program(production_shape, tokens[0], table_id, KILLED, comes_back=False),
                               Program(production_shape, tokens[1], table_id, 1 - KILLED)], "forfeit"))
    table_id, tokens = await _japanese_match(("slow", "quick"), clock_seconds=SHORT_CLOCK_SECONDS)
    matches.append((table_id, [Program(production_shape, tokens[0], table_id, KILLED,
                                       stays_away=lambda t=table_id: _until_the_clock_moved_for(t, 0)),
                               Program(production_shape, tokens[1], table_id, 1 - KILLED)], "clock"))

    playing = [asyncio.create_task(program.play(random.Random(rng.random())))
               for _table, programs, _kind in matches for program in programs]
    await _wait_until(lambda: all(max(p.versions, default=0) >= 6 for _t, ps, _k in matches for p in ps),
                      60, "the matches did not get going")
    killed_port, killed_pid = production_shape.web()[KILLED]
    os.kill(killed_pid, signal.SIGKILL)

    await every_program_done(playing, PLAY_TIMEOUT)

    # run_prod started the killed process again, on its port, and it serves.
    port, pid = production_shape.web()[KILLED]
    assert (port, pid != killed_pid) == (killed_port, True)
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/play/", additional_headers={
            "Authorization": f"Bearer {matches[0][1][0].token}"}) as socket:
        await socket.send(json.dumps({"type": "ping", "id": 1}))
        assert json.loads(await asyncio.wait_for(socket.recv(), 10)) == {"type": "pong", "id": 1}

    for table_id, programs, kind in matches:
        match = await _match_of(table_id)
        by_clock = _check_record(match, programs)
        survivor = next(p for p in programs if p.home != KILLED and not p.reconnected_to)
        # Every version reached a program: a move the killed process committed but could not
        # announce, its own program found when it resynced.
        seen = sorted(set(programs[0].versions) | set(programs[1].versions))
        assert seen == list(range(seen[0], match.version + 1)), f"match {match.pk}: a version was skipped"
        for program in programs:
            assert program.versions == sorted(program.versions), "a program saw the match go back"
        if kind == "forfeit":
            assert (match.end_reason, match.end_seat, match.winners) == ("forfeit", 0, [1])
            assert survivor.final["view"]["winner"] == [1]
        else:
            assert all(program.final["version"] == match.version for program in programs)
            assert match.end_reason == ""
            if kind == "clock":
                # The program came back only once the clock had moved for it (_until_the_clock_moved_for);
                # that move may be the one it would have made (a forced card), so only seat 0's may differ.
                assert programs[0].reconnected_to and all(seat == 0 for seat, _version in by_clock), by_clock
            else:
                assert by_clock == [], f"match {match.pk}: actions no program sent {by_clock}"
        for program in programs:
            if program.comes_back:  # those of the killed process moved to the other, once
                assert program.reconnected_to == ([1 - KILLED] if program.first_home == KILLED else [])
