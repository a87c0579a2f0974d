"""What the clocks cost per move, counted in-process (no quiet machine needed).

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python scripts/clock_cost.py [MOVES]

Plays MOVES (default 400) clocked moves through `matches.perform` at Japanese
tables (30 s a move; the same again at 25 s + 150 s bank tables when the site has a
bank), with their after-commit work (the broadcast, and whatever the clocks do),
in a scratch database (`test_<name>`, created and dropped here). It counts, per
move, the SQL statements, the Redis commands (the broker's and the channel
layer's), the Celery messages published, and the CPU time of this process.

Then the worker's side: each clock task the moves queued is run as a worker runs it
(Celery's Django fix-up closes the connection around a task, so a task opens a
new PostgreSQL connection), or, in the beat-tick shape, one tick: what it costs
per second whatever the number of moves. docs/live-match.md has the figures.
"""

import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "joker_site.settings")

import django

django.setup()

import random

import kombu.messaging
import redis
import redis.asyncio
from django.db import connection
from django.test.utils import setup_test_environment

counts = Counter()


def _count_redis(cls, name):
    original = getattr(cls, name)

    def counted(self, *args, **kwargs):
        counts["redis"] += 1
        return original(self, *args, **kwargs)

    async def counted_async(self, *args, **kwargs):
        counts["redis"] += 1
        return await original(self, *args, **kwargs)

    import inspect

    setattr(cls, name, counted_async if inspect.iscoroutinefunction(original) else counted)


def _count_pipelines(cls):
    original = cls.execute

    def counted(self, *args, **kwargs):
        counts["redis"] += max(1, len(self.command_stack))
        return original(self, *args, **kwargs)

    async def counted_async(self, *args, **kwargs):
        counts["redis"] += max(1, len(self.command_stack))
        return await original(self, *args, **kwargs)

    import inspect

    cls.execute = counted_async if inspect.iscoroutinefunction(original) else counted


_count_redis(redis.Redis, "execute_command")
_count_redis(redis.asyncio.Redis, "execute_command")
_count_pipelines(redis.client.Pipeline)
_count_pipelines(redis.asyncio.client.Pipeline)
_publish = kombu.messaging.Producer.publish


def _counted_publish(self, *args, **kwargs):
    counts["celery"] += 1
    return _publish(self, *args, **kwargs)


kombu.messaging.Producer.publish = _counted_publish


def _count_sql(execute, sql, params, many, context):
    counts["sql"] += 1
    return execute(sql, params, many, context)


def _tables(n, bank):
    from games.models import Match
    from games.services import tables
    from games.services.tables import TableSettings
    from tests.factories import make_player

    options = {"clock_seconds": 25, "bank_seconds": 150} if bank else {"clock_seconds": 30}
    made = []
    for i in range(n):
        a, b = make_player(f"a{bank}{i}{time.monotonic_ns()}"), make_player(f"b{bank}{i}{time.monotonic_ns()}")
        table = tables.create_table(a, TableSettings(variant="japanese", target=31, **options))
        tables.sit(table.pk, b)
        made.append(Match.objects.get(table=table).pk)
    return made


def _time_clock_code():
    """Add the CPU time of the clocks' own per-move code to counts["clock_cpu"] (microseconds)."""
    from games.services import clocks

    for name in ("move_started", "deadline", "spend_bank"):
        original = getattr(clocks, name, None)
        if original is None:
            continue

        def timed(*args, _original=original, **kwargs):
            started = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                counts["clock_cpu"] += int(1e6 * (time.process_time() - started))

        setattr(clocks, name, timed)


def play(moves, bank=False):
    """MOVES moves, round robin over a few tables; returns the per-move figures."""
    from games.models import Match, MatchStatus
    from games.services.matches import load_state, perform
    from tests.factories import player_at

    rng = random.Random(20)
    matches = _tables(8, bank)
    cursor = 0
    counts.clear()
    cpu = 0.0
    made = 0
    while made < moves:
        match_id = matches[cursor % len(matches)]
        cursor += 1
        match = Match.objects.select_related("table").get(pk=match_id)
        if match.status != MatchStatus.RUNNING:
            matches[matches.index(match_id)] = _tables(1, bank)[0]
            continue
        state = load_state(match)
        seat = state.to_act
        action = rng.choice(state.legal_actions(seat)).to_record()
        player = player_at(match, seat)
        action.pop("seat", None)
        before = dict(counts)
        started = time.process_time()
        with connection.execute_wrapper(_count_sql):
            perform(match_id, player, action, match.version)  # autocommit: on_commit work runs here
        cpu += time.process_time() - started
        for key in ("sql", "redis", "celery", "clock_cpu"):
            counts[f"move_{key}"] += counts[key] - before.get(key, 0)
        made += 1
    return {"moves": made, "sql": counts["move_sql"] / made, "redis": counts["move_redis"] / made,
            "celery": counts["move_celery"] / made, "cpu_ms": 1000 * cpu / made,
            "clock_ms": counts["move_clock_cpu"] / 1000 / made}


def worker_side(matches_played):
    """The worker's work caused by the moves (task per move) or per second (beat's tick)."""
    from games.services import clocks

    counts.clear()
    started = time.process_time()
    opened = 0
    if hasattr(clocks, "move_started"):  # a task per move: each one, as the worker runs it
        from games.models import Match
        from games.services.matches import clock_ran_out

        rows = list(Match.objects.values_list("pk", "version"))
        started = time.process_time()
        runs = 0
        for pk, version in rows:
            for stale in range(1, version):
                connection.close()  # the fix-up closes the connection before the task...
                opened += 1
                with connection.execute_wrapper(_count_sql):
                    clock_ran_out(pk, stale)  # outlived by a move: does nothing
                connection.close()  # ...and after it
                runs += 1
        cpu = time.process_time() - started
        return {"shape": "a task per move", "per": "move", "sql": counts["sql"] / runs,
                "connections": opened / runs, "cpu_ms": 1000 * cpu / runs}
    from games.tasks import tick

    runs = 50
    for _ in range(runs):
        with connection.execute_wrapper(_count_sql):
            tick.run()
    cpu = time.process_time() - started
    return {"shape": "beat's tick", "per": "second", "sql": counts["sql"] / runs, "connections": 0,
            "cpu_ms": 1000 * cpu / runs}


def main():
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    setup_test_environment()
    from django.conf import settings

    settings.CELERY_TASK_ALWAYS_EAGER = False
    from django.test.utils import get_runner

    runner = get_runner(settings)(verbosity=0, interactive=False)
    old_config = runner.setup_databases()
    _time_clock_code()
    try:
        from games.models import Table

        results = [("no bank", play(moves))]
        if hasattr(Table, "bank_seconds"):
            results.append(("25 s + 150 s bank", play(moves, bank=True)))
        worker = worker_side(moves)
    finally:
        runner.teardown_databases(old_config)
    for name, figures in results:
        print(f"per move ({name}, {figures['moves']} moves): {figures['sql']:.2f} SQL statements, "
              f"{figures['redis']:.2f} Redis commands, {figures['celery']:.2f} Celery messages, "
              f"{figures['cpu_ms']:.2f} ms CPU in the web process, of which the clocks' own code "
              f"{figures['clock_ms']:.3f} ms")
    print(f"worker ({worker['shape']}), per {worker['per']}: {worker['sql']:.2f} SQL statements, "
          f"{worker['connections']:.2f} new database connections, {worker['cpu_ms']:.2f} ms CPU")


if __name__ == "__main__":
    main()
