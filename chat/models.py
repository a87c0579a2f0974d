"""Table chat: the messages said at a table, and the reports readers make of them.

A message belongs to its table (and to the table's match once it exists, so it is
kept with the match and shown on its admin page) and to one of the table's two
rooms: the players' or the spectators'. A message the word filter caught is kept
(`filtered`) but only its author ever sees it; a message a moderator hid
(`hidden_at`) is seen by nobody at the table any more. Messages are never deleted
by the site: a report's context is read from them.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Player


class Room(models.TextChoices):
    PLAYERS = "players", _("players")
    SPECTATORS = "spectators", _("spectators")


class ChatMessage(models.Model):
    # A table's chat, or (`place`, e.g. "tournament:12") the chat of a place another app owns.
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="chat_messages", verbose_name=_("table"))
    place = models.CharField(_("place"), max_length=40, blank=True)
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="chat_messages", verbose_name=_("match"))
    room = models.CharField(_("room"), max_length=10, choices=Room.choices)
    author = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="chat_messages",
                               verbose_name=_("author"))
    # The author's name when they wrote: the log still says who after the account is gone.
    author_label = models.CharField(_("author's name"), max_length=150)
    phrase = models.CharField(_("quick phrase"), max_length=32, blank=True)
    text = models.CharField(_("text"), max_length=200, blank=True)
    filtered = models.BooleanField(_("caught by the word filter"), default=False)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("hidden by"))
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["table", "room", "created_at"], name="chat_message_room"),
            models.Index(fields=["author", "created_at"], name="chat_message_author"),
            models.Index(fields=["place", "created_at"], name="chat_message_place"),
        ]
        default_permissions = ("view",)

    def __str__(self):
        return f"#{self.pk} {self.author_label}: {self.shown_text()}"

    def shown_text(self):
        """What the message says, in the active language for a quick phrase."""
        if self.phrase:
            from .phrases import phrase_text

            return phrase_text(self.phrase)
        return self.text

    @property
    def seen_by_others(self):
        return not self.filtered and self.hidden_at is None


class ReportStatus(models.TextChoices):
    OPEN = "open", _("waiting")
    DISMISSED = "dismissed", _("dismissed")
    HIDDEN = "hidden", _("message hidden")
    MUTED = "muted", _("author muted")


class ChatReport(models.Model):
    """A reader's report of a message: the moderators' queue in the admin."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports",
                                verbose_name=_("message"))
    reporter = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="+",
                                 verbose_name=_("reported by"))
    reporter_label = models.CharField(_("reporter's name"), max_length=150)
    created_at = models.DateTimeField(_("reported at"), default=timezone.now, db_index=True)
    status = models.CharField(_("status"), max_length=10, choices=ReportStatus.choices,
                              default=ReportStatus.OPEN, db_index=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("handled by"))
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]
        # Reports are made at the table and handled by the audited staff actions only.
        default_permissions = ("view",)

    def __str__(self):
        return f"#{self.pk} {self.message}"
