"""Timers of the live match, run by Celery.

Each task carries what it was scheduled for (the match version, the moment a
player disconnected) and acts only if that is still the case, so a late,
duplicate or redelivered task does nothing; nothing relies on revoking tasks.
The sweeper catches whatever a lost task missed.
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

# A timer is only "missed" once it is this late: the task itself normally runs first.
SWEEP_SLACK = timedelta(seconds=5)


@shared_task(ignore_result=True)
def clock_expired(match_id: int, version: int) -> bool:
    from games.services.matches import clock_ran_out

    return clock_ran_out(match_id, version)


@shared_task(ignore_result=True)
def grace_expired(seat_id: int, disconnected_at: str) -> bool:
    from games.services.matches import grace_ran_out

    return grace_ran_out(seat_id, parse_datetime(disconnected_at))


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Catch clocks and graces whose task was lost, close tables that never filled."""
    from games.models import Match, MatchStatus, Seat, Table, TableStatus
    from games.services.matches import clock_ran_out, grace_ran_out
    from games.services.tables import close_stale_table

    now = timezone.now()
    done = {"clocks": 0, "graces": 0, "tables": 0}
    running = Match.objects.filter(status=MatchStatus.RUNNING).select_related("table")
    for match in running.iterator():
        deadline = match.turn_started_at + timedelta(seconds=match.table.clock_seconds) + SWEEP_SLACK
        if deadline < now and clock_ran_out(match.pk, match.version):
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
