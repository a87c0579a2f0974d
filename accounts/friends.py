"""Friend requests, friendships and blocks between members.

Every change runs in a transaction that first locks both users' rows (in id
order, `FOR NO KEY UPDATE`, which does not hold up rows that merely reference
the users). So two people pressing "add friend" at the same moment are
serialised: the second press finds the first request and accepts it. The
unique ordered pair on `Friendship` is the last line of defence.

Arguments named `who`/`other` accept a `User`, a `Player` or a user id.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from joker_site.refusals import Refusal

from .models import Block, Friendship, Player
from .players import MEMBER_ONLY_ACTIONS


class FriendshipRefused(Refusal):
    """A friend action that cannot be done; `message` tells the person why."""

    code = "friendship_refused"


@dataclass(frozen=True)
class Outcome:
    code: str
    message: str


def _user_id(who):
    """A user id for a User, a member's Player or an id; None for guests and nobody."""
    if who is None:
        return None
    if isinstance(who, int):
        return who
    if isinstance(who, Player):
        return who.user_id if who.is_member else None
    if getattr(who, "is_authenticated", False):
        return who.pk
    return None


def _pair(a_id, b_id):
    return (a_id, b_id) if a_id < b_id else (b_id, a_id)


def _lock_users(*user_ids):
    User = get_user_model()
    list(
        User.objects.select_for_update(no_key=True)
        .filter(pk__in=sorted(set(user_ids)))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _relation_row(a_id, b_id):
    low, high = _pair(a_id, b_id)
    return Friendship.objects.filter(user_low_id=low, user_high_id=high).first()


def _target_user(target):
    """Resolve the target of a request to an active User, refusing guests."""
    User = get_user_model()
    if isinstance(target, Player):
        if not target.is_member:
            raise FriendshipRefused(message=_("Guests cannot be added as friends: they need an account first."))
        target = target.user
    elif isinstance(target, int):
        target = User.objects.filter(pk=target).first()
    if target is None or not target.is_active:
        raise FriendshipRefused(message=_("There is no such player."))
    return target


def _sender_id(sender):
    sender_id = _user_id(sender)
    if sender_id is None:
        raise FriendshipRefused(message=MEMBER_ONLY_ACTIONS["friend_request"])
    return sender_id


def _other_id(other):
    other_id = _user_id(other)
    if other_id is None:
        raise FriendshipRefused(message=_("There is no such player."))
    return other_id


# What the apps above accounts hear of friendships (notices: the header's notices, who is online),
# connected in their AppConfig.ready(); sent inside the change's transaction.
request_sent = Signal()  # sender_id, target_id, friendship_id
request_settled = Signal()  # friendship (answered, withdrawn or declined; still in the database), accepted


def send_friend_request(sender, target):
    """Ask `target` to be friends. Returns an Outcome; raises FriendshipRefused.

    A request to someone who already asked you accepts theirs; a repeated
    request changes nothing.
    """
    sender_id = _sender_id(sender)
    target_user = _target_user(target)
    if target_user.pk == sender_id:
        raise FriendshipRefused(message=_("You cannot send a friend request to yourself."))
    name = target_user.get_username()
    with transaction.atomic():
        _lock_users(sender_id, target_user.pk)
        if Block.objects.filter(blocker_id=sender_id, blocked_id=target_user.pk).exists():
            raise FriendshipRefused(
                message=_("You have blocked %(name)s. Unblock them first to send a friend request.") % {"name": name}
            )
        if Block.objects.filter(blocker_id=target_user.pk, blocked_id=sender_id).exists():
            raise FriendshipRefused(message=_("%(name)s does not accept friend requests from you.") % {"name": name})
        row = _relation_row(sender_id, target_user.pk)
        if row is None:
            low, high = _pair(sender_id, target_user.pk)
            row = Friendship.objects.create(user_low_id=low, user_high_id=high, requested_by_id=sender_id)
            request_sent.send(sender=Friendship, sender_id=sender_id, target_id=target_user.pk,
                              friendship_id=row.pk)  # a notice in their header (notices/receivers.py)
            return Outcome("sent", _("Friend request sent to %(name)s.") % {"name": name})
        if row.status == Friendship.ACCEPTED:
            return Outcome("already_friends", _("You and %(name)s are already friends.") % {"name": name})
        if row.requested_by_id == sender_id:
            return Outcome("already_sent", _("You have already asked %(name)s to be friends.") % {"name": name})
        _accept(row)
        return Outcome("accepted", _("%(name)s had asked you too: you are now friends.") % {"name": name})


def _accept(row):
    row.status = Friendship.ACCEPTED
    row.accepted_at = timezone.now()
    row.save(update_fields=["status", "accepted_at"])
    # Its notice has done its work, and each now sees whether the other is online (notices/receivers.py).
    request_settled.send(sender=Friendship, friendship=row, accepted=True)


def _settle_and_delete(row):
    """A request declined or withdrawn: its notice goes from the header, then the request."""
    request_settled.send(sender=Friendship, friendship=row, accepted=False)
    row.delete()


def _locked_pending_request(requester_id, receiver_id):
    """The pending request from requester to receiver, both users locked (in a transaction);
    refused when it was answered or withdrawn meanwhile."""
    _lock_users(requester_id, receiver_id)
    row = _relation_row(requester_id, receiver_id)
    if row is None or row.status != Friendship.PENDING or row.requested_by_id != requester_id:
        raise FriendshipRefused(message=_("This friend request no longer exists."))
    return row


def accept_friend_request(user, requester):
    user_id, requester_id = _sender_id(user), _other_id(requester)
    with transaction.atomic():
        row = _locked_pending_request(requester_id, user_id)
        _accept(row)
    return Outcome("accepted", _("You are now friends."))


def decline_friend_request(user, requester):
    user_id, requester_id = _sender_id(user), _other_id(requester)
    with transaction.atomic():
        row = _locked_pending_request(requester_id, user_id)
        _settle_and_delete(row)
    return Outcome("declined", _("Friend request declined."))


def cancel_friend_request(user, target):
    user_id, target_id = _sender_id(user), _other_id(target)
    with transaction.atomic():
        row = _locked_pending_request(user_id, target_id)
        _settle_and_delete(row)
    return Outcome("cancelled", _("Friend request cancelled."))


def remove_friend(user, friend):
    user_id, friend_id = _sender_id(user), _other_id(friend)
    with transaction.atomic():
        _lock_users(user_id, friend_id)
        row = _relation_row(user_id, friend_id)
        if row is None or row.status != Friendship.ACCEPTED:
            raise FriendshipRefused(message=_("You are not friends with this player."))
        row.delete()
    return Outcome("removed", _("Removed from your friends."))


def block_user(user, other):
    """Block `other`: ends any friendship or request between you, both ways."""
    user_id = _sender_id(user)
    other_user = _target_user(other)
    if other_user.pk == user_id:
        raise FriendshipRefused(message=_("You cannot block yourself."))
    with transaction.atomic():
        _lock_users(user_id, other_user.pk)
        Block.objects.get_or_create(blocker_id=user_id, blocked_id=other_user.pk)
        low, high = _pair(user_id, other_user.pk)
        Friendship.objects.filter(user_low_id=low, user_high_id=high).delete()
    return Outcome(
        "blocked",
        _("%(name)s is blocked: they cannot send you requests or see your friends-only tables.")
        % {"name": other_user.get_username()},
    )


def unblock_user(user, other):
    user_id, other_id = _sender_id(user), _other_id(other)
    with transaction.atomic():
        _lock_users(user_id, other_id)
        deleted, _unused = Block.objects.filter(blocker_id=user_id, blocked_id=other_id).delete()
    if not deleted:
        raise FriendshipRefused(message=_("This player is not blocked."))
    return Outcome("unblocked", _("Unblocked."))


# --- Queries the lobby and tables use --------------------------------------------


def are_friends(a, b):
    """True when members `a` and `b` are friends (guests never are)."""
    a_id, b_id = _user_id(a), _user_id(b)
    if a_id is None or b_id is None or a_id == b_id:
        return False
    low, high = _pair(a_id, b_id)
    return Friendship.objects.filter(user_low_id=low, user_high_id=high, status=Friendship.ACCEPTED).exists()


def is_blocked(a, b):
    """True when either of `a` and `b` has blocked the other."""
    a_id, b_id = _user_id(a), _user_id(b)
    if a_id is None or b_id is None:
        return False
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def friend_ids(who):
    """The set of user ids of `who`'s friends (empty for guests)."""
    user_id = _user_id(who)
    if user_id is None:
        return set()
    rows = Friendship.objects.filter(Q(user_low_id=user_id) | Q(user_high_id=user_id), status=Friendship.ACCEPTED)
    return {row.other_id(user_id) for row in rows.only("user_low_id", "user_high_id")}


def blocked_ids(who):
    """Ids of users `who` has blocked or who have blocked `who`, for lobby filtering."""
    user_id = _user_id(who)
    if user_id is None:
        return set()
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list("blocker_id", "blocked_id")
    return {blocked if blocker == user_id else blocker for blocker, blocked in pairs}


# --- Lists for the friends page ----------------------------------------------------


def _users(ids):
    User = get_user_model()
    return list(User.objects.filter(pk__in=ids, is_active=True).select_related("player").order_by("username"))


def friends_of(who):
    return _users(friend_ids(who))


def incoming_requests(who):
    user_id = _user_id(who)
    rows = Friendship.objects.filter(
        Q(user_low_id=user_id) | Q(user_high_id=user_id), status=Friendship.PENDING
    ).exclude(requested_by_id=user_id)
    return _users(rows.values_list("requested_by_id", flat=True))


def outgoing_requests(who):
    user_id = _user_id(who)
    rows = Friendship.objects.filter(status=Friendship.PENDING, requested_by_id=user_id)
    return _users([row.other_id(user_id) for row in rows])


def blocked_by(who):
    user_id = _user_id(who)
    return _users(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def relation(viewer, other):
    """How `other` looks from `viewer`'s side, for buttons on pages.

    One of: "self", "friends", "request_sent", "request_received",
    "blocked" (viewer blocked other), "none". A block by the other side is
    not revealed: it shows as "none" and a request gets refused.
    """
    viewer_id, other_id = _user_id(viewer), _user_id(other)
    if viewer_id is None or other_id is None:
        return "none"
    if viewer_id == other_id:
        return "self"
    if Block.objects.filter(blocker_id=viewer_id, blocked_id=other_id).exists():
        return "blocked"
    row = _relation_row(viewer_id, other_id)
    if row is None:
        return "none"
    if row.status == Friendship.ACCEPTED:
        return "friends"
    return "request_sent" if row.requested_by_id == viewer_id else "request_received"


def search_users(viewer, query, limit=20):
    """Members whose username or display name contains `query`.

    Leaves out the viewer and anyone who has blocked the viewer.
    """
    query = (query or "").strip()
    if not query:
        return []
    User = get_user_model()
    viewer_id = _user_id(viewer)
    found = User.objects.filter(is_active=True).filter(
        Q(username__icontains=query) | Q(player__display_name__icontains=query)
    )
    if viewer_id is not None:
        found = found.exclude(pk=viewer_id).exclude(
            pk__in=Block.objects.filter(blocked_id=viewer_id).values("blocker_id")
        )
    return list(found.select_related("player").order_by("username")[:limit])
