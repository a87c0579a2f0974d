"""What notices hears from the games app (games/events.py), connected in NoticesConfig.ready()."""

from django.db import transaction

from games import events

from . import notify, presence


def on_match_started(sender, event: events.MatchStarted, **kwargs) -> None:
    """"Your table is full, the match started", once the start commits; a practice table
    with bots started the moment its player made it: nobody waited for it."""
    if not event.with_bots:
        transaction.on_commit(lambda: notify.match_started(event.table_id))


def on_friend_request_sent(sender, sender_id, target_id, friendship_id, **kwargs) -> None:
    notify.friend_request_sent(sender_id, target_id, friendship_id)


def on_friend_request_settled(sender, friendship, accepted, **kwargs) -> None:
    """The request's notice has done its work; once friends, each sees whether the other is online."""
    notify.friend_request_settled(friendship.pk)
    if accepted:
        low, high = friendship.user_low_id, friendship.user_high_id
        transaction.on_commit(lambda: (presence.tell_friends(low), presence.tell_friends(high)))


def on_table_password_locked(sender, event: events.TablePasswordLocked, **kwargs) -> None:
    notify.table_password_locked(event.host_user_id, event.table_id)


def on_announced(sender, announcement, user_ids, **kwargs) -> None:
    notify.announced(announcement, user_ids)


def connect() -> None:
    from accounts import announcements, friends
    from games.services import tables

    from .invitations import redeem

    events.match_started.connect(on_match_started, dispatch_uid="notices.on_match_started")
    announcements.announced.connect(on_announced, dispatch_uid="notices.on_announced")
    events.table_password_locked.connect(on_table_password_locked, dispatch_uid="notices.on_table_password_locked")
    tables.redeem_invitations_with(redeem)
    friends.request_sent.connect(on_friend_request_sent, dispatch_uid="notices.on_friend_request_sent")
    friends.request_settled.connect(on_friend_request_settled, dispatch_uid="notices.on_friend_request_settled")  # a friend's invitation seats without the password
