"""The pairing's periodic run: waiting players' ranges widen with time, so a pairing must
also happen when nobody new arrives (beat's `quickplay-pairing` entry, joker_site/settings.py)."""

from celery import shared_task

from . import services


@shared_task(ignore_result=True)
def pair_waiting() -> int:
    """Pair every queue once; the number of tables made. A run that overlaps another waits for
    its lock and finds its players gone: running twice seats nobody twice."""
    return services.pair_all()
