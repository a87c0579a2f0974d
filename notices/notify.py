"""Notices in the header: made once, kept until read, pushed live to every open page.

A notice is made inside the transaction of the change it tells about (a friend
request, an invitation) or right after it committed (a match that started), and
its reader's pages are told once the transaction commits. Making the same notice
twice (the same `key` for the same reader) changes nothing.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import Notice, NoticeKind
from .presence import friends_group

NOTICES_SHOWN = 20  # the header lists this many unread notices, newest first


def _make(user_id: int, kind: str, key: str, **about) -> Notice | None:
    try:
        with transaction.atomic():
            notice, created = Notice.objects.get_or_create(user_id=user_id, key=key,
                                                           defaults={"kind": kind, **about})
    except IntegrityError:  # made at the same moment by another process: one is enough
        return None
    if created:
        transaction.on_commit(lambda: tell_reader(user_id))
    return notice if created else None


def tell_reader(user_id: int) -> None:
    """Tell this member's open pages to show their notices again."""
    from joker_site.events import group_send

    group_send(friends_group(user_id), {"type": "notices.changed"})


def friend_request_sent(sender_id: int, target_id: int, friendship_id: int) -> None:
    """`sender` asked `target` to be friends (called inside the request's transaction)."""
    _make(target_id, NoticeKind.FRIEND_REQUEST, f"friend_request:{friendship_id}", actor_id=sender_id)


def friend_request_settled(friendship_id: int) -> None:
    """The request was answered or withdrawn: its notice is read (in the same transaction)."""
    for user_id in Notice.objects.filter(key=f"friend_request:{friendship_id}", read_at__isnull=True).values_list(
            "user_id", flat=True):
        mark_read(user_id, None, key=f"friend_request:{friendship_id}")


def invitation_made(invitation) -> None:
    _make(invitation.invitee_id, NoticeKind.INVITATION, f"invitation:{invitation.pk}",
          actor_id=invitation.inviter.user_id, table_id=invitation.table_id, invitation=invitation)


def match_started(table_id: int) -> int:
    """The table filled and its match began: a notice for each seated member who has
    not the table open (those who have it see the match start). Returns how many."""
    from games.models import Seat

    seats = Seat.objects.filter(table_id=table_id, player__user__isnull=False, left_at__isnull=True,
                                connections=0).values_list("player__user_id", flat=True)
    made = 0
    with transaction.atomic():
        for user_id in seats:
            made += _make(user_id, NoticeKind.MATCH_STARTED, f"match_started:{table_id}", table_id=table_id) is not None
    from .presence import tell_friends_of_seated

    tell_friends_of_seated(table_id)
    return made


def table_password_locked(user_id: int, table_id: int) -> None:
    """Too many wrong passwords were tried at the member's table, which stopped taking it
    (games/services/tables.py); their invitation link and friends' invitations still seat."""
    _make(user_id, NoticeKind.TABLE_LOCKED, f"table_locked:{table_id}", table_id=table_id)


def announced(announcement, user_ids) -> int:
    """Another app's announcement (accounts/announcements.py): one notice per reader and key,
    inside the announcer's transaction. Returns how many were made."""
    made = 0
    for user_id in user_ids:
        made += _make(user_id, announcement.kind, announcement.key, url_name=announcement.url_name,
                      url_args=list(announcement.url_args), subject=announcement.subject) is not None
    return made


def unread(user_id: int):
    return (Notice.objects.filter(user_id=user_id, read_at__isnull=True)
            .select_related("actor__player", "table", "invitation__table", "invitation__inviter__user"))


def unread_count(user_id: int) -> int:
    return Notice.objects.filter(user_id=user_id, read_at__isnull=True).count()


def mark_read(user_id: int, notice_id: int | None = None, key: str | None = None) -> int:
    """Mark one of the member's notices read (or all of them, without an id). Returns how
    many changed; someone else's notice, or one already read, changes nothing."""
    notices = Notice.objects.filter(user_id=user_id, read_at__isnull=True)
    if notice_id is not None:
        notices = notices.filter(pk=notice_id)
    if key is not None:
        notices = notices.filter(key=key)
    with transaction.atomic():
        changed = notices.update(read_at=timezone.now())
        if changed:
            transaction.on_commit(lambda: tell_reader(user_id))
    return changed


def mark_invitation_read(user_id: int, invitation_id: int) -> None:
    Notice.objects.filter(user_id=user_id, invitation_id=invitation_id, read_at__isnull=True).update(
        read_at=timezone.now())
    transaction.on_commit(lambda: tell_reader(user_id))
