"""How long until a tournament starts or ends, in the page's language ("1 h 05 min", "7 min")."""

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def time_left(moment) -> str:
    """Whole minutes from now until `moment` (at least 0), as hours and minutes, in one piece:
    its spaces do not break, so a narrow screen never parts a number from its unit
    ("2 სთ" on one line, "00 წთ" on the next)."""
    minutes = max(0, int((moment - timezone.now()).total_seconds() + 59) // 60)
    if minutes >= 60:
        text = _("%(hours)s h %(minutes)02d min") % {"hours": minutes // 60, "minutes": minutes % 60}
    else:
        text = _("%(minutes)s min") % {"minutes": minutes}
    return text.replace(" ", "\N{NO-BREAK SPACE}")


@register.inclusion_tag("tournaments/_profile.html")
def tournament_section(player):
    """The profile's tournaments: wins and podiums in finished tournaments, each linked."""
    from ..services import finished_places

    places = finished_places(player) if player is not None else []
    return {"tournament_places": [row for row in places if row[1] <= 3],
            "tournament_wins": sum(1 for _tournament, place in places if place == 1),
            "tournament_podiums": sum(1 for _tournament, place in places if place <= 3),
            "tournament_played": len(places)}
