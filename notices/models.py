"""Who is on the site, the notices in the header, and invitations to a table.

- `SiteConnection`: one row per member and web process, counting that process's open
  pages of the member (the site-wide socket every page opens, ws/notices/) and when
  the process last said it still holds them (`seen_at`, refreshed by its beat). A
  member is online while a row of theirs counts a page and is fresh (notices/presence.py).
- `Notice`: something a member should see in the header, kept until they read it.
  It stores what happened, not words: each reader's page words it in its own language.
- `Invitation`: a one-use grant from a seated player for one friend to sit at one
  table without its password (notices/invitations.py; the seat is taken by
  games/services/tables.sit).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class SiteConnection(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="site_connections")
    process = models.CharField(max_length=80, help_text="The web process holding the pages (host:pid:random).")
    connections = models.PositiveIntegerField(default=0)
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("open pages of a member")
        verbose_name_plural = _("open pages of members")
        constraints = [models.UniqueConstraint(fields=["user", "process"], name="site_connection_unique")]

    def __str__(self):
        return f"{self.user_id}@{self.process}: {self.connections}"


class NoticeKind(models.TextChoices):
    FRIEND_REQUEST = "friend_request", _("Friend request")
    INVITATION = "invitation", _("Invitation to a table")
    MATCH_STARTED = "match_started", _("The match started")
    TABLE_LOCKED = "table_locked", _("A table stopped taking its password")
    TOURNAMENT_STARTS = "tournament_starts", _("A tournament you said you will come to started")


class Notice(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20, choices=NoticeKind.choices)
    # What the notice is about, once per reader: "friend_request:<friendship>", "invitation:<id>",
    # "match_started:<table>". A second try to make the same notice changes nothing.
    key = models.CharField(max_length=80)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    invitation = models.ForeignKey("notices.Invitation", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="notices")
    # An announcement's (accounts/announcements.py): the page a tap opens and the name it is about
    # (a msgid is shown translated).
    url_name = models.CharField(max_length=60, blank=True)
    url_args = models.JSONField(default=list, blank=True)
    subject = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notice_once_per_reader")]
        indexes = [models.Index(fields=["user", "read_at"], name="notice_unread")]

    def __str__(self):
        return f"{self.kind} for {self.user_id} ({self.key})"

    @property
    def shown_subject(self) -> str:
        """The announcement's subject in the active language (a name the staff wrote stays as written)."""
        return gettext(self.subject) if self.subject else ""

    @property
    def link(self) -> str:
        return reverse(self.url_name, args=self.url_args) if self.url_name else ""


class Invitation(models.Model):
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="+")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            # One live invitation per friend and table: inviting again changes nothing.
            models.UniqueConstraint(fields=["table", "invitee"], name="invitation_one_open_per_friend",
                                    condition=Q(used_at__isnull=True, withdrawn_at__isnull=True)),
        ]

    def __str__(self):
        return f"invitation {self.pk}: {self.invitee_id} to {self.table_id}"
