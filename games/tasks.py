"""Timers of the live match, run by Celery.

Every move starts its clock: `clock_expired` is queued with a countdown of the
table's move time, carrying the match and its version. A disconnect starts a
grace the same way (`grace_expired`, carrying the moment of the disconnect).
Each task acts only if that is still the case (a conditional update under the
match's row lock), so a late, duplicate or redelivered task does nothing and
nothing relies on revoking tasks. Beat runs `sweep` every few seconds: it
catches a clock or grace whose task was lost (the worker was down, the broker
lost it) and closes tables that never filled.
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

# A timer is only "missed" once it is this late: its own task normally runs first.
SWEEP_SLACK = timedelta(seconds=5)


@shared_task(ignore_result=True)
def clock_expired(match_id: int, version: int) -> bool:
    """The move clock of one match at one version ran out (queued by every move)."""
    from games.services.matches import clock_ran_out

    return clock_ran_out(match_id, version)


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
    """Catch clocks and graces whose task was lost, close tables that never filled."""
    from games.models import Match, MatchStatus, Seat, Table, TableStatus
    from games.services import broadcast
    from games.services.matches import clock_ran_out, grace_ran_out
    from games.services.presence import release_unseen_seats
    from games.services.tables import close_stale_table

    now = timezone.now()
    done = {"clocks": 0, "graces": 0, "tables": 0}
    # Seats whose web process died with their sockets open: their grace time starts now.
    done["unseen"] = release_unseen_seats(now)
    for match_id, version in overdue_clocks(now, SWEEP_SLACK):
        if clock_ran_out(match_id, version):
            done["clocks"] += 1
    # Notices are sent at most once: any connection that missed one catches up now.
    broadcast.tables_are_at(Match.objects.filter(status=MatchStatus.RUNNING).values_list("table_id", "version"))
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
