"""Closing a member's open websockets the moment their right to them ends: one mechanism.

Every socket a member opens (the JSON protocol's, a table page's, the lobby's, the header's)
joins the member's group and, when it rides on a session cookie, that session's group; a
protocol socket opened with a personal access token joins that token's group instead. When
a right ends, one notice goes to the group once the change is committed, and every consumer
in it closes its socket with code 4401 (a page is told why first):

| what ended | group | reason |
|---|---|---|
| the member logged out (that session only) | the session's | `logged_out` |
| the password was changed or reset, anywhere (every session) | the member's | `password_changed` |
| the account was deactivated (the admin) | the member's | `deactivated` |
| the member was banned | the member's | `banned` |
| the token was deleted (revoked, in the admin, with its user) | the token's | `token_revoked` |

accounts/signals.py sends them (`user_logged_out`; a saved user whose password or `is_active`
changed, whatever changed it: allauth's pages, the admin, a script), moderation the ban.
The notice goes through the channel layer, so it reaches sockets in any process with the
Redis layer, and the embedded in-memory layer's sockets in the web process where the
change was made. A socket closed this way cannot come back with the same credentials:
Django checks the session against the password on every handshake, and a logged-out
session has no user.
"""

import hashlib

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from joker_site.db_threads import in_thread
from joker_site.events import group_send

from . import access
from .languages import in_language

CLOSE_CREDENTIALS_GONE = 4401  # the same code as a refused handshake: do not reconnect with the same credentials
CREDENTIALS_REVOKED = "credentials.revoked"  # consumers' handler: credentials_revoked


async def revoked_sentence(reason: str, player, language: str) -> str | None:
    """What any socket of the member says as it closes for `reason` (the table above), in
    `language`; None for a ban lifted meanwhile (the socket stays open)."""
    if reason == "banned":
        refusal = await in_thread(in_language(access.play_refusal, language))(player)
        return refusal.message if refusal is not None else None
    with translation.override(language):
        return closing_sentence(reason)


def token_group(token_id: int) -> str:
    return f"token-{token_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def session_group(session_key: str) -> str:
    """A session's group, named by a digest: the session key itself never travels to Redis."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def session_key_of(scope) -> str | None:
    """The key of the session a socket's handshake carried, when it has a logged-in user."""
    session, user = scope.get("session"), scope.get("user")
    if session is None or user is None or not user.is_authenticated:
        return None
    return session.session_key


def close_token_sockets(token_id: int) -> None:
    """Close every socket opened with this token, after the current transaction commits."""
    _after_commit(token_group(token_id), "token_revoked")


def close_member_sockets(user_id: int, reason: str = "banned") -> None:
    """Close every socket of this member (a ban, a changed password, a closed account), after the
    current transaction commits."""
    _after_commit(user_group(user_id), reason)


def close_session_sockets(session_key: str) -> None:
    """Close every socket of one session (its member logged out there), after the current
    transaction commits."""
    _after_commit(session_group(session_key), "logged_out")


def closing_sentence(reason: str) -> str:
    """What a socket closed for `reason` tells its page or program (in the active language)."""
    return {
        "logged_out": _("You have logged out: log in again to play."),
        "password_changed": _("Your password was changed: log in again with the new one."),
        "deactivated": _("This account is closed."),
        "token_revoked": _("The access token was revoked."),
    }.get(reason, _("Your sign-in has ended: log in again."))


def _after_commit(group: str, reason: str) -> None:
    transaction.on_commit(lambda: group_send(group, {"type": CREDENTIALS_REVOKED, "reason": reason}))


class MemberSocket:
    """What every page's socket does for its member: join the member's group, so that a ban
    closes it at once (accounts/sockets.py). Guests and visitors have no group."""

    member_groups: tuple = ()

    async def follow_member(self, player):
        groups = []
        if player is not None and player.user_id:
            groups.append(user_group(player.user_id))
            session_key = session_key_of(self.scope)
            if session_key:
                groups.append(session_group(session_key))
        self.member_groups = tuple(groups)
        for group in self.member_groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def forget_member(self):
        for group in self.member_groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def credentials_revoked(self, event):
        """The member's right to the socket ended (the table above): say why (on a table page),
        then close (4401). A ban lifted meanwhile closes nothing."""
        sentence = await revoked_sentence(event["reason"], self.player, self.language)
        if sentence is None:
            return
        self.closing = True
        await self.say_closing(sentence)
        await self.close(code=CLOSE_CREDENTIALS_GONE)

    async def say_closing(self, sentence):
        """Tell the page why its socket closes (the lobby's page has nowhere to show it)."""
