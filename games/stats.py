"""Games played and won, for profile pages (`accounts/stats.py` shows them).

Counted from finished matches only: an aborted match (stopped by staff or the
system, every stake refunded) was not played to a result, and a running one
has none yet. A match is won when the player's seat is among the match's
winners, stored when it ended by games/services/results.py: a classic player
who left counts as last there, whatever the bot playing on for them scored
(rules.md 3.6), so their seat is never among the winners.
"""

from collections import Counter

from .models import MatchStatus, Seat


def results_for_player(player) -> dict[str, tuple[int, int]]:
    """`{variant: (played, won)}` over the finished matches `player` sat at."""
    seats = Seat.objects.filter(player=player, table__match__status=MatchStatus.FINISHED).values_list(
        "table__variant", "index", "table__match__winners"
    )
    played, won = Counter(), Counter()
    for variant, index, winners in seats:
        played[variant] += 1
        if index in (winners or []):
            won[variant] += 1
    return {variant: (played[variant], won[variant]) for variant in played}
