#!/usr/bin/env python
"""The move path in one process, counted: `python scripts/bench_moves.py [MOVES]`.

Recreates its own PostgreSQL database (BENCH_DATABASE_URL, default
joker_bench_moves on 127.0.0.1), seats four members at a classic `standard`
table and plays MOVES moves (default 300) through `matches.perform`, as a
player's socket does. After each move it renders, as the web process of the
other seats would, the JSON view of every other seat (`protocol._table_payload`
with the announced version) and the HTML fragment of every seat
(`consumers.table_fragment`), the first time as a process that holds only the
previous position (the move was made elsewhere), then again from what that
first read left. It also times the first JSON view of a process that holds the
previous version's read and applies the move's notice (`json_view_notice_cpu_ms`;
a version that dealt reads its one log row, `json_view_notice_statements`).

With BENCH_REDIS_URL set (a Redis database it empties) the cache, the channel layer and
Celery's broker are Redis, as in production, and their commands are counted too.

Prints one `name: value` line per figure (CPU is `time.process_time`, so a
busy machine slows it down less than wall time): SQL statements and bytes sent
to PostgreSQL per move, CPU per move, and per seat and move the JSON and HTML
views' CPU, statements and size. `--profile` prints a cProfile of the moves, `--profile html`
one of the seats' HTML rendered from the shared read.
Counting needs no quiet machine: statements and bytes are exact.
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/joker_bench_moves")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "")


class RedisCounter:
    """Every Redis command this process sends (the cache, the channel layer, Celery's broker)."""

    def __init__(self):
        self.commands = 0
        self.part = None

    def install(self):
        import redis
        import redis.asyncio

        counter = self
        sync_execute, async_execute = redis.Redis.execute_command, redis.asyncio.Redis.execute_command
        sync_pipe = redis.client.Pipeline.execute

        def counted(self, *args, **options):
            counter.commands += 1
            return sync_execute(self, *args, **options)

        async def counted_async(self, *args, **options):
            counter.commands += 1
            return await async_execute(self, *args, **options)

        def counted_pipeline(self, *args, **options):
            counter.commands += len(self.command_stack)
            return sync_pipe(self, *args, **options)

        redis.Redis.execute_command = counted
        redis.asyncio.Redis.execute_command = counted_async
        redis.client.Pipeline.execute = counted_pipeline


def recreate_database():
    sys.path.insert(0, str(ROOT / "scripts"))
    from loadtest import recreate_postgres

    recreate_postgres(DATABASE_URL)


def setup():
    os.environ["DATABASE_URL"] = DATABASE_URL
    if REDIS_URL:  # the production shape's cache, channel layer and broker, counted too
        os.environ["REDIS_URL"] = REDIS_URL
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
    else:
        os.environ.pop("REDIS_URL", None)  # the local cache and channel layer: only PostgreSQL is counted
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "joker_site.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _size(param) -> int:
    """A parameter's size as sent (a JSON value's text, not its adapter's name)."""
    import json

    if hasattr(param, "obj"):  # psycopg's Jsonb/Json wrapper of a JSONField value
        return len(json.dumps(param.obj))
    return len(str(param))


class Counter:
    """Every statement sent on the default connection: how many, and how many bytes."""

    def __init__(self):
        self.statements = 0
        self.bytes = 0

    def __call__(self, execute, sql, params, many, context):
        self.statements += 1
        self.bytes += len(sql) + sum(_size(p) for p in (params or ()))
        return execute(sql, params, many, context)


def serve_notices_on_a_loop():
    """Hand the moves' notices to an event loop of their own, as a web process hands them to
    its server's loop (games/services/broadcast.py): a send is not waited for, and a script's
    own way (a new loop per send, to wait on) would count a cost the server never pays."""
    import asyncio
    import threading

    from asgiref.sync import SyncToAsync

    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="notices", daemon=True).start()
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("moves", nargs="?", type=int, default=300)
    parser.add_argument("--profile", nargs="?", const="move", choices=["move", "html"],
                        help="profile the moves (default) or the seats' HTML from the shared read")
    args = parser.parse_args(argv)
    redis_commands = RedisCounter()
    if REDIS_URL:
        redis_commands.install()
    recreate_database()
    setup()
    serve_notices_on_a_loop()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from accounts.models import Player
    from games import consumers, protocol, table_reads
    from games.models import Match
    from games.services import broadcast, matches
    from games.services import tables as table_service
    from games.services.tables import TableSettings

    users = [get_user_model().objects.create_user(username=f"bench{i}", password="x") for i in range(4)]
    players = [Player.objects.get_or_create(user=u)[0] for u in users]
    table = table_service.create_table(players[0], TableSettings(variant="classic", game_type="standard"))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    match = Match.objects.get(table=table)
    by_seat = {s.index: s.player for s in table.seats.select_related("player")}
    rng = random.Random(1)
    move = Counter()
    json_view = Counter()
    html_view = Counter()
    previous_read = None
    notice_view = Counter()
    cpu = {"move": 0.0, "json_notice": 0.0, "json_first": 0.0, "json_shared": 0.0, "html_first": 0.0, "html_shared": 0.0}
    move_wall = 0.0  # perform alone, wall clock: the round trips to PostgreSQL show here, not in CPU
    sizes = {"json": 0, "html": 0}
    counted = {"json": 0, "html": 0, "notice": 0}
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    made = 0
    redis_move = redis_views = 0
    version = match.version
    state = matches.load_state(match)
    while made < args.moves and state.to_act is not None:
        seat = state.to_act
        action = rng.choice(state.legal_actions(seat)).to_record()
        action.pop("seat")
        redis_before = redis_commands.commands
        with connection.execute_wrapper(move):
            if profiler and args.profile == "move":
                profiler.enable()
            started, wall_started = time.process_time(), time.perf_counter()
            outcome = matches.perform(match.pk, by_seat[seat], action, version)
            move_wall += time.perf_counter() - wall_started
            while broadcast._in_flight:  # the notice's send, on the loop: its CPU is the move's
                time.sleep(0.0002)
            cpu["move"] += time.process_time() - started
            if profiler and args.profile == "move":
                profiler.disable()
        made += 1
        redis_move += redis_commands.commands - redis_before
        redis_before = redis_commands.commands
        before, version, state = state, outcome.version, outcome.state
        others = [s for s in by_seat if s != seat]
        notice = outcome.match.move_notice
        if notice is not None and previous_read is not None:
            # The other seats' process as it usually is: it holds the previous version's read,
            # and the move's notice brings it up to date (games/table_reads.py).
            matches.forget_states()
            matches._remember_state((match.pk, match.created_at, version - 1), before)
            table_reads.forget_table_reads()
            table_reads.remember_read(table.pk, previous_read)
            event = {"type": "table.changed", "table": table.pk, "version": version, "move": notice}
            with connection.execute_wrapper(notice_view):
                started = time.process_time()
                if notice.get("dealt"):  # its hands come from the one log row it added
                    table_reads.take_dealt_notice(event)
                else:
                    table_reads.take_move_notice(event)
                protocol._table_payload(table.pk, by_seat[others[0]], version)
                cpu["json_notice"] += time.process_time() - started
            counted["notice"] += 1
        # The other seats' process after a deal or a clock's move: it holds the previous position only.
        matches.forget_states()
        matches._remember_state((match.pk, match.created_at, version - 1), before)
        table_reads.forget_table_reads()
        with connection.execute_wrapper(json_view):
            for i, other in enumerate(others):
                started = time.process_time()
                _kind, payload = protocol._table_payload(table.pk, by_seat[other], version)
                cpu["json_first" if i == 0 else "json_shared"] += time.process_time() - started
                sizes["json"] += len(protocol.encode_frame(payload))
                counted["json"] += 1
        with connection.execute_wrapper(html_view):
            for i, other in enumerate(list(by_seat)):
                if profiler and args.profile == "html" and i > 0:
                    profiler.enable()
                started = time.process_time()
                html, _shown = consumers.table_fragment(table.pk, by_seat[other], "ka", version)
                cpu["html_first" if i == 0 else "html_shared"] += time.process_time() - started
                if profiler and args.profile == "html" and i > 0:
                    profiler.disable()
                sizes["html"] += len(html.encode())
                counted["html"] += 1
        redis_views += redis_commands.commands - redis_before
        previous_read = table_reads.read_at_least(table.pk, version)
    seats_other = max(counted["json"], 1)
    seats_html = max(counted["html"], 1)
    print(f"moves: {made}")
    print(f"move_statements_per_move: {move.statements / made:.2f}")
    print(f"move_sql_bytes_per_move: {move.bytes / made:.0f}")
    print(f"move_cpu_ms: {cpu['move'] / made * 1000:.2f}")
    print(f"move_wall_ms: {move_wall / made * 1000:.2f}")
    if REDIS_URL:
        print(f"move_redis_commands_per_move: {redis_move / made:.2f}")
        print(f"views_redis_commands_per_seat_move: {redis_views / (seats_other + seats_html):.2f}")
    print(f"json_view_statements_per_seat_move: {json_view.statements / seats_other:.2f}")
    print(f"moves_with_notice: {counted['notice']}")
    print(f"json_view_notice_cpu_ms: {cpu['json_notice'] / max(counted['notice'], 1) * 1000:.2f}")
    print(f"json_view_notice_statements: {notice_view.statements / max(counted['notice'], 1):.2f}")
    print(f"json_view_first_cpu_ms: {cpu['json_first'] / made * 1000:.2f}")
    print(f"json_view_shared_cpu_ms: {cpu['json_shared'] / max(seats_other - made, 1) * 1000:.2f}")
    print(f"json_view_bytes: {sizes['json'] / seats_other:.0f}")
    print(f"html_view_statements_per_seat_move: {html_view.statements / seats_html:.2f}")
    print(f"html_view_first_cpu_ms: {cpu['html_first'] / made * 1000:.2f}")
    print(f"html_view_shared_cpu_ms: {cpu['html_shared'] / max(seats_html - made, 1) * 1000:.2f}")
    print(f"html_view_bytes: {sizes['html'] / seats_html:.0f}")
    if profiler:
        import pstats

        (profiler.dump_stats(os.environ["BENCH_DUMP"]) if os.environ.get("BENCH_DUMP") else None) or pstats.Stats(profiler, stream=sys.stderr).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(35)
    return 0


if __name__ == "__main__":
    sys.exit(main())
