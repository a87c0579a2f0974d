"""The audit log of staff actions, bans, and two admin views of other apps' rows.

An `AuditEntry` is written in the same transaction as the action it records
and is never changed afterwards: the admin offers no add, change or delete,
and the model refuses to save an existing row or delete one.

The custom permissions the staff actions need live on `AuditEntry` (every
action writes one), so the "Moderators" group can be given exactly them.
"""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from accounts.sanctions import Sanction
from coins.models import Account


class ImmutableAuditError(Exception):
    pass


class AuditAction(models.TextChoices):
    CLOSE_TABLE = "close_table", _("Closed a table")
    ABORT_MATCH = "abort_match", _("Aborted a match")
    KICK_PLAYER = "kick_player", _("Removed a player from a table")
    BAN_USER = "ban_user", _("Banned a user")
    LIFT_BAN = "lift_ban", _("Lifted a ban")
    ADJUST_WALLET = "adjust_wallet", _("Adjusted a wallet")
    LIFT_PAUSE = "lift_pause", _("Lifted a pause from rated play")
    MUTE_PLAYER = "mute_player", _("Muted a player in table chat")
    LIFT_MUTE = "lift_mute", _("Lifted a chat mute")
    DISMISS_REPORT = "dismiss_report", _("Dismissed a chat report")
    HIDE_MESSAGE = "hide_message", _("Hid a chat message")
    CREATE_TOURNAMENT = "create_tournament", _("Created a tournament")
    EDIT_TOURNAMENT = "edit_tournament", _("Edited a tournament")
    CANCEL_TOURNAMENT = "cancel_tournament", _("Cancelled a tournament")
    REMOVE_FROM_TOURNAMENT = "remove_from_tourn", _("Removed a player from a tournament")


def about(*targets):
    """A condition matching audit entries whose target is one of `targets`
    (model instances; None is skipped). Proxies count as their concrete model."""
    condition = Q(pk__in=[])
    for target in targets:
        if target is not None and target.pk is not None:
            content_type = ContentType.objects.get_for_model(target)
            condition |= Q(target_type=content_type, target_id=str(target.pk))
    return condition


class AuditEntry(models.Model):
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("staff member"),
    )
    # The actor's username when they acted: the entry still says who after the account is gone.
    actor_label = models.CharField(_("staff member's name"), max_length=150)
    action = models.CharField(_("action"), max_length=20, choices=AuditAction.choices, db_index=True)
    target_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("kind of target"))
    target_id = models.CharField(_("target id"), max_length=64)
    target_label = models.CharField(_("target"), max_length=200)
    reason = models.TextField(_("reason"))
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["target_type", "target_id"], name="moderation_audit_target")]
        # Only "view": nobody, superusers included, is meant to add, change or delete entries.
        default_permissions = ("view",)
        permissions = [
            ("close_table", _("Can close a table that has not started")),
            ("abort_match", _("Can abort a running match")),
            ("kick_player", _("Can remove a player from a table before it starts")),
            ("ban_user", _("Can ban a user and lift a ban")),
            ("adjust_wallet", _("Can adjust a wallet with a ledger entry")),
            ("mute_player", _("Can mute a player in table chat and lift a mute")),
            ("handle_chat_report", _("Can handle chat reports (dismiss, hide the message, mute its author)")),
        ]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_label}: {self.get_action_display()} {self.target_label}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableAuditError("audit entries are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableAuditError("audit entries are never deleted")


class Ban(Sanction):
    """A user may not log in or sit at a table until `until` (for good when empty)."""

    FOR_GOOD = True

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bans",
                             verbose_name=_("user"))
    until = models.DateTimeField(_("until"), null=True, blank=True, help_text=_("Empty: for good."))
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("banned by"))
    created_at = models.DateTimeField(_("banned at"), default=timezone.now)

    class Meta:
        verbose_name = _("ban")
        verbose_name_plural = _("bans")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "lifted_at"], name="moderation_ban_user_lifted")]
        # Bans are made and lifted only by the audited staff actions.
        default_permissions = ("view",)

    def __str__(self):
        return f"{self.user}: {self.period()}"


class Mute(Sanction):
    """A player (member or guest) may not write in any table chat until `until`."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="chat_mutes",
                               verbose_name=_("player"))
    until = models.DateTimeField(_("until"))
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("muted by"))
    created_at = models.DateTimeField(_("muted at"), default=timezone.now)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "lifted_at", "until"], name="moderation_mute_player")]
        # Mutes are set and lifted only by the audited staff actions.
        default_permissions = ("view",)

    def __str__(self):
        return f"{self.player}: {self.period()}"


class Guest(Player):
    """Guest players (no account), listed on their own admin page."""

    class Meta:
        proxy = True
        verbose_name = _("guest")
        verbose_name_plural = _("guests")
        default_permissions = ("view",)


class Wallet(Account):
    """Players' coin wallets: the ledger accounts staff may adjust."""

    class Meta:
        proxy = True
        verbose_name = _("wallet")
        verbose_name_plural = _("wallets")
        default_permissions = ("view",)
