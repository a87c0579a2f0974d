"""Walking out on pages (docs/conduct.md):

    {% load conduct_tags %}{% conduct_section profile_player own_profile %}   the profile's reliability
    {% pause_notice player %}   a paused (or warned) player's notice on the lobby (and the table form:
                                {% pause_notice player True %})
"""

from django import template

from ..services import RELIABILITY_MATCHES, WINDOW, reliability, standing

register = template.Library()


@register.inclusion_tag("conduct/_profile_conduct.html")
def conduct_section(player, own_profile=False):
    if player is None or player.is_guest:
        return {"player": None}
    return {
        "player": player,
        "reliability": reliability(player),
        "standing": standing(player) if own_profile else None,
        "latest": RELIABILITY_MATCHES,
        "window_days": WINDOW.days,
    }


@register.inclusion_tag("conduct/_pause_notice.html")
def pause_notice(player, on_table_form=False):
    return {"standing": standing(player), "window_days": WINDOW.days, "on_table_form": on_table_form}
