"""What other apps call to tell a member something by push (docs/push.md).

Each function returns at once: the sending runs in Celery (push.tasks.deliver) after the
caller's transaction commits, and only for a member who has a subscribed device and has
not muted the kind."""

import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from joker_site.process_memo import ProcessMemo

from .kinds import KINDS
from .models import Subscription

# Whether a member has a device, as this process read it at most DEVICES_KNOWN_SECONDS ago:
# "your move" asks at every turn of every match, most members have no device, and a query
# a turn cost the closed-loop load test 15 % of its moves a second. A device saved or removed
# is forgotten here at once (receivers.py); another process learns of it within the time.
DEVICES_KNOWN_SECONDS = 30
_devices_known = ProcessMemo(limit=50_000)  # user id -> (time.monotonic() when read, has devices)


def has_devices(user_id) -> bool:
    known = _devices_known.get(user_id)
    now = time.monotonic()
    if known is not None and now - known[0] < DEVICES_KNOWN_SECONDS:
        return known[1]
    has = Subscription.objects.filter(user_id=user_id).exists()
    _devices_known.put(user_id, (now, has))
    return has


def forget_devices(user_id) -> None:
    """The member's devices changed: read them afresh next time."""
    _devices_known.put(user_id, (float("-inf"), False))


def send(user_id, kind, subject_id, **params):
    """Queue a notification of `kind` about its table or tournament `subject_id` for the
    member; False when there is nobody to tell (no device)."""
    if kind not in KINDS:
        raise ValueError(f"unknown push kind {kind!r}: use one of {', '.join(KINDS)}")
    if not has_devices(user_id):
        return False
    from .tasks import deliver

    transaction.on_commit(lambda: deliver.delay(user_id, kind, subject_id, params))
    return True


def friend_invites(invitation):
    """notices.invitations: a friend invites the member to a table."""
    return send(invitation.invitee_id, "friend_invites", invitation.table_id,
                friend=invitation.inviter.display_name_text)


def quickplay_found(user_id, table_id):
    """quickplay.services: the member's quick-play match is ready."""
    return send(user_id, "quickplay_found", table_id)


def match_starts(user_id, table_id):
    """For the games app: the table the member waits at has filled and the match starts."""
    return send(user_id, "match_starts", table_id)


def tournament_starts(user_id, tournament_id, name):
    """For tournaments: a tournament the member said they will come to has started."""
    return send(user_id, "tournament_starts", tournament_id, name=name)


def your_move(user_id, match_id, table_id, match_page_visible):
    """For the games app, when it becomes the member's move: nothing while a page of that
    match is visible to them (they see it), and at most one per match and member in
    PUSH_YOUR_MOVE_SECONDS. Returns whether a notification was queued."""
    if match_page_visible or not has_devices(user_id):
        return False
    # cache.add is atomic: of several moves at once, one sets the key and is sent.
    if not cache.add(f"push:your-move:{match_id}:{user_id}", 1, timeout=settings.PUSH_YOUR_MOVE_SECONDS):
        return False
    return send(user_id, "your_move", table_id)
