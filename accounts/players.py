"""Player identity: the person at a table, a member or a guest.

The tables code calls `player_for_request` (HTTP) or `player_for_scope`
(Channels) and stores `Player` rows in its records. A guest's identity lives in
their session; when they sign up, `claim_guest_player` turns the same row into
the member's, so their games come with them.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from joker_site.db_threads import in_thread
from joker_site.refusals import Refusal

from .models import Player

GUEST_SESSION_KEY = "accounts.guest_player_id"
_REQUEST_CACHE_ATTR = "_accounts_player"

# Four digits read well ("Guest 4821"); past a few thousand live guests we widen, to six
# digits, then eight: (lowest, highest, random tries) in turn. Retiring idle guests frees numbers.
GUEST_NUMBER_SPACES = ((1000, 9999, 12), (10_000, 999_999, 20), (1_000_000, 99_999_999, 20))
GUEST_SEEN_EVERY = timedelta(hours=1)  # a guest's `last_seen_at` is written at most this often
GUESTS_MADE_WINDOW_SECONDS = 3600


class GuestRefused(Refusal):
    """No new guest for this visitor now (too many from their address, or no free number);
    `message` says why and what to do. accounts.middleware answers it with a page."""

    code = "guest_refused"


class MembersOnly(Refusal):
    """Raised when a guest tries something only members may do; `message` says why,
    `params["action"]` names the action."""

    code = "members_only"


# What a guest may not do, and the message they get when they try.
MEMBER_ONLY_ACTIONS = {
    "coin_table": _(
        "Tables played for Domino Coin are for members. Sign up (it is free) to join them; "
        "the games you played as a guest stay yours."
    ),
    "friend_request": _(
        "Friends are for members. Sign up (it is free) to send friend requests; "
        "the games you played as a guest stay yours."
    ),
    "friends_table": _(
        "Friends-only tables are for members who are friends of the host. "
        "Sign up (it is free) and make friends to be invited."
    ),
}


def require_member(player, action):
    """Raise MembersOnly with the action's message when `player` is a guest (or None)."""
    if action not in MEMBER_ONLY_ACTIONS:
        raise ValueError(f"unknown member-only action {action!r}")
    if player is None or not player.is_member:
        raise MembersOnly(message=MEMBER_ONLY_ACTIONS[action], params={"action": action})


def player_for_user(user):
    """The member's Player row, created on first use."""
    try:
        return Player.objects.get(user=user)
    except Player.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            return Player.objects.create(user=user)
    except IntegrityError:
        # Another request created it at the same moment.
        return Player.objects.get(user=user)


def _guest_from_session(session):
    player_id = session.get(GUEST_SESSION_KEY)
    if player_id is None:
        return None
    return Player.objects.filter(pk=player_id, is_guest=True).first()


def _count_guest_made_from(client_address):
    """Refuse past GUESTS_PER_ADDRESS_PER_HOUR new guests from one address, else count one."""
    if not client_address:
        return
    key = f"guests-made:{client_address}"
    if cache.get(key, 0) >= settings.GUESTS_PER_ADDRESS_PER_HOUR:
        raise GuestRefused("guest_rate_limited", _(
            "Too many guests were made from your address in the last hour. Sign up (it is free), "
            "or try again later."))
    cache.add(key, 0, GUESTS_MADE_WINDOW_SECONDS)
    cache.incr(key)


def create_guest_player(client_address=""):
    """A new guest with a readable number not used by any other guest.

    `client_address` counts against the per-address limit; without one nothing is counted
    (for code that makes guests on a visitor's behalf)."""
    _count_guest_made_from(client_address)
    for low, high, tries in GUEST_NUMBER_SPACES:
        for _attempt in range(tries):
            number = low + secrets.randbelow(high - low + 1)
            try:
                with transaction.atomic():
                    return Player.objects.create(is_guest=True, guest_number=number, last_seen_at=timezone.now())
            except IntegrityError:
                continue
    raise GuestRefused("guest_numbers_exhausted", _(
        "We cannot make a new guest just now. Sign up (it is free), or try again in a while."))


def _note_guest_seen(player):
    now = timezone.now()
    if player.is_guest and (player.last_seen_at is None or now - player.last_seen_at >= GUEST_SEEN_EVERY):
        Player.objects.filter(pk=player.pk).update(last_seen_at=now)
        player.last_seen_at = now


def _player_for(user, session, create, client_address=""):
    if user is not None and user.is_authenticated:
        return player_for_user(user)
    player = _guest_from_session(session)
    if player is not None:
        _note_guest_seen(player)
    elif create:
        player = create_guest_player(client_address)
        session[GUEST_SESSION_KEY] = player.pk
    return player


def player_for_request(request, create=False):
    """The Player behind an HTTP request.

    Members always get their Player (created on first use). Visitors without
    an account get their guest Player if their session has one; with
    `create=True` a new guest identity is made and tied to the session,
    otherwise None is returned.
    """
    cached = getattr(request, _REQUEST_CACHE_ATTR, None)
    if cached is not None:
        return cached
    address = request.META.get("REMOTE_ADDR", "")
    player = _player_for(getattr(request, "user", None), request.session, create, address)
    if player is not None:
        setattr(request, _REQUEST_CACHE_ATTR, player)
    return player


def current_guest(request):
    """The guest Player of an anonymous visitor, or None; no query for members."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    if GUEST_SESSION_KEY not in request.session:
        return None
    return player_for_request(request)


def _player_for_scope_sync(scope, create):
    user = scope.get("user")
    session = scope.get("session")
    if user is not None and user.is_authenticated:
        return player_for_user(user)
    if session is None:
        return None
    address = (scope.get("client") or [""])[0]
    player = _player_for(None, session, create, address)
    if create and session.modified:
        session.save()
    return player


async def player_for_scope(scope, create=False):
    """The Player behind a Channels connection (needs AuthMiddlewareStack).

    Same rules as `player_for_request`; safe to await from a consumer.
    """
    return await in_thread(_player_for_scope_sync)(scope, create)


def claim_guest_player(player, user):
    """Make a guest's Player the member `user`'s, keeping its game records.

    Returns the claimed Player, or None when `user` already has a Player (the
    guest row is then left as it is). Used at sign-up.
    """
    with transaction.atomic():
        guest = Player.objects.select_for_update().get(pk=player.pk)
        if not guest.is_guest:
            return guest if guest.user_id == user.pk else None
        if Player.objects.filter(user=user).exists():
            return None
        guest.user = user
        guest.is_guest = False
        guest.guest_number = None
        guest.claimed_at = timezone.now()
        try:
            with transaction.atomic():
                guest.save(update_fields=["user", "is_guest", "guest_number", "claimed_at"])
        except IntegrityError:
            # The user got a Player concurrently; leave the guest row alone.
            return None
    player.refresh_from_db()
    return guest


def claim_guest_from_session(request, user):
    """At sign-up: carry the session's guest identity over to the new member."""
    guest = _guest_from_session(request.session)
    claimed = None
    if guest is not None:
        claimed = claim_guest_player(guest, user)
        if claimed is not None:
            request.session.pop(GUEST_SESSION_KEY, None)
    if hasattr(request, _REQUEST_CACHE_ATTR):
        delattr(request, _REQUEST_CACHE_ATTR)
    return claimed


def display_name_for_user(user):
    """A member's table name: their display name, else their username."""
    player = getattr(user, "player", None)
    if player is not None and player.display_name:
        return player.display_name
    return user.get_username()
