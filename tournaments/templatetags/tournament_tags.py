"""How long until a tournament starts or ends, in the page's language ("1 h 05 min", "7 min")."""

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def time_left(moment) -> str:
    """Whole minutes from now until `moment` (at least 0), as hours and minutes."""
    minutes = max(0, int((moment - timezone.now()).total_seconds() + 59) // 60)
    if minutes >= 60:
        return _("%(hours)s h %(minutes)02d min") % {"hours": minutes // 60, "minutes": minutes % 60}
    return _("%(minutes)s min") % {"minutes": minutes}
