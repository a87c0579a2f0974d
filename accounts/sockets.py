"""Closing a member's open websockets the moment their right to them ends.

Every socket a member opens (the JSON protocol's, a table page's, the lobby's)
joins the member's group; a protocol socket opened with a personal access
token also joins that token's group. Deleting a token (revoked by its owner,
deleted in the admin, or with its user) or banning a member sends one notice
to the group once the change is committed, and every consumer in it closes
its socket with code 4401. The notice goes through the channel layer, so it
reaches sockets in any process with the Redis layer, and the embedded
in-memory layer's sockets in the web process where the change was made.
"""

from django.db import transaction

from games.services.broadcast import group_send

CLOSE_CREDENTIALS_GONE = 4401  # the same code as a refused handshake: do not reconnect with the same credentials
CREDENTIALS_REVOKED = "credentials.revoked"  # consumers' handler: credentials_revoked


def token_group(token_id: int) -> str:
    return f"token-{token_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def close_token_sockets(token_id: int) -> None:
    """Close every socket opened with this token, after the current transaction commits."""
    _after_commit(token_group(token_id), "token_revoked")


def close_member_sockets(user_id: int) -> None:
    """Close every socket of this member (a ban), after the current transaction commits."""
    _after_commit(user_group(user_id), "banned")


def _after_commit(group: str, reason: str) -> None:
    transaction.on_commit(lambda: group_send(group, {"type": CREDENTIALS_REVOKED, "reason": reason}))
