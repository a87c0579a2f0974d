"""The recent-matches box of a profile page.

    {% load match_history %}{% recent_matches profile_player %}

Lists the latest matches the profile's player sat at (those the visitor may
see), with links to each replay and record and to the whole history.
"""

from django import template

from accounts.players import player_for_request
from games.replay_views import history_rows, match_history

register = template.Library()

RECENT = 5


@register.inclusion_tag("games/_recent_matches.html", takes_context=True)
def recent_matches(context, player):
    request = context.get("request")
    viewer = player_for_request(request, create=False) if request is not None else None
    rows = history_rows(match_history(player, viewer)[: RECENT + 1]) if player is not None else []
    own = viewer is not None and player is not None and viewer.pk == player.pk
    return {"rows": rows[:RECENT], "more": len(rows) > RECENT, "player": player, "own": own,
            "username": player.user.get_username() if player is not None and player.user_id else None}
