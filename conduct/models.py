"""Walk-outs from rated matches and the pauses they bring (docs/conduct.md).

A `WalkOut` is written once per player and match, in the transaction that
takes the player out of the match (games/services/matches.py `_player_gone`,
under the match row's lock): its unique (player, match) pair makes a doubled
task add nothing. A `Pause` is the time a walk-out keeps its player from rated
play and quick play; staff may lift it (an audited action), which also forgives
the walk-out that brought it. Both are read-only in the admin.
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.sanctions import Sanction


class WalkOutKind(models.TextChoices):
    # Written before resigning stopped being a walk-out (docs/conduct.md): kept, never counted.
    RESIGNED = "resigned", _("Resigned (not counted)")
    DISCONNECTED = "disconnected", _("Did not come back after a disconnect")
    TIMEOUTS = "timeouts", _("Let the clock move three times in a row")


class WalkOut(models.Model):
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="walk_outs",
                               verbose_name=_("player"))
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="walk_outs",
                              verbose_name=_("match"))
    kind = models.CharField(_("how"), max_length=16, choices=WalkOutKind.choices)
    # The ladder's step this walk-out reached (1: the warning; 2 and on: a pause, see services.LADDER).
    step = models.PositiveSmallIntegerField(_("step"))
    # Staff lifted the pause it brought: it counts no longer, on the ladder or in the reliability figure.
    forgiven = models.BooleanField(_("forgiven"), default=False)
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("walk-out")
        verbose_name_plural = _("walk-outs")
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="walk_out_once_per_match")]
        indexes = [models.Index(fields=["player", "created_at"], name="conduct_walkout_player_when")]
        default_permissions = ("view",)

    def __str__(self):
        return f"{self.player} · {self.get_kind_display()} · #{self.match_id}"


class Pause(Sanction):
    """No rated table and no quick play for `player` from `starts_at` until `ends_at`."""

    ENDS = "ends_at"

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="pauses",
                               verbose_name=_("player"))
    walk_out = models.OneToOneField(WalkOut, on_delete=models.CASCADE, related_name="pause",
                                    verbose_name=_("walk-out"))
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))
    lift_reason = models.TextField(_("reason for lifting"), blank=True)

    class Meta:
        verbose_name = _("pause")
        verbose_name_plural = _("pauses")
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["player", "ends_at"], name="conduct_pause_player_end")]
        default_permissions = ("view",)
        permissions = [("lift_pause", _("Can lift a pause from rated play"))]
        constraints = [models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")),
                                              name="pause_ends_after_it_starts")]

    def __str__(self):
        # In the site's time zone, as the admin's columns show them.
        starts, ends = timezone.localtime(self.starts_at), timezone.localtime(self.ends_at)
        return f"{self.player} · {starts:%Y-%m-%d %H:%M} → {ends:%Y-%m-%d %H:%M}"

