"""Personal access tokens for programs (bots, load tests, the JSON protocol).

A token is shown to its owner once, when made; the database keeps only its
sha256, so a leaked database does not leak usable tokens. Programs send it as
`Authorization: Bearer <token>`.
"""

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone

from . import access
from .models import AccessToken

TOKEN_PREFIX = "jkr_"
PREFIX_SHOWN = 12
# Writing last_used_at on every call would make each bot request a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)
MAX_TOKENS_PER_USER = 50


def hash_token(raw_token):
    return hashlib.sha256(raw_token.encode("utf-8")).hexdigest()


# What a token's scope lets it do. "watch": open a socket, follow tables, read; "play":
# every act (sit, move, chat, create tables, quick play).
ACTIONS_BY_SCOPE = {AccessToken.PLAY: {"watch", "play"}, AccessToken.READ: {"watch"}}
# The lifetimes the tokens page offers, in days (None: never expires).
LIFETIME_DAYS = (None, 7, 30, 90, 365)


def create_token(user, name, scope=AccessToken.PLAY, lifetime_days=None):
    """Make a token for `user`; returns (AccessToken, raw token). Show the raw token once."""
    if scope not in ACTIONS_BY_SCOPE or lifetime_days not in LIFETIME_DAYS:
        raise ValueError(f"bad token scope {scope!r} or lifetime {lifetime_days!r}")
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires_at = timezone.now() + timedelta(days=lifetime_days) if lifetime_days else None
    token = AccessToken.objects.create(user=user, name=name, token_hash=hash_token(raw), prefix=raw[:PREFIX_SHOWN],
                                       scope=scope, expires_at=expires_at)
    return token, raw


def is_expired(token, now=None):
    return token.expires_at is not None and token.expires_at <= (now or timezone.now())


def allows(token, action):
    """Whether a token may do `action` ("watch" or "play") now: not expired, and its scope
    covers it. `token` None is a browser's session, which no scope limits. The one check of
    scopes: the socket's handshake (games.protocol.TokenOrSameOrigin) asks "watch", an act
    must ask "play"."""
    if action not in ("watch", "play"):
        raise ValueError(f"unknown token action {action!r}")
    if token is None:
        return True
    return not is_expired(token) and action in ACTIONS_BY_SCOPE.get(token.scope, set())


def revoke_token(user, token_id):
    """Delete one of `user`'s tokens; returns True when there was one to delete. The sockets
    opened with it close once the deletion commits (accounts/signals.py, accounts/sockets.py)."""
    deleted, _unused = AccessToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def access_token_for(raw_token):
    """The AccessToken (with its user) a raw token is, or None (unknown, revoked, expired,
    inactive, banned)."""
    if not raw_token or not isinstance(raw_token, str) or not raw_token.startswith(TOKEN_PREFIX):
        return None
    token = AccessToken.objects.select_related("user").filter(token_hash=hash_token(raw_token.strip())).first()
    if token is None or is_expired(token) or not token.user.is_active or access.member_play_refusal(token.user) is not None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def token_for_handshake(authorization_header):
    """The AccessToken an `Authorization: Bearer …` header names, expired or not (so the
    handshake can refuse an expired one with `allows`), or None: unknown, revoked, or its
    owner inactive or banned."""
    raw = bearer_token(authorization_header)
    if not raw or not raw.startswith(TOKEN_PREFIX):
        return None
    token = AccessToken.objects.select_related("user").filter(token_hash=hash_token(raw)).first()
    if token is None or not token.user.is_active or access.member_play_refusal(token.user) is not None:
        return None
    return token


def user_for_token(raw_token):
    """The active user a raw token belongs to, or None (unknown, revoked, expired, inactive, banned)."""
    token = access_token_for(raw_token)
    return token.user if token is not None else None


def bearer_token(authorization_header):
    """The token in an `Authorization: Bearer <token>` header value, or None."""
    if not authorization_header:
        return None
    scheme, _sep, value = authorization_header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def user_for_request_token(request):
    """The user named by the request's bearer token, or None."""
    return user_for_token(bearer_token(request.headers.get("Authorization")))
