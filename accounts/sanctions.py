"""The one shape of a sanction: a ban (moderation), a chat mute (moderation) and a pause from
rated play (conduct) are each in force from when they are made until their end, unless staff
lift them earlier.

Each model names its end field (`ENDS`: "until" or "ends_at") and whether it may have none
(`FOR_GOOD`: a ban may be for good); the rest is here once: the lifting fields, `active()`
(a query) and `is_active` (on a row) that decide "in force" the same way, and `period()`,
the words for how long ("until 12 May 2026, 14:00", "for good") in the active language and
the site's time zone. The apps keep their own fields (who, why, who made it) and their own
audited actions; who may play or chat is asked through accounts/access.py.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class SanctionQuerySet(models.QuerySet):
    def active(self, now=None):
        """In force at `now`: not lifted, and its end (if it has one) still to come."""
        ends = self.model.ENDS
        later = Q(**{f"{ends}__gt": now or timezone.now()})
        if self.model.FOR_GOOD:
            later |= Q(**{f"{ends}__isnull": True})
        return self.filter(later, lifted_at__isnull=True)


class Sanction(models.Model):
    ENDS = "until"  # the name of the model's end field
    FOR_GOOD = False  # whether that field may be empty (in force for good)

    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("lifted by"))

    objects = SanctionQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def ends(self):
        return getattr(self, self.ENDS)

    @property
    def is_active(self) -> bool:
        """In force now (what `active()` asks of the rows in a query)."""
        return self.lifted_at is None and (self.ends is None or self.ends > timezone.now())

    def period(self) -> str:
        """"until 12 May 2026, 14:00" or "for good", in the active language and the site's time zone."""
        if self.ends is None:
            return gettext("for good")
        return gettext("until %(when)s") % {"when": date_format(timezone.localtime(self.ends), "DATETIME_FORMAT")}
