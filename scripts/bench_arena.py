#!/usr/bin/env python
"""The arena's pairing with 1,000 players, timed: `python scripts/bench_arena.py [MATCH_ENDS]`.

Recreates its own PostgreSQL database (BENCH_DATABASE_URL, default joker_bench_arena on
127.0.0.1), puts 1,000 members in a running Japanese arena with scores spread from 0 to 40,
lets the pairing seat them all (500 matches started), then ends MATCH_ENDS matches (default
200) one after the other by a resignation through `games.live.submit`, as a player's socket
does. Each end commits its scoring, and the pairing of its players runs after that commit
(`tournaments.services.pair_arena`, under the tournament's lock, with every other player
at a table): the figure is the time from the match's end (the resignation submitted) until
its players sit at their next started match.

Prints `name: value` lines: `arena_pairing_ms_p50` / `_p99` / `_max` (the pairing after the
commit alone), `arena_end_to_seated_ms_p50` / `_p99` / `_max` (the finishing transaction and
the pairing: what a player waits), and how many matches were made. The issue asks for the
next pairing within 2 s with 1,000 players.
"""

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/joker_bench_arena")
PLAYERS = 1000


def setup():
    from loadtest import recreate_postgres

    recreate_postgres(DATABASE_URL)
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ.pop("REDIS_URL", None)  # the local cache and channel layer: only the database is timed
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "joker_site.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main():
    ends = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    setup()
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from accounts.models import Player
    from games import live
    from games.models import Match
    from tournaments import services
    from tournaments.models import ArenaGame, Participant, Status, Tournament

    settings.TOURNAMENT_ABSENT_SECONDS = 24 * 3600  # no page holds these players: nobody is paused meanwhile
    rng = random.Random(33)
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"arena{n}") for n in range(PLAYERS)])
    players = Player.objects.bulk_create([Player(user=user) for user in users])
    tournament = Tournament.objects.create(name="Bench arena", variant="japanese", minutes=90, rated=False,
                                           starts_at=timezone.now() - timedelta(minutes=1), status=Status.RUNNING)
    Participant.objects.bulk_create([Participant(tournament=tournament, player=player, score=rng.randint(0, 40),
                                                 rating=rng.randint(800, 1600)) for player in players])
    started = time.perf_counter()
    made = services.pair_arena(tournament.pk)
    print(f"arena_first_pairing_s: {time.perf_counter() - started:.1f}  ({len(made)} matches for {PLAYERS} players)")

    timings = []
    real_pair_arena = services.pair_arena

    def timed_pair_arena(*args, **kwargs):
        began = time.perf_counter()
        result = real_pair_arena(*args, **kwargs)
        timings.append((time.perf_counter() - began) * 1000)
        return result

    services.pair_arena = timed_pair_arena  # the commit's callback looks it up when it runs
    waits, seated_again = [], 0
    for _ in range(ends):
        game = rng.choice(list(ArenaGame.objects.filter(tournament=tournament, finished_at__isnull=True)
                               .values_list("pk", "table_id")[:50]))
        loser = Participant.objects.filter(game_id=game[0]).select_related("player").first().player
        match_id = Match.objects.values_list("pk", flat=True).get(table_id=game[1])
        began = time.perf_counter()
        live.submit(match_id, loser, live.Resign())
        waits.append((time.perf_counter() - began) * 1000)
        seated_again += Participant.objects.filter(player=loser, game__isnull=False).count()
    services.pair_arena = real_pair_arena
    busy = Participant.objects.filter(tournament=tournament, game__isnull=False).count()
    for name, values in (("arena_pairing_ms", timings), ("arena_end_to_seated_ms", waits)):
        print(f"{name}_p50: {statistics.median(values):.1f}")
        print(f"{name}_p99: {percentile(values, 0.99):.1f}")
        print(f"{name}_max: {max(values):.1f}")
    print(f"arena_match_ends: {ends}  (losers seated again at once: {seated_again}; players at a table now: {busy})")


if __name__ == "__main__":
    main()
