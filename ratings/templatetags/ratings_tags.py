"""Ratings on pages: the profile's ratings-and-figures section and the small rating badge.

    {% load ratings_tags %}{% rating_section profile_player %}
    {% rating_badge shown_rating %}
"""

from django import template

from games.models import Variant
from games.templatetags.pure_include import pure_include

from ..chart import history, rating_chart
from ..models import Rating
from ..services import shown_rating
from ..stats import player_figures

register = template.Library()


@register.inclusion_tag("ratings/_profile_ratings.html")
def rating_section(player):
    if player is None:
        return {"variants": []}
    figures = player_figures(player)
    ratings = {r.variant: r for r in Rating.objects.filter(player=player)}
    variants = []
    for code, label in Variant.choices:
        variants.append({
            "code": code, "label": label, "rating": shown_rating(ratings.get(code)),
            "chart": rating_chart(history(player, code)), "figures": figures[code],
        })
    return {"variants": variants}


@register.simple_tag
def rating_badge(rating):
    # Shown beside every name at a live table, redrawn on every move: once per rating and language.
    # Pages pass a ShownRating, the live table its dict.
    shown = rating.as_dict() if hasattr(rating, "as_dict") else rating
    return pure_include("ratings/_badge.html", rating=shown)
