"""The quick play queue: one row per time a player asked for a quick game (docs/quickplay.md).

A row is `waiting` until the pairing (quickplay/services.py) seats its player at a
table (`paired`, with the table), the player leaves the queue (`left`), or the
pairing finds the player may no longer play that game (`dropped`, with the
reason). The partial unique constraint lets a player wait at most once at a time;
rows that stopped waiting stay as the queue's history (waits, who played whom).
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import options
from games.models import Variant


class EntryStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    PAIRED = "paired", _("Paired")
    LEFT = "left", _("Left the queue")
    DROPPED = "dropped", _("Taken out of the queue")


class QueueEntry(models.Model):
    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="queue_entries")
    variant = models.CharField(max_length=10, choices=Variant.choices)
    stake = models.PositiveIntegerField(default=0)
    # Members' queues are rated; guests wait in a queue of their own, free and casual.
    rated = models.BooleanField(default=True)
    # A game with bots is welcome (unless the player chose people only): offered after
    # settings.QUICKPLAY_BOT_OFFER_SECONDS, taken by itself after QUICKPLAY_BOTS_AFTER_SECONDS;
    # bots take the chairs nobody took, at a free casual table.
    bots = models.BooleanField(default=False)
    # The player's shown rating in the variant when they joined (ratings move only when a match
    # ends, and a player at a table cannot queue).
    rating = models.IntegerField()
    status = models.CharField(max_length=10, choices=EntryStatus.choices, default=EntryStatus.WAITING)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Touched while a page or program of the player follows the queue (quickplay/consumers.py):
    # a player nobody has seen for QUICKPLAY_ABSENT_SECONDS closed the page and is taken out.
    seen_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="queue_entries")
    reason = models.CharField(max_length=200, blank=True, help_text="Why the pairing took the player out")

    class Meta:
        verbose_name = _("quick play entry")
        verbose_name_plural = _("quick play entries")
        constraints = [
            models.UniqueConstraint(fields=["player"], condition=Q(status="waiting"), name="quickplay_wait_once"),
            models.CheckConstraint(condition=Q(stake__in=(0,) + options.STAKES), name="quickplay_stake_allowed"),
        ]
        indexes = [models.Index(fields=["status", "variant", "stake", "rated"])]

    def __str__(self):
        return f"{self.player} {self.variant} {self.stake} ({self.status})"
