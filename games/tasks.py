"""Timers of the live match, run by Celery.

Move clocks are read from the database: each match's clock is its
`turn_started_at` plus its table's `clock_seconds`, and beat runs
`expire_clocks` every CLOCK_TICK_SECONDS to let the bot move for every seat
whose time is up. A move therefore queues nothing (a task per move was most of
the broker's and the worker's work under load), and a clock runs out at most
one tick late. A disconnect's grace is a task of its own (rare).

Each expiry carries what it was meant for (the match version, the moment a
player disconnected) and acts only if that is still the case, so a late,
duplicate or overlapping run does nothing; nothing relies on revoking tasks.
The sweeper catches a grace whose task was lost.
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

# A timer is only "missed" once it is this late: the clock tick or the grace task normally runs first.
SWEEP_SLACK = timedelta(seconds=5)


@shared_task(ignore_result=True)
def clock_expired(match_id: int, version: int) -> bool:
    """One match's clock at one version (what earlier releases queued per move; still honoured)."""
    from games.services.matches import clock_ran_out

    return clock_ran_out(match_id, version)


@shared_task(ignore_result=True)
def expire_clocks() -> int:
    """The bot moves for every running match whose move clock has run out; how many it moved."""
    from games.services.matches import clock_ran_out

    return sum(1 for match_id, version in overdue_clocks(timezone.now()) if clock_ran_out(match_id, version))


def overdue_clocks(now, slack=timedelta(0)) -> list[tuple[int, int]]:
    """(match id, version) of each running match whose clock ran out before `now - slack`.

    Reads four small columns per running match, never the records; the
    deadline is worked out here because SQLite (`make run`) has no interval
    arithmetic."""
    from games.models import Match, MatchStatus

    running = Match.objects.filter(status=MatchStatus.RUNNING, turn_started_at__lt=now - slack)
    overdue = []
    for match_id, version, started, clock_seconds in running.values_list(
            "pk", "version", "turn_started_at", "table__clock_seconds"):
        if started + timedelta(seconds=clock_seconds) + slack < now:
            overdue.append((match_id, version))
    return overdue


@shared_task(ignore_result=True)
def grace_expired(seat_id: int, disconnected_at: str) -> bool:
    from games.services.matches import grace_ran_out

    return grace_ran_out(seat_id, parse_datetime(disconnected_at))


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Catch clocks a tick missed and graces whose task was lost, close tables that never filled."""
    from games.models import Seat, Table, TableStatus
    from games.services.matches import clock_ran_out, grace_ran_out
    from games.services.tables import close_stale_table

    now = timezone.now()
    done = {"clocks": 0, "graces": 0, "tables": 0}
    for match_id, version in overdue_clocks(now, SWEEP_SLACK):
        if clock_ran_out(match_id, version):
            done["clocks"] += 1
    grace = timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS) + SWEEP_SLACK
    gone = Seat.objects.filter(
        connections=0, left_at__isnull=True, disconnected_at__lt=now - grace,
        table__status=TableStatus.PLAYING,
    )
    for seat in gone.iterator():
        if grace_ran_out(seat.pk, seat.disconnected_at):
            done["graces"] += 1
    stale = Table.objects.filter(
        status=TableStatus.OPEN, created_at__lt=now - timedelta(seconds=settings.UNFILLED_TABLE_SECONDS)
    )
    for table_id in stale.values_list("pk", flat=True):
        if close_stale_table(table_id):
            done["tables"] += 1
    return done
