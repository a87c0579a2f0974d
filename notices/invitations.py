"""Inviting a friend to the table you sit at.

An invitation is a one-use grant for one member to sit at one table without its
password. The inviter must sit at the table, which must be taking players and have
a free seat; the invited must be the inviter's friend (neither blocking the other).
The invited sits down through `games.services.tables.sit(..., invitation=id)`: the
table's own seating and stake escrow, under the table's lock, where `redeem` checks
the grant and spends it in the same transaction (a refused seat, e.g. too few
coins, leaves the invitation unused).
"""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.friends import are_friends, is_blocked
from joker_site.refusals import Refusal
from push import notify as push_notify

from . import notify
from .models import Invitation

INVITATION_MINUTES = 30


class InvitationRefused(Refusal):
    """An invitation that cannot be made, withdrawn or used; `message` says why."""

    code = "invitation_refused"


def _refuse(code, message):
    return InvitationRefused(code, message)


def state_of(invitation: Invitation, now=None) -> str:
    """"open", "used", "withdrawn" or "expired"."""
    now = now or timezone.now()
    if invitation.used_at:
        return "used"
    if invitation.withdrawn_at:
        return "withdrawn"
    if invitation.expires_at <= now:
        return "expired"
    return "open"


def invite(table_id: int, inviter, invitee_user) -> tuple[Invitation, bool]:
    """`inviter` (a Player seated at the table) invites a friend. Returns the invitation
    and whether it is new: inviting the same friend again changes nothing."""
    from games.models import Table, TableStatus
    from games.services.tables import can_see, free_seat_count

    if inviter is None or not inviter.is_member:
        raise _refuse("members_only", _("Only members can invite friends."))
    if invitee_user is None or not invitee_user.is_active:
        raise _refuse("no_such_player", _("There is no such player."))
    name = invitee_user.get_username()
    with transaction.atomic():
        table = Table.objects.select_for_update(of=("self",)).select_related("creator__user").filter(
            pk=table_id).first()
        if table is None:
            raise _refuse("no_such_table", _("There is no such table."))
        if not table.seats.filter(player=inviter, left_at__isnull=True).exists():
            raise _refuse("not_seated", _("Sit at the table first, then invite a friend."))
        if table.status != TableStatus.OPEN or not free_seat_count(table):
            raise _refuse("no_free_seat", _("There is no free seat at this table."))
        if table.rematch_of_id is not None:
            raise _refuse("rematch_reserved", _("This rematch is kept for the players of the match before it."))
        if invitee_user.pk == inviter.user_id:
            raise _refuse("self", _("You cannot invite yourself."))
        if not are_friends(inviter.user_id, invitee_user.pk) or is_blocked(inviter.user_id, invitee_user.pk):
            raise _refuse("not_friends", _("You can only invite your friends."))
        if table.seats.filter(player__user=invitee_user, left_at__isnull=True).exists():
            raise _refuse("already_seated", _("%(name)s already sits at this table.") % {"name": name})
        from accounts.players import player_for_user

        if not can_see(table, player_for_user(invitee_user)):
            raise _refuse("friends_only", _("This table is for the creator's friends only."))
        now = timezone.now()
        current = Invitation.objects.filter(table=table, invitee=invitee_user, used_at__isnull=True,
                                            withdrawn_at__isnull=True).first()
        if current is not None and current.expires_at > now:
            return current, False
        if current is not None:  # an expired one makes way for the new one
            current.withdrawn_at = now
            current.save(update_fields=["withdrawn_at"])
        invitation = Invitation.objects.create(table=table, inviter=inviter, invitee=invitee_user,
                                               expires_at=now + timedelta(minutes=INVITATION_MINUTES))
        notify.invitation_made(invitation)
        push_notify.friend_invites(invitation)  # their devices too, once this commits (docs/push.md)
    return invitation, True


def withdraw(invitation_id: int, inviter) -> Invitation:
    """The inviter takes an unused invitation back."""
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().filter(pk=invitation_id).first()
        if invitation is None or inviter is None or invitation.inviter_id != inviter.pk:
            raise _refuse("no_such_invitation", _("There is no such invitation."))
        if invitation.used_at:
            raise _refuse("used", _("This invitation was already used."))
        if invitation.withdrawn_at is None:
            invitation.withdrawn_at = timezone.now()
            invitation.save(update_fields=["withdrawn_at"])
            transaction.on_commit(lambda: notify.tell_reader(invitation.invitee_id))
    return invitation


def redeem(invitation_id, table, player) -> Invitation:
    """Spend the invitation for `player` to sit at `table` (called by tables.sit under the
    table's lock, in its transaction). Refused unless it is theirs, for this table, unused,
    not withdrawn, not expired, and its inviter still sits there."""
    try:
        invitation_id = int(invitation_id)
    except (TypeError, ValueError):
        raise _refuse("no_such_invitation", _("There is no such invitation.")) from None
    invitation = Invitation.objects.select_for_update().filter(pk=invitation_id).first()
    if (invitation is None or player is None or not player.is_member
            or invitation.invitee_id != player.user_id or invitation.table_id != table.pk):
        raise _refuse("no_such_invitation", _("This invitation is not yours."))
    state = state_of(invitation)
    if state == "used":
        raise _refuse("used", _("This invitation was already used."))
    if state == "withdrawn":
        raise _refuse("withdrawn", _("This invitation was taken back."))
    if state == "expired":
        raise _refuse("expired", _("This invitation has expired. Ask your friend for a new one."))
    if not table.seats.filter(player_id=invitation.inviter_id, left_at__isnull=True).exists():
        raise _refuse("inviter_left", _("The friend who invited you has left this table."))
    invitation.used_at = timezone.now()
    invitation.save(update_fields=["used_at"])
    notify.mark_invitation_read(player.user_id, invitation.pk)
    return invitation


def open_invitations(table_id: int, inviter) -> dict:
    """The inviter's unused, unexpired invitations at this table, by the invited's user id."""
    now = timezone.now()
    rows = Invitation.objects.filter(table_id=table_id, inviter=inviter, used_at__isnull=True,
                                     withdrawn_at__isnull=True, expires_at__gt=now)
    return {row.invitee_id: row for row in rows}
