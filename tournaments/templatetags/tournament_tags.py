"""Tournament words in the page's language: how long until a tournament starts or ends ("1 h 05 min",
"7 min"), the clock of its tables, a profile's tournaments."""

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


@register.filter(is_safe=True)
def numbers_keep_their_units(words: str) -> str:
    """A tournament's facts with each number joined to its unit (games/forms.py)."""
    from games.forms import numbers_keep_their_units as joined

    return joined(words)


@register.filter
def clock_words(tournament) -> str:
    """The clock of a tournament's tables in the words a table's clock is given everywhere."""
    from games.forms import clock_label

    return clock_label(tournament.clock_seconds, tournament.bank_seconds)


@register.inclusion_tag("tournaments/_profile.html")
def tournament_section(player):
    """The profile's tournaments: wins and podiums in finished tournaments, each linked."""
    from ..services import finished_places

    places = finished_places(player) if player is not None else []
    return {"tournament_places": [row for row in places if row[1] <= 3],
            "tournament_wins": sum(1 for _tournament, place in places if place == 1),
            "tournament_podiums": sum(1 for _tournament, place in places if place <= 3),
            "tournament_played": len(places)}
