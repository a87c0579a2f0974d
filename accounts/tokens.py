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


def create_token(user, name):
    """Make a token for `user`; returns (AccessToken, raw token). Show the raw token once."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = AccessToken.objects.create(user=user, name=name, token_hash=hash_token(raw), prefix=raw[:PREFIX_SHOWN])
    return token, raw


def revoke_token(user, token_id):
    """Delete one of `user`'s tokens; returns True when there was one to delete. The sockets
    opened with it close once the deletion commits (accounts/signals.py, accounts/sockets.py)."""
    deleted, _unused = AccessToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def access_token_for(raw_token):
    """The AccessToken (with its user) a raw token is, or None (unknown, revoked, inactive, banned)."""
    if not raw_token or not isinstance(raw_token, str) or not raw_token.startswith(TOKEN_PREFIX):
        return None
    token = AccessToken.objects.select_related("user").filter(token_hash=hash_token(raw_token.strip())).first()
    if token is None or not token.user.is_active or access.member_play_refusal(token.user) is not None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def user_for_token(raw_token):
    """The active user a raw token belongs to, or None (unknown, revoked, inactive, banned)."""
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
