"""What push hears from the games app (games/events.py), connected in PushConfig.ready()."""

import logging

from django.db import transaction

from games import events
from joker_site.db_outage import log_failure

from . import notify

log = logging.getLogger(__name__)


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


def on_turn_began(sender, event: events.TurnBegan, **kwargs) -> None:
    """"Your move" to a member none of whose pages of the match is in sight (notify.your_move
    keeps it to one per match in PUSH_YOUR_MOVE_SECONDS), once the move commits: asking
    the cache (and the database) is no part of the move."""
    transaction.on_commit(lambda: _tell_if_away(event))


def _tell_if_away(event: events.TurnBegan) -> None:
    from games.services import presence

    if not notify.has_devices(event.user_id):
        return  # nobody to tell: no question to the cache (most members, at every turn)
    if presence.pages_in_sight(event.seat_id) != 0:
        return  # a page shows the match, or the cache cannot say
    try:
        notify.your_move(event.user_id, event.match_id, event.table_id, match_page_visible=False)
    except Exception:  # noqa: BLE001 (log_failure logs it) a push is a courtesy: the move is made whatever befalls it
        # (the database away, just after the move committed, is the outage's one line)
        log_failure(log, "the 'your move' push to user %s could not be queued", event.user_id)


def on_devices_changed(sender, instance, **kwargs) -> None:
    notify.forget_devices(instance.user_id)


def connect() -> None:
    from django.db.models.signals import post_delete, post_save

    from .models import Subscription

    events.match_started.connect(on_match_started, dispatch_uid="push.on_match_started")
    events.turn_began.connect(on_turn_began, dispatch_uid="push.on_turn_began")
    post_save.connect(on_devices_changed, sender=Subscription, dispatch_uid="push.devices_saved")
    post_delete.connect(on_devices_changed, sender=Subscription, dispatch_uid="push.devices_removed")
