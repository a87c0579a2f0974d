"""What push hears from the games app (games/events.py), connected in PushConfig.ready()."""

from django.db import transaction

from games import events

from . import notify


def on_match_started(sender, event: events.MatchStarted, **kwargs) -> None:
    """"Your match starts" to each seated member who does not have the table open (as the
    header's notice, notices/receivers.py), once the start commits, if anyone waited for it (not
    at a practice table with bots, nor at quick play's table: quick play tells its own)."""
    if not event.with_bots and not event.seated_together:
        transaction.on_commit(lambda: _tell_the_absent(event.table_id))


def _tell_the_absent(table_id: int) -> None:
    from games.models import Seat

    waiting = Seat.objects.filter(table_id=table_id, player__user__isnull=False, left_at__isnull=True,
                                  connections=0).values_list("player__user_id", flat=True)
    for user_id in waiting:
        notify.match_starts(user_id, table_id)


def connect() -> None:
    events.match_started.connect(on_match_started, dispatch_uid="push.on_match_started")
