"""The clocks of live matches: how timers are kept, in one place.

Two timers exist: a move clock (every position waits `clock_seconds` for its
player's move, then the seat's bank, if the table has one) and a disconnect
grace (a player whose last connection closed has `DISCONNECT_GRACE_SECONDS` to
come back). Both are columns the move writes anyway, so a move costs the clocks
nothing: `Match.deadline_at` (when the server moves for the player to act:
move time + the bank they have left), written by `matches._save` in the same
UPDATE that bumps the version (`deadline`), and `Seat.disconnected_at`.

Celery beat runs `tick` every `CLOCK_TICK_SECONDS` (1 s): one indexed query for
the due deadlines and one for the lapsed graces, each handed to its conditional
action (games/live.py: a `ClockMove`, a `Forfeit`), which acts only if
nothing has changed since, under the match's row lock. So a late, doubled or
redelivered tick does nothing, and a deadline is acted on within about a
second. No task is queued per move. Beat's slower `sweep` releases seats whose
web process died, says every running match's version again, and closes tables
that never filled.

The bank (docs/live-match.md, "A fair clock"): a move that takes longer than
the move time spends the time used past it from the seat's bank (`spend_bank`,
under the match's lock); only when the bank is empty too does the server move.

This module imports no other service but the broadcast: the tick and the sweep
are handed the actions they run (games/tasks.py passes them), so matches.py and
presence.py can call it without an import circle.
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from ..models import Match, MatchStatus, Seat, Table, TableStatus
from . import broadcast

log = logging.getLogger(__name__)


# --- When a timer ends -----------------------------------------------------------------

def move_deadline(turn_started_at: datetime, clock_seconds: int) -> datetime:
    """The end of the move time (the bank, if any, runs after it)."""
    return turn_started_at + timedelta(seconds=clock_seconds)


def bank_left_ms(table: Table, seat) -> int:
    """What is left of `seat`'s bank, in milliseconds (never below 0)."""
    return max(0, table.bank_seconds * 1000 - seat.bank_spent_ms)


def deadline(match: Match, to_act: int | None, seats=None) -> datetime | None:
    """When the server moves for the seat `to_act` of a position that starts at
    `match.turn_started_at`: its move time plus what is left of its bank. None when
    nobody is to act or the match is over. `seats`: the table's seats when the caller
    holds them (only a table with a bank needs them)."""
    if match.status != MatchStatus.RUNNING or to_act is None or match.turn_started_at is None:
        return None
    table = match.table
    end = move_deadline(match.turn_started_at, table.clock_seconds)
    if table.bank_seconds:
        rows = seats if seats is not None else table.seats.all()
        seat = next((row for row in rows if row.index == to_act), None)
        if seat is not None:
            end += timedelta(milliseconds=bank_left_ms(table, seat))
    return end


def spend_bank(match: Match, seat, now: datetime) -> int:
    """`seat` ends its move at `now` (under the match's lock): the time it used past the
    move time comes off its bank, never more than is left. Returns the ms spent."""
    table = match.table
    if not table.bank_seconds or match.turn_started_at is None:
        return 0
    over_ms = int((now - move_deadline(match.turn_started_at, table.clock_seconds)).total_seconds() * 1000)
    spent = min(max(0, over_ms), bank_left_ms(table, seat))
    if spent:
        seat.bank_spent_ms += spent
        Seat.objects.filter(pk=seat.pk).update(bank_spent_ms=seat.bank_spent_ms)
    return spent


def grace_length() -> timedelta:
    """From a seat's last connection closing to the server settling it: the grace, then the
    EVERYONE_GONE_WINDOW_SECONDS after it, so that a leaving of the others noticed a moment later
    (another socket closing just after, a dead web process the sweeper finds) is known by then:
    when every person at the table went at once, nobody walked out (matches.everyone_gone)."""
    return timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS + settings.EVERYONE_GONE_WINDOW_SECONDS)


def grace_deadline(disconnected_at: datetime) -> datetime:
    return disconnected_at + grace_length()


# --- Timers that ran out ---------------------------------------------------------------------

def due_clocks(now: datetime) -> list[tuple[int, int]]:
    """(match id, version) of each running match whose deadline has passed: one query on
    the `deadline_at` index (a finished match has none)."""
    due = Match.objects.filter(deadline_at__lte=now, status=MatchStatus.RUNNING).order_by()
    return list(due.values_list("pk", "version"))


def lapsed_graces(now: datetime) -> list[tuple[int, datetime]]:
    """(seat id, disconnected at) of each playing seat whose grace (`grace_length`, its window
    included) has ended: one query on the `disconnected_at` index (a connected seat has none)."""
    gone = Seat.objects.filter(
        disconnected_at__lte=now - grace_length(), connections=0, left_at__isnull=True,
        table__status=TableStatus.PLAYING,
    ).order_by("disconnected_at")  # whoever went first is settled first
    return list(gone.values_list("pk", "disconnected_at"))


def unfilled_tables(now: datetime) -> list[int]:
    """Ids of the open tables that have waited longer than UNFILLED_TABLE_SECONDS for players."""
    stale = Table.objects.filter(
        status=TableStatus.OPEN, created_at__lt=now - timedelta(seconds=settings.UNFILLED_TABLE_SECONDS)
    )
    return list(stale.values_list("pk", flat=True))


Action = Callable[..., bool]


def tick(*, move_for_absent: Action, forfeit_lapsed: Action) -> dict:
    """Beat's tick (every CLOCK_TICK_SECONDS): act on every deadline and grace that has passed.

    Each action is conditional and reports whether it acted; the counts say how many did."""
    now = timezone.now()
    done = {"clocks": 0, "graces": 0}
    for match_id, version in due_clocks(now):
        done["clocks"] += bool(move_for_absent(match_id, version))
    for seat_id, disconnected_at in lapsed_graces(now):
        done["graces"] += bool(forfeit_lapsed(seat_id, disconnected_at))
    return done


def sweep(*, release_unseen_seats: Callable[[datetime], int], move_for_absent: Action, forfeit_lapsed: Action,
          close_stale_table: Callable[[int], bool]) -> dict:
    """Beat's slower round: release seats whose web process died (their grace runs from when
    they were last seen, and one that has already run out is acted on now), say every running
    match's version again, close tables that never filled."""
    now = timezone.now()
    done = {"tables": 0}
    # Seats whose web process died with their sockets open: their grace time starts when they were last seen.
    done["unseen"] = release_unseen_seats(now)
    done |= tick(move_for_absent=move_for_absent, forfeit_lapsed=forfeit_lapsed)
    # Notices are sent at most once: any connection that missed one catches up now.
    broadcast.tables_are_at(Match.objects.filter(status=MatchStatus.RUNNING).values_list("table_id", "version"))
    for table_id in unfilled_tables(now):
        done["tables"] += bool(close_stale_table(table_id))
    return done
