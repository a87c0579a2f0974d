"""The tournaments' clock: start, end and pair the arenas, step the Swiss tournaments (beat's
`tournaments-tick`, joker_site/settings.py)."""

from celery import shared_task

from . import services, swiss_services


@shared_task(ignore_result=True)
def tick() -> None:
    """Overlapping or doubled runs are harmless: starting and ending are conditional updates,
    and each pairing or Swiss step locks its tournament's row."""
    services.tick()
    swiss_services.tick()


@shared_task(ignore_result=True)
def create_scheduled() -> int:
    """Today's and tomorrow's daily arenas and the coming week's Swiss tournaments, each made once
    (beat's `tournaments-schedule`)."""
    from .schedule import create_scheduled as create

    return len(create())
