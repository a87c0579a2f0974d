"""The Celery tasks of the live match: a thin shell over games/services/clocks.py.

Beat runs both (joker_site/settings.py, CELERY_BEAT_SCHEDULE); each only calls
`clocks` with the conditional actions it may take (docs/live-match.md). No task
is queued per move: a move writes its deadline on the match row.
"""

from celery import shared_task

from games.services import clocks, matches, presence, tables


@shared_task(ignore_result=True)
def tick() -> dict:
    """Every second: the moves whose deadline passed and the graces that ran out (`clocks.tick`)."""
    return clocks.tick(clock_ran_out=matches.clock_ran_out, grace_ran_out=matches.grace_ran_out)


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Beat's slower round (`clocks.sweep`), run with the actions it may take."""
    return clocks.sweep(release_unseen_seats=presence.release_unseen_seats,
                        clock_ran_out=matches.clock_ran_out, grace_ran_out=matches.grace_ran_out,
                        close_stale_table=tables.close_stale_table)
