"""Issue 36: the site's own services restarting under live matches lose nothing.

The production shape (scripts/run_prod.py: two web processes, a Celery worker and beat) runs
on a PostgreSQL and a Redis of this module's own (tests/private_services.py), never the ones
the suites share. Programs play Japanese matches over the JSON protocol, the two seats of each
on different web processes (every move crosses Redis), while one fault strikes:

- Redis killed and started again on its port 3 s later;
- every database connection terminated (pg_terminate_backend), twice;
- the Celery worker killed while move clocks fall due (run_prod starts it again);
- PostgreSQL stopped for 5 s and started again.

(A web process killed mid-match: tests/test_restarts.py.) Some moves after each, seat 0
resigns, and every match's record replays in the engine and holds one action per version:
every act the server answered is there at its version, and any other action is the move
clock's, only where a program stayed silent (no acknowledged move lost or doubled, no clock
acting twice); the coin ledger is sound.
While PostgreSQL is away, acts are answered `unavailable` with a retry hint, never
`server_error`, and each web process logs the outage once, without a traceback.
"""

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import private_services
from tests.restart_programs import Launcher, Program, every_program_done

pytestmark = [
    pytest.mark.asyncio, pytest.mark.timeout_sensitive,
    pytest.mark.skipif(private_services.missing() is not None, reason=str(private_services.missing())),
]

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 90
PLAY_TIMEOUT = 120
MATCHES = 2
MOVES_BEFORE_THE_FAULT = 4
MOVES_AFTER_THE_FAULT = 8
WORKER_CLOCK_SECONDS = 3
LONG_CLOCK_FAULTS = ("redis", "cut", "postgres")


class PrivateSite:
    def __init__(self, tmp):
        self.postgres = private_services.PrivatePostgres().start()
        self.postgres.create_database()
        self.redis = private_services.PrivateRedis().start()
        self.log_dir = tmp / "logs"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        self.env.update(
            DATABASE_URL=self.postgres.url, REDIS_URL=self.redis.url, SECRET_KEY="services-restart-test",
            DEBUG="false", SECURE_HTTPS="false", JOKER_VAR_DIR=str(tmp / "var"), PYTHONUNBUFFERED="1",
            DISCONNECT_GRACE_SECONDS="60",
            # No sweep while the faults strike: what reaches the sockets is not the sweeper's doing.
            SWEEP_INTERVAL_SECONDS="600",
        )
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=self.env,
                       check=True)
        self.launcher = Launcher(self.env, self.log_dir)
        deadline = time.monotonic() + START_TIMEOUT
        while len(self.launcher.web()) < 2 or not self._ready():
            assert self.launcher.process.poll() is None, "".join(self.launcher.lines)
            assert time.monotonic() < deadline, "the site did not start:\n" + "".join(self.launcher.lines)
            time.sleep(0.2)
        # The matches of the tests whose clocks must not run out, made at once (a run of the
        # site's environment costs seconds); the worker's test makes its own, with short clocks.
        made = self.run("matches", [{"names": [f"{name}a{i}", f"{name}b{i}"], "clock_seconds": 120}
                                    for name in LONG_CLOCK_FAULTS for i in range(MATCHES)])
        self.matches = {name: made[index * MATCHES:(index + 1) * MATCHES]
                        for index, name in enumerate(LONG_CLOCK_FAULTS)}

    def _ready(self):
        logs = [self.log_dir / f"web-{i}.log" for i in range(2)] + [self.log_dir / "worker.log"]
        return all(log.exists() for log in logs) and all(
            "Listening on TCP address" in (self.log_dir / f"web-{i}.log").read_text() for i in range(2))

    def run(self, command, argument):
        """tests/restart_site.py inside the site's environment (its database)."""
        done = subprocess.run([sys.executable, "-m", "tests.restart_site", command, json.dumps(argument)],
                              cwd=ROOT, env=self.env, check=True, capture_output=True, text=True)
        return json.loads(done.stdout.strip().splitlines()[-1])

    def web_logs(self, since=(0, 0)) -> str:
        """What the web processes logged (after `since`, the lengths `log_lengths` gave)."""
        return "".join((self.log_dir / f"web-{i}.log").read_text()[since[i]:] for i in range(2))

    def log_lengths(self) -> tuple:
        return tuple(len((self.log_dir / f"web-{i}.log").read_text()) for i in range(2))

    def worker_log(self, since=0) -> str:
        """What the Celery worker and beat logged (after `since`, `worker_log_length`'s)."""
        return (self.log_dir / "worker.log").read_text()[since:]

    def worker_log_length(self) -> int:
        return len(self.worker_log())

    def worker_pid(self) -> int:
        """The Celery worker run_prod started (a child of the launcher with `worker` in its command)."""
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                status = (entry / "status").read_text()
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            parent = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
            if parent == self.launcher.process.pid and b"worker" in command:
                return int(entry.name)
        raise AssertionError("no worker running")

    def stop(self):
        self.launcher.stop()
        self.redis.stop()
        self.postgres.remove()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = PrivateSite(tmp_path_factory.mktemp("services-restart"))
    yield site
    site.stop()


async def _wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def play_through(site, name, fault, *, silent_seat_0=None, seed=36):
    """Play this fault's MATCHES matches; `await fault(programs)` once each has begun; seat 0
    resigns some moves later. `silent_seat_0(version)`: seat 0's program lets the clock play
    at that version."""
    rng = random.Random(seed)
    matches = []
    for entry in site.matches[name]:
        seats = [Program(site.launcher, entry["tokens"][s], entry["table"], home=s) for s in (0, 1)]
        if silent_seat_0 is not None:
            seats[0].silent_at = silent_seat_0
        matches.append((entry["table"], seats))
    programs = [program for _table, seats in matches for program in seats]
    playing = [asyncio.create_task(program.play(random.Random(rng.random()))) for program in programs]
    await _wait_until(lambda: all(max(p.versions, default=0) > MOVES_BEFORE_THE_FAULT for p in programs), 60,
                      "the matches did not get going")
    await fault(programs)
    # A few more moves after the fault, and seat 0 resigns: the fault struck mid-match and
    # the match went on, and the test need not wait for a match to 11 to end.
    for _table, seats in matches:
        seats[0].resign_at = max(seats[0].versions + seats[1].versions) + MOVES_AFTER_THE_FAULT
    await every_program_done(playing, PLAY_TIMEOUT)
    stored = await asyncio.to_thread(site.run, "records", [table for table, _seats in matches])
    assert stored["ledger_problems"] == []
    for table, seats in matches:
        _check_match(stored["matches"][str(table)], seats, clocks_may_move=silent_seat_0 is not None)
    assert "server_error" not in [code for program in programs for code in program.errors]
    return programs


def _check_match(match, seats, clocks_may_move):
    """Ended (by seat 0's resignation, or at its target), legal, one action per version; every act the server
    answered is in the record at its version; any other action is the move clock's, and only
    where `clocks_may_move`."""
    assert match["status"] == "finished" and match["replays"] is True, match
    assert match["end_reason"] in ("resign", ""), match["end_reason"]  # "": it reached its target first
    resignation = 1 if match["end_reason"] == "resign" else 0  # the resignation has a version
    assert len(match["actions"]) == match["version"] - 1 - resignation, "an action lost or doubled"
    by_clock = []
    for index, action in enumerate(match["actions"]):
        version = index + 1
        program = seats[action["seat"]]
        made = {k: v for k, v in action.items() if k != "seat"}
        if version in program.acked:
            assert program.sent[version] == made, f"version {version}: an acknowledged move lost"
        elif program.sent.get(version) != made:
            by_clock.append((action["seat"], version))
    assert clocks_may_move or not by_clock, f"actions no program made: {by_clock}"
    for program in seats:
        assert program.final["version"] == match["version"]
        assert program.versions == sorted(program.versions), "a program saw the match go back"
    return by_clock


async def test_the_worker_killed_while_clocks_fall_due_acts_on_each_clock_once(site):
    silence = {"on": False, "versions": set()}

    def silent_seat_0(version):
        if silence["on"]:
            silence["versions"].add(version)
        return version in silence["versions"]

    async def worker_killed(programs):
        silence["on"] = True  # seat 0 stops answering: its clocks fall due while the worker is dead
        seat_0 = programs[::2]
        await _wait_until(lambda: all(p.last_state and p.last_state["version"] in silence["versions"] for p in seat_0),
                          30,
                          "seat 0 never came to move")
        silence["on"] = False
        await asyncio.sleep(WORKER_CLOCK_SECONDS - 1)
        os.killpg(site.worker_pid(), signal.SIGKILL)

    site.matches["worker"] = await asyncio.to_thread(site.run, "matches", [
        {"names": [f"workera{i}", f"workerb{i}"], "clock_seconds": WORKER_CLOCK_SECONDS} for i in range(MATCHES)])
    programs = await play_through(site, "worker", worker_killed, silent_seat_0=silent_seat_0)
    assert all(any(v in silence["versions"] for v in p.versions) for p in programs[::2])
    assert "worker exited" in "".join(site.launcher.lines)  # run_prod started it again


async def test_redis_killed_for_3_s_loses_no_move_and_the_tables_move_on_when_it_returns(site):
    async def redis_away(_programs):
        await asyncio.to_thread(site.redis.stop)
        await asyncio.sleep(3)
        await asyncio.to_thread(site.redis.start)

    await play_through(site, "redis", redis_away)
    assert "the channel layer has Redis again" in site.web_logs()


async def test_every_database_connection_terminated_twice_loses_no_move(site):
    terminated = []

    async def connections_cut(_programs):
        terminated.append(await asyncio.to_thread(site.postgres.terminate_connections))
        await asyncio.sleep(1)
        terminated.append(await asyncio.to_thread(site.postgres.terminate_connections))

    await play_through(site, "cut", connections_cut)
    assert all(count > 0 for count in terminated), terminated


async def test_postgresql_stopped_for_5_s_answers_unavailable_and_loses_no_move(site):
    logs_before, worker_log_before = site.log_lengths(), site.worker_log_length()

    async def database_away(_programs):
        await asyncio.to_thread(site.postgres.stop)
        await asyncio.sleep(5)
        await asyncio.to_thread(site.postgres.start)

    programs = await play_through(site, "postgres", database_away)
    codes = [code for program in programs for code in program.errors]
    assert "unavailable" in codes and "server_error" not in codes, codes
    assert {hint for program in programs for hint in program.retry_hints} == {2}
    during = site.web_logs(since=logs_before)
    assert 1 <= during.count("the database cannot be reached") <= 2, during  # once per web process at most
    assert "Traceback" not in during, during
    worker_during = site.worker_log(since=worker_log_before)  # beat's tick ran every second meanwhile
    assert "Traceback" not in worker_during, worker_during
