"""The staff actions: what each is called, who may do it, when it applies, what it does."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import MatchStatus, TableStatus

from .. import services
from ..bans import active_ban
from ..forms import AdjustWalletForm, BanForm
from .base import StaffAction


def _table_not_open(table):
    if table.status != TableStatus.OPEN:
        return gettext("Not waiting for players (%(status)s).") % {"status": table.get_status_display()}
    return None


def _match_not_running(match):
    if match.status != MatchStatus.RUNNING:
        return gettext("Not running (%(status)s).") % {"status": match.get_status_display()}
    return None


def _seat_not_kickable(seat):
    if seat.player_id is None:
        return gettext("Nobody sits here.")
    return _table_not_open(seat.table)


def _not_bannable(user):
    if user.is_staff or user.is_superuser:
        return gettext("A staff account.")
    if active_ban(user) is not None:
        return gettext("Already banned.")
    return None


def _not_banned(user):
    return None if active_ban(user) is not None else gettext("Not banned.")


def _ban_not_active(ban):
    return None if ban.is_active else gettext("This ban is no longer in force.")


CLOSE_TABLE = StaffAction(
    name="close_table",
    label=_("Close the table and refund the stakes"),
    permission="close_table",
    refusal=_table_not_open,
    explanation=_("Every player at the table stands up and gets their stake back; the table closes."),
    perform=lambda table, form, actor: services.close_table(table.pk, form.cleaned_data["reason"], actor),
)

ABORT_MATCH = StaffAction(
    name="abort_match",
    label=_("Abort the match and refund the stakes"),
    permission="abort_match",
    refusal=_match_not_running,
    explanation=_("The match stops now: nobody wins, every stake goes back, and the players see it at "
                  "the table at once."),
    perform=lambda match, form, actor: services.abort_match(match.pk, form.cleaned_data["reason"], actor),
)

KICK_PLAYER = StaffAction(
    name="kick_player",
    label=_("Remove the player from the table"),
    permission="kick_player",
    refusal=_seat_not_kickable,
    explanation=_("The player stands up and gets their stake back. They may sit down again unless they "
                  "are banned."),
    perform=lambda seat, form, actor: services.kick_player(seat.pk, form.cleaned_data["reason"], actor),
)

BAN_USER = StaffAction(
    name="ban_user",
    needs_recent_login=True,
    label=_("Ban"),
    permission="ban_user",
    refusal=_not_bannable,
    form_class=BanForm,
    explanation=_("While banned, the user cannot log in or sit at a table. They are logged out everywhere "
                  "now, stand up from tables that have not started (stakes returned), and leave their "
                  "running matches as if they had resigned."),
    perform=lambda user, form, actor: services.ban_user(user.pk, form.ban_duration(),
                                                        form.cleaned_data["reason"], actor),
)

LIFT_BAN = StaffAction(
    name="lift_ban",
    needs_recent_login=True,
    label=_("Lift the ban"),
    permission="ban_user",
    refusal=_not_banned,
    explanation=_("The user can log in and play again at once."),
    perform=lambda user, form, actor: services.lift_ban(user.pk, form.cleaned_data["reason"], actor),
)

LIFT_BAN_FROM_BAN = StaffAction(
    name="lift_ban",
    needs_recent_login=True,
    label=_("Lift the ban"),
    permission="ban_user",
    refusal=_ban_not_active,
    explanation=_("The user can log in and play again at once."),
    perform=lambda ban, form, actor: services.lift_ban(ban.user_id, form.cleaned_data["reason"], actor),
)

ADJUST_WALLET = StaffAction(
    name="adjust_wallet",
    needs_recent_login=True,
    label=_("Adjust the wallet"),
    permission="adjust_wallet",
    form_class=AdjustWalletForm,
    refusal=lambda wallet: None if wallet.user_id else gettext("Its owner has deleted their account."),
    explanation=_("A new ledger entry moves the coins: issued from the mint, or taken back to it. "
                  "No balance is edited."),
    perform=lambda wallet, form, actor: services.adjust_wallet(wallet.pk, form.cleaned_data["amount"],
                                                               form.cleaned_data["reason"], actor),
)
