"""The clocks of live matches: how timers are kept, in one place.

Two timers exist: a move clock (every position waits `clock_seconds` for its
player's move) and a disconnect grace (a player whose last connection closed
has `DISCONNECT_GRACE_SECONDS` to come back). The rest of the site tells this
module when one starts (`move_started`, `grace_started`) and asks it when one
ends (`move_deadline`, `grace_deadline`); how the end is noticed is decided
here alone.

Today each start queues a Celery task due when the time is up, carrying what
it was started for (the match and its version, or the seat and the moment of
its disconnect). This is the only place that queues a task, by name, so no
service imports `games.tasks`. The task's action (`matches.clock_ran_out`,
`matches.grace_ran_out`) is conditional on nothing having changed since, under
the match's row lock, so a late, repeated or redelivered task does nothing and
nothing relies on revoking tasks. Beat runs `sweep` every few seconds: it
catches a clock or grace whose task was lost (the worker was down, the broker
lost it) and closes tables that never filled.

This module imports no other service but the broadcast: the sweep is handed the actions it runs
(games/tasks.py passes them), so matches.py and presence.py can call it
without an import circle.
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.utils import timezone

from ..models import Match, MatchStatus, Seat, Table, TableStatus
from . import broadcast

log = logging.getLogger(__name__)

# A timer is only "missed" once it is this late: its own task normally runs first.
SWEEP_SLACK = timedelta(seconds=5)

CLOCK_TASK = "games.tasks.clock_expired"
GRACE_TASK = "games.tasks.grace_expired"


# --- When a timer ends -----------------------------------------------------------------

def move_deadline(turn_started_at: datetime, clock_seconds: int) -> datetime:
    return turn_started_at + timedelta(seconds=clock_seconds)


def grace_length() -> timedelta:
    return timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS)


def grace_deadline(disconnected_at: datetime) -> datetime:
    return disconnected_at + grace_length()


# --- Starting timers ----------------------------------------------------------------------

def move_started(match_id: int, version: int, clock_seconds: int) -> None:
    """A position of a running match was committed: its player's clock runs from now."""
    _queue(CLOCK_TASK, (match_id, version), clock_seconds, f"the clock of match {match_id}")


def grace_started(seat_id: int, disconnected_at: datetime) -> None:
    """A seat's last connection closed (committed): its grace runs from `disconnected_at`
    (which may lie in the past: a seat whose web process died is released late)."""
    remaining = (grace_deadline(disconnected_at) - timezone.now()).total_seconds()
    _queue(GRACE_TASK, (seat_id, disconnected_at.isoformat()), max(0.0, remaining),
           f"the grace time of seat {seat_id}")


def _queue(task_name: str, args: tuple, countdown: float, what: str) -> None:
    try:
        current_app.send_task(task_name, args, countdown=countdown)
    except Exception:  # the sweeper catches a timer whose task could not be queued
        log.exception("could not schedule %s", what)


# --- Timers that ran out ---------------------------------------------------------------------

def overdue_clocks(now: datetime, slack: timedelta = timedelta(0)) -> list[tuple[int, int]]:
    """(match id, version) of each running match whose clock ran out before `now - slack`.

    Reads four small columns per running match, never the records; the
    deadline is worked out here because SQLite (`make run`) has no interval
    arithmetic."""
    running = Match.objects.filter(status=MatchStatus.RUNNING, turn_started_at__lt=now - slack)
    overdue = []
    for match_id, version, started, clock_seconds in running.values_list(
            "pk", "version", "turn_started_at", "table__clock_seconds"):
        if move_deadline(started, clock_seconds) + slack < now:
            overdue.append((match_id, version))
    return overdue


def lapsed_graces(now: datetime, slack: timedelta = timedelta(0)) -> list[tuple[int, datetime]]:
    """(seat id, disconnected at) of each playing seat whose grace ended before `now - slack`."""
    gone = Seat.objects.filter(
        connections=0, left_at__isnull=True, disconnected_at__lt=now - grace_length() - slack,
        table__status=TableStatus.PLAYING,
    )
    return list(gone.values_list("pk", "disconnected_at"))


def unfilled_tables(now: datetime) -> list[int]:
    """Ids of the open tables that have waited longer than UNFILLED_TABLE_SECONDS for players."""
    stale = Table.objects.filter(
        status=TableStatus.OPEN, created_at__lt=now - timedelta(seconds=settings.UNFILLED_TABLE_SECONDS)
    )
    return list(stale.values_list("pk", flat=True))


def sweep(*, release_unseen_seats: Callable[[datetime], int], clock_ran_out: Callable[[int, int], bool],
          grace_ran_out: Callable[[int, datetime], bool], close_stale_table: Callable[[int], bool]) -> dict:
    """Catch clocks and graces whose task was lost, close tables that never filled.

    Each action is conditional and reports whether it acted; the counts say how
    many did."""
    now = timezone.now()
    done = {"clocks": 0, "graces": 0, "tables": 0}
    # Seats whose web process died with their sockets open: their grace time starts now.
    done["unseen"] = release_unseen_seats(now)
    for match_id, version in overdue_clocks(now, SWEEP_SLACK):
        done["clocks"] += bool(clock_ran_out(match_id, version))
    # Notices are sent at most once: any connection that missed one catches up now.
    broadcast.tables_are_at(Match.objects.filter(status=MatchStatus.RUNNING).values_list("table_id", "version"))
    for seat_id, disconnected_at in lapsed_graces(now, SWEEP_SLACK):
        done["graces"] += bool(grace_ran_out(seat_id, disconnected_at))
    for table_id in unfilled_tables(now):
        done["tables"] += bool(close_stale_table(table_id))
    return done
