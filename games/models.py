"""Tables, seats and matches.

A match is stored as its `joker-record/1` document plus a version number: the
record is the whole truth (it holds every dealt card, so it never leaves the
server as it is), and the version tells clients and timers which position an
action or a timeout was made against.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from . import options


class Variant(models.TextChoices):
    CLASSIC = "classic", _("Classic Joker")
    JAPANESE = "japanese", _("Japanese Joker")


class Visibility(models.TextChoices):
    OPEN = "open", pgettext_lazy("who may sit at a table", "Open")
    FRIENDS = "friends", _("Friends only")
    PASSWORD = "password", pgettext_lazy("who may sit at a table", "Password")


class BotLevel(models.TextChoices):
    """The levels of games.engine.bot (LEVELS) a practice table's bots may play at."""

    BEGINNER = "beginner", pgettext_lazy("bot level", "Beginner")
    CLUB = "club", pgettext_lazy("bot level", "Club")
    MASTER = "master", pgettext_lazy("bot level", "Master")


class TableStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    CLOSED = "closed", _("Closed")


SEATS_BY_VARIANT = {Variant.CLASSIC: 4, Variant.JAPANESE: 2}


class Table(models.Model):
    variant = models.CharField(max_length=10, choices=Variant.choices)
    # Classic options (ignored for Japanese tables).
    game_type = models.CharField(max_length=10, choices=options.GAME_TYPE_CHOICES, default=options.DEFAULT_GAME_TYPE)
    khishti = models.CharField(max_length=10, choices=options.KHISHTI_CHOICES, default=options.DEFAULT_KHISHTI)
    pulka_bonus = models.CharField(max_length=16, choices=options.PULKA_BONUS_CHOICES,
                                   default=options.DEFAULT_PULKA_BONUS)
    fill_with_bots = models.BooleanField(default=False)
    # The level the practice bots play at (a classic leaver's seat and the clock's move are always club).
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, default=BotLevel.CLUB)
    # A rated match moves its players' ratings (ratings/); practice and guests' tables are casual.
    rated = models.BooleanField(default=True)
    # Japanese option (ignored for classic tables).
    target = models.PositiveSmallIntegerField(default=options.DEFAULT_TARGET)
    stake = models.PositiveIntegerField(default=0, help_text="0 for a free table")
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.OPEN)
    password_hash = models.CharField(max_length=128, blank=True)
    clock_seconds = models.PositiveSmallIntegerField(default=options.DEFAULT_CLOCK_SECONDS)
    # Each seat's reserve (bank): spent when a move takes longer than `clock_seconds`; 0 is none.
    bank_seconds = models.PositiveSmallIntegerField(default=options.DEFAULT_BANK_SECONDS)
    # Whether people without a seat may watch the match (games/services/spectators.py).
    allow_spectators = models.BooleanField(default=True)
    # A player may halve their own bank before the first move (an arena's berserk, matches.berserk).
    berserk_allowed = models.BooleanField(default=False)
    creator = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="created_tables")
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches")

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["status", "variant", "stake"])]
        constraints = [
            models.CheckConstraint(condition=Q(stake__in=(0,) + options.STAKES), name="table_stake_allowed"),
            models.CheckConstraint(condition=Q(target__in=options.JAPANESE_TARGETS), name="table_target_allowed"),
            models.CheckConstraint(condition=Q(bank_seconds__in=options.BANK_SECONDS), name="table_bank_allowed"),
        ]

    def __str__(self):
        return f"{self.get_variant_display()} #{self.pk}"

    @property
    def seat_count(self):
        return SEATS_BY_VARIANT[self.variant]

    @property
    def is_coin_table(self):
        return self.stake > 0

    @property
    def escrow_key(self):
        return f"table:{self.pk}"

    def record_options(self):
        """The `options` object of this table's game record."""
        if self.variant == Variant.JAPANESE:
            return {"target": self.target}
        return {"game_type": self.game_type, "khishti": options.khishti_for_engine(self.khishti),
                "pulka_bonus": self.pulka_bonus}


class Seat(models.Model):
    """One chair at a table. A bot chair has no player; a player who left a
    classic match keeps the row (for the record and the stake) with `left_at`."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey("accounts.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="seats")
    is_bot = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    # Presence, kept by the match consumers; the clocks issue acts on it.
    connections = models.PositiveIntegerField(default=0)
    # Indexed: the clocks' tick each second looks for graces that ran out (games/services/clocks.py).
    disconnected_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # When a web process last said one of its sockets holds this seat (games/services/presence.py).
    seen_at = models.DateTimeField(null=True, blank=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    # Of the table's bank, what this seat has spent so far, in milliseconds (games/services/clocks.py).
    bank_spent_ms = models.PositiveIntegerField(default=0)
    # The player gave up half the bank before the first move (matches.berserk): ⚔ beside the name.
    berserk = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "player"], condition=Q(player__isnull=False), name="seat_unique_player"
            ),
        ]

    def __str__(self):
        return f"{self.table} seat {self.index}"

    @property
    def display_name(self):
        if self.player_id and not self.left_at:
            return self.player.display_name_text
        return None


class Spectator(models.Model):
    """One open connection of someone watching a table without a seat (a page's socket or a
    program's `watch`), kept while it is open: the players see how many there are. Each web
    process refreshes `seen_at` of its rows every PRESENCE_BEAT_SECONDS; a row nobody has seen
    for PRESENCE_STALE_SECONDS (its process died) no longer counts and the sweeper removes it
    (games/services/spectators.py)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="spectator_connections")
    player = models.ForeignKey("accounts.Player", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+")
    connected_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("spectator")
        verbose_name_plural = _("spectators")
        indexes = [models.Index(fields=["table", "seen_at"])]

    def __str__(self):
        return f"{self.table} spectator {self.pk}"


class MatchStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class Match(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="match")
    # While the match runs, the joker-record/1 document's head (format, variant, options,
    # players): the deals and the end are in the action log (MatchAction), a row per version.
    # Once the match is over, the whole record, written once, so that the records, replays
    # and exports read one row (the log stays as it was written).
    document = models.JSONField(help_text="The joker-record/1 document's head while the match runs, all of it once over.")
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=MatchStatus.choices, default=MatchStatus.RUNNING, db_index=True)
    # Per deal: the commitment shown before the deal and the salt revealed after it.
    deal_commitments = models.JSONField(default=list)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # When the server moves for the player to act (move time + their bank left); None when the
    # match is not running. Indexed: the clocks' tick each second reads the due ones.
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    winners = models.JSONField(default=list, blank=True)
    end_reason = models.CharField(max_length=20, blank=True)
    end_seat = models.SmallIntegerField(null=True, blank=True)

    class Meta:
        # Django would make "Matchs" of the class name.
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self):
        return f"Match #{self.pk} ({self.table})"

    @property
    def record(self) -> dict:
        """The joker-record/1 document at this match's `version`, every dealt card included
        (server only): the stored document once the match is over, else its head and the
        action log's rows up to the version, assembled once per object and version."""
        if "deals" in self.document:
            return self.document
        cached = self.__dict__.get("_record")
        if cached is None or cached[0] != self.version:
            from .services.match_log import assemble

            cached = (self.version, assemble(self.document, self.log_rows(self.version)))
            self.__dict__["_record"] = cached
        return cached[1]

    def log_rows(self, up_to: int, after: int = 0) -> list:
        """The action log's entries of versions `after` < v <= `up_to`, in order."""
        return list(MatchAction.objects.filter(match_id=self.pk, version__gt=after, version__lte=up_to)
                    .order_by("version").values_list("entries", flat=True))

    def refresh_from_db(self, *args, **kwargs):
        self.__dict__.pop("_record", None)
        super().refresh_from_db(*args, **kwargs)


class MatchAction(models.Model):
    """One version of a match: what it added to the record (append-only, never rewritten).

    `entries` is a list of {"actions": [record actions]} (appended to the last deal),
    {"deal": a record deal} (a new deal, with its actions) and {"end": {reason, seat}}
    (games/services/match_log.py)."""

    # The unique (match, version) index serves every read: no index of its own on the match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log", db_index=False)
    version = models.PositiveIntegerField()
    entries = models.JSONField()

    class Meta:
        verbose_name = _("match action")
        verbose_name_plural = _("match actions")
        constraints = [models.UniqueConstraint(fields=["match", "version"], name="match_action_unique_version")]

    def __str__(self):
        return f"{self.match_id} v{self.version}"

    @staticmethod
    def dealt(match_id: int, index: int) -> dict | None:
        """Deal `index` of a match's record as it was dealt (its first actions at most): what a
        check of its commitment needs, read from the one log row that holds it."""
        from django.db import connection

        rows = MatchAction.objects.filter(match_id=match_id)
        if connection.vendor == "postgresql":  # the row itself, by jsonb containment
            rows = rows.filter(entries__contains=[{"index": index}])
        for entries in rows.order_by("version").values_list("entries", flat=True):
            for entry in entries:
                if entry.get("index") == index and "deal" in entry:
                    return entry["deal"]
        return None

