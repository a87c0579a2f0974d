"""The Celery tasks of the live match: a thin shell over games/services/clocks.py.

`clocks` queues these by name and decides how timers are kept; each task here
only calls the conditional action it names (docs/live-match.md).
"""

from celery import shared_task
from django.utils.dateparse import parse_datetime

from games.services import clocks, matches, presence, tables


@shared_task(ignore_result=True)
def clock_expired(match_id: int, version: int) -> bool:
    """The move clock of one match at one version ran out (queued by `clocks.move_started`)."""
    return matches.clock_ran_out(match_id, version)


@shared_task(ignore_result=True)
def grace_expired(seat_id: int, disconnected_at: str) -> bool:
    """A disconnected seat's grace ran out (queued by `clocks.grace_started`)."""
    return matches.grace_ran_out(seat_id, parse_datetime(disconnected_at))


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Beat's periodic catch-up (`clocks.sweep`), run with the actions it may take."""
    return clocks.sweep(release_unseen_seats=presence.release_unseen_seats,
                        clock_ran_out=matches.clock_ran_out, grace_ran_out=matches.grace_ran_out,
                        close_stale_table=tables.close_stale_table)
