"""Accounts: who can sit at a table (Player), friendships, blocks, access tokens.

A `Player` is one person at the tables: either a member (a `User`) or a guest
tied to a browser session. Game records reference `Player`, so when a guest
signs up the same row becomes the member's and their games come along.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

THEME_SYSTEM = "system"
THEME_CHOICES = [
    (THEME_SYSTEM, _("As the device")),
    ("light", _("Light")),
    ("dark", _("Dark")),
]
DECK_STANDARD = "standard"
DECK_CHOICES = [
    (DECK_STANDARD, _("Standard")),
    ("four-colour", _("Four colours")),
    ("large-index", _("Large index")),
]


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        # A deleted account leaves its seat in other people's game records.
        on_delete=models.SET_NULL,
        related_name="player",
    )
    is_guest = models.BooleanField(default=False)
    # The readable part of a guest's name ("Guest 4821"), translated when shown.
    guest_number = models.PositiveIntegerField(null=True, blank=True, unique=True)
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("preferred language"), max_length=8, blank=True, choices=settings.LANGUAGES
    )
    # How the site looks for this member (static/js/appearance.js, docs/accounts.md);
    # a guest's choice lives in their browser's storage instead.
    theme = models.CharField(_("theme"), max_length=8, choices=THEME_CHOICES, default=THEME_SYSTEM)
    card_deck = models.CharField(_("card faces"), max_length=12, choices=DECK_CHOICES, default=DECK_STANDARD)
    created_at = models.DateTimeField(auto_now_add=True)
    # When a guest signed up and this row became a member's.
    claimed_at = models.DateTimeField(null=True, blank=True)
    # A guest's last request (kept to the hour): guests idle for long are retired
    # (accounts.guests.retire_idle_guests).
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(
                condition=Q(is_guest=False) | Q(user__isnull=True, guest_number__isnull=False),
                name="player_guest_has_number_and_no_user",
            ),
        ]

    def __str__(self):
        return self.display_name_text

    @property
    def display_name_text(self):
        """The name shown at tables, in the active language for guests."""
        if self.is_guest:
            return gettext("Guest %(number)s") % {"number": self.guest_number}
        if self.display_name:
            return self.display_name
        if self.user_id is not None:
            return self.user.get_username()
        return gettext("Former player")

    @property
    def is_member(self):
        return not self.is_guest and self.user_id is not None


class Friendship(models.Model):
    """One row per pair of users, stored with the lower user id first.

    The unique ordered pair is what makes duplicate and crossing requests end
    as a single friendship: there is nowhere to put a second one.
    """

    PENDING = "pending"
    ACCEPTED = "accepted"
    STATUS_CHOICES = [(PENDING, _("request pending")), (ACCEPTED, _("friends"))]

    user_low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    user_high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["user_low", "user_high"], name="friendship_one_row_per_pair"),
            models.CheckConstraint(condition=Q(user_low__lt=F("user_high")), name="friendship_pair_ordered"),
            models.CheckConstraint(
                condition=Q(requested_by=F("user_low")) | Q(requested_by=F("user_high")),
                name="friendship_requested_by_one_of_pair",
            ),
        ]
        indexes = [models.Index(fields=["user_high", "status"])]

    def __str__(self):
        return f"{self.user_low_id}-{self.user_high_id} {self.status}"

    def other_id(self, user_id):
        return self.user_high_id if user_id == self.user_low_id else self.user_low_id


class Block(models.Model):
    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once_per_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked"])]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"


class AccessToken(models.Model):
    """A personal access token for programs. Only the sha256 of the token is kept.

    `scope`: "play" may do everything the member may; "read" may watch and read but not act
    (accounts.tokens.allows). `expires_at`: refused from then on (empty: never)."""

    PLAY = "play"
    READ = "read"
    SCOPE_CHOICES = [(PLAY, _("play (everything you may do)")), (READ, _("read only (watch, no moves)"))]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(_("name"), max_length=60)
    scope = models.CharField(_("what it may do"), max_length=8, choices=SCOPE_CHOICES, default=PLAY)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    # The first characters of the token, so its owner can tell tokens apart.
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"


class NameKey(models.Model):
    """The folded form (accounts.names.name_key) of a member's username or display name,
    so a new name that looks like another member's is found with one indexed query."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=160, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="namekey_once_per_user")]

    def __str__(self):
        return self.key
