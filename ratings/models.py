"""Ratings per variant, the change each rated match made, and each player's figures per match.

A `Rating` is openskill's (mu, sigma) for one player and one variant. A
`RatingChange` is written once per rated match and player, under the match
lock: its unique (match, player) pair is what makes a second finishing call
change nothing. `MatchFigures` keeps, per finished match and player, the few
numbers the profile adds up (computed once from the engine's score sheet), so a
profile never replays records.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Variant


class Rating(models.Model):
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=10, choices=Variant.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    rated_matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["player", "variant"], name="rating_one_per_variant")]
        indexes = [models.Index(fields=["variant", "rated_matches"])]

    def __str__(self):
        return f"{self.player} {self.variant} {self.mu:.2f}±{self.sigma:.2f}"


class RatingChange(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="rating_changes")
    variant = models.CharField(max_length=10, choices=Variant.choices)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # The shown figures before and after (openskill's ordinal, scaled): the chart and "most improved".
    shown_before = models.IntegerField()
    shown_after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="rating_change_once_per_match")]
        indexes = [models.Index(fields=["player", "variant", "created_at"])]

    def __str__(self):
        return f"{self.player} match {self.match_id}: {self.shown_before} → {self.shown_after}"


class MatchFigures(models.Model):
    """One player's figures from one finished match (casual or rated)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="figures")
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="match_figures")
    variant = models.CharField(max_length=10, choices=Variant.choices)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    left = models.BooleanField(default=False)
    # Classic: deals with a bid, bids made exactly, khishti taken, pulka premiums won.
    bids = models.PositiveSmallIntegerField(default=0)
    bids_exact = models.PositiveSmallIntegerField(default=0)
    khishti = models.PositiveSmallIntegerField(default=0)
    premiums = models.PositiveSmallIntegerField(default=0)
    # Japanese: deals won and the final difference (own total minus the opponent's).
    deals_won = models.PositiveSmallIntegerField(default=0)
    difference = models.IntegerField(default=0)

    class Meta:
        verbose_name = _("match figures")
        verbose_name_plural = _("match figures")
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="match_figures_once_per_match")]
        indexes = [models.Index(fields=["player", "variant"])]

    def __str__(self):
        return f"{self.player} match {self.match_id} place {self.place}"
