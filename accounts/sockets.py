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

from joker_site.db_threads import in_thread
from joker_site.events import group_send

from . import access
from .languages import in_language

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


class MemberSocket:
    """What every page's socket does for its member: join the member's group, so that a ban
    closes it at once (accounts/sockets.py). Guests and visitors have no group."""

    async def follow_member(self, player):
        self.member_group = user_group(player.user_id) if player is not None and player.user_id else None
        if self.member_group:
            await self.channel_layer.group_add(self.member_group, self.channel_name)

    async def forget_member(self):
        if getattr(self, "member_group", None):
            await self.channel_layer.group_discard(self.member_group, self.channel_name)

    async def credentials_revoked(self, event):
        """The member was banned: say why (on a table page), then close (4401)."""
        refusal = await in_thread(in_language(access.play_refusal, self.language))(self.player)
        if refusal is None:
            return  # the ban was lifted meanwhile
        self.closing = True
        await self.say_closing(refusal.message)
        await self.close(code=CLOSE_CREDENTIALS_GONE)

    async def say_closing(self, sentence):
        """Tell the page why its socket closes (the lobby's page has nowhere to show it)."""
