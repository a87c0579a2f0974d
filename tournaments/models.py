"""Tournaments (docs/tournaments.md): the arena's and the Swiss's rows.

A `Tournament` runs from `starts_at` for `minutes`; a `Participant` is one player in it
(their score, their streak, whether the pairing may seat them); an `ArenaGame` is one
match the arena seated (its table, and whether its result was counted); a `Result` is
one participant's outcome of one such match, written once (unique per game and
participant), in the transaction that finished the match. A Swiss (`kind`) plays a fixed
number of `rounds`; its matches are `ArenaGame` rows of a `round`, and a round's sitting
out (a bye, or absence) is a `Bye`.
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from coins.stakes import TABLE_STAKES
from games import options
from games.models import Variant

from . import swiss

ARENA_BANK_SECONDS = 60  # a tournament's bank unless the staff choose another (0: none, no berserk)


class Status(models.TextChoices):
    UPCOMING = "upcoming", _("Upcoming")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Kind(models.TextChoices):
    ARENA = "arena", _("Arena")
    SWISS = "swiss", _("Swiss")


class Tournament(models.Model):
    name = models.CharField(max_length=100)
    # An arena runs for `minutes`; a Swiss plays `rounds` rounds, each paired when the last ended.
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ARENA)
    rounds = models.PositiveSmallIntegerField(default=0)
    current_round = models.PositiveSmallIntegerField(default=0, editable=False)  # Swiss: the round paired last
    variant = models.CharField(max_length=10, choices=Variant.choices)
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField(default=60)
    clock_seconds = models.PositiveSmallIntegerField(default=options.DEFAULT_CLOCK_SECONDS)
    # Each seat's bank at the tournament's tables (games/services/clocks.py); with one, a player may
    # berserk: halve it before a match's first move for an extra point (scoring.py).
    bank_seconds = models.PositiveSmallIntegerField(default=ARENA_BANK_SECONDS, choices=[(s, s) for s in options.BANK_SECONDS])
    game_type = models.CharField(max_length=10, choices=options.GAME_TYPE_CHOICES, default=options.DEFAULT_GAME_TYPE)
    target = models.PositiveSmallIntegerField(default=options.DEFAULT_TARGET)  # Japanese: the points to win
    # Classic only: bots take the chairs nobody in the arena can take (a bot's seat scores nothing).
    fill_with_bots = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    # Domino Coin held when joining (0: free), one of coins' table stakes; the pool goes to the podium.
    entry_fee = models.PositiveIntegerField(default=0)
    settled = models.BooleanField(default=False)  # the fees refunded and the prizes paid (services.settle)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # A daily arena of the schedule (tournaments/schedule.py): its day, game and hour; unique, so
    # beat never makes it twice. Empty for the staff's own tournaments.
    schedule_key = models.CharField(max_length=40, null=True, blank=True, unique=True, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["starts_at", "pk"]
        # The staff's audited actions (moderation/admin/tournaments.py, docs/moderation.md).
        permissions = [("cancel_tournament", "Can cancel a tournament"),
                       ("remove_participant", "Can remove a player from a tournament")]
        constraints = [
            models.CheckConstraint(condition=Q(fill_with_bots=False) | Q(variant=Variant.CLASSIC),
                                   name="tournament_bots_classic_only"),
            models.CheckConstraint(condition=Q(minutes__gte=1), name="tournament_lasts"),
            models.CheckConstraint(condition=Q(entry_fee__in=(0,) + TABLE_STAKES), name="tournament_fee_allowed"),
            models.CheckConstraint(
                condition=Q(kind=Kind.ARENA) | Q(rounds__gte=1, rounds__lte=swiss.MOST_ROUNDS),
                name="tournament_swiss_rounds",
                violation_error_message=_("A Swiss has from 1 to 15 rounds.")),
            models.CheckConstraint(condition=Q(kind=Kind.ARENA) | Q(fill_with_bots=False),
                                   name="tournament_swiss_without_bots",
                                   violation_error_message=_("A Swiss is played without bots.")),
            models.CheckConstraint(condition=Q(bank_seconds__in=options.BANK_SECONDS), name="tournament_bank_allowed"),
        ]

    def __str__(self):
        return self.name

    @property
    def shown_name(self) -> str:
        """The name in the active language: the schedule's names are msgids; a name the staff
        wrote is shown as written."""
        return gettext(self.name)

    @property
    def escrow_key(self) -> str:
        """The ledger's escrow of the entry fees (coins/services.py)."""
        return f"tournament:{self.pk}"

    @property
    def berserk_allowed(self) -> bool:
        """A player may halve their bank before a match's first move for an extra point: an
        arena's rule (a Swiss scores its rounds without it), and only with a bank to halve."""
        return self.kind == Kind.ARENA and self.bank_seconds > 0

    @property
    def ends_at(self):
        return self.starts_at + timezone.timedelta(minutes=self.minutes)

    @property
    def is_swiss(self) -> bool:
        return self.kind == Kind.SWISS


class ParticipantStatus(models.TextChoices):
    ACTIVE = "active", _("Playing")
    PAUSED = "paused", _("Paused")
    WITHDRAWN = "withdrawn", _("Left the arena")
    REMOVED = "removed", _("Removed by the staff")


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants")
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="tournament_entries")
    status = models.CharField(max_length=10, choices=ParticipantStatus.choices, default=ParticipantStatus.ACTIVE)
    score = models.IntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)  # wins (classic: firsts) in a row
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    rating = models.IntegerField(default=1000)  # the shown rating when joining: the second key of the pairing
    # A Swiss's tie-breaks (tournaments/swiss.py `tie_breaks`), written when its matches end.
    tie_break = models.FloatField(default=0)
    second_tie_break = models.FloatField(default=0)
    # The arena table the player sits at now (null: waiting, paused or gone).
    game = models.ForeignKey("ArenaGame", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Refreshed while a page of the player follows the arena (tournaments/consumers.py) or sits at its table.
    seen_at = models.DateTimeField(default=timezone.now)
    # Since when the player waits for a table (classic with bots: they come after TOURNAMENT_BOTS_AFTER_SECONDS).
    waiting_since = models.DateTimeField(default=timezone.now)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("tournament player")
        verbose_name_plural = _("tournament players")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="tournament_join_once")]
        indexes = [models.Index(fields=["tournament", "status", "game"])]

    def __str__(self):
        return f"{self.player} in {self.tournament_id}"

    @property
    def on_fire(self) -> bool:
        """Two wins in a row: the next win counts double (the flame beside the name)."""
        return self.streak >= 2


class ArenaGame(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(default=0)  # a Swiss's round; 0 in an arena
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="arena_game")
    players = models.ManyToManyField(Participant, related_name="games")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set once, in the transaction that finished its match: its results counted (or not, after the end).
    finished_at = models.DateTimeField(null=True, blank=True)
    counted = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("arena game")
        verbose_name_plural = _("arena games")


class Result(models.Model):
    game = models.ForeignKey(ArenaGame, on_delete=models.CASCADE, related_name="results")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="results")
    place = models.PositiveSmallIntegerField()
    points = models.PositiveSmallIntegerField()
    doubled = models.BooleanField(default=False)
    left = models.BooleanField(default=False)  # resigned, forfeited or walked out: 0, streak broken
    berserk = models.BooleanField(default=False)  # the player halved their bank in this match (⚔)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "participant"], name="tournament_result_once")]


class Bye(models.Model):
    """A Swiss player who sat out a round: the pairing's bye (scored, `swiss.bye_points`) or
    absent when the round was paired (0 points)."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="byes")
    round = models.PositiveSmallIntegerField()
    points = models.PositiveSmallIntegerField()
    absent = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["participant", "round"], name="tournament_bye_once_a_round")]
class ComingPledge(models.Model):
    """A member said "I'll come" to an upcoming tournament: when it starts they get a header
    notice and a push, once (`told_at` is set by one conditional update: services.tell_those_coming)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pledges")
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="tournament_pledges")
    created_at = models.DateTimeField(auto_now_add=True)
    told_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("player who will come")
        verbose_name_plural = _("players who will come")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="tournament_pledge_once")]
        indexes = [models.Index(fields=["told_at"], name="tournament_pledge_untold",
                                condition=Q(told_at__isnull=True))]

    def __str__(self):
        return f"{self.player} will come to {self.tournament_id}"
