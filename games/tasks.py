"""The Celery tasks of the live match: a thin shell over games/services/clocks.py.

Beat runs both (joker_site/settings.py, CELERY_BEAT_SCHEDULE); each only calls
`clocks` with the conditional actions it may take (docs/live-match.md). No task
is queued per move: a move writes its deadline on the match row.
"""

from celery import shared_task

from games import live
from games.services import clocks, presence, tables


def _clock_move(match_id: int, version: int) -> bool:
    """The move clock of `version` ran out: the server moves for the player (if nothing moved since)."""
    return live.submit(match_id, None, live.ClockMove(version)).changed


def _forfeit(seat_id: int, disconnected_at) -> bool:
    """The grace after `disconnected_at` ran out: the player forfeits (if they did not come back)."""
    return live.submit(None, None, live.Forfeit(seat_id, disconnected_at)).changed


@shared_task(ignore_result=True)
def tick() -> dict:
    """Every second: the moves whose deadline passed and the graces that ran out (`clocks.tick`)."""
    return clocks.tick(move_for_absent=_clock_move, forfeit_lapsed=_forfeit)


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Beat's slower round (`clocks.sweep`), run with the actions it may take."""
    return clocks.sweep(release_unseen_seats=presence.release_unseen_seats,
                        move_for_absent=_clock_move, forfeit_lapsed=_forfeit,
                        close_stale_table=tables.close_stale_table)
