"""Games played and won, for profile pages (`accounts/stats.py` shows them).

Counted from finished matches only: an aborted match (stopped by staff or the
system, every stake refunded) was not played to a result, and a running one
has none yet. A match is won when the player's seat is among the winners and
the player was still in it at the end: in classic Joker a bot plays on for a
player who left, and that bot's result is not the player's win (rules.md 3.6).
"""

from collections import Counter

from .models import MatchStatus, Seat


def results_for_player(player) -> dict[str, tuple[int, int]]:
    """`{variant: (played, won)}` over the finished matches `player` sat at."""
    seats = Seat.objects.filter(player=player, table__match__status=MatchStatus.FINISHED).values_list(
        "table__variant", "index", "left_at", "table__match__winners"
    )
    played, won = Counter(), Counter()
    for variant, index, left_at, winners in seats:
        played[variant] += 1
        if left_at is None and index in (winners or []):
            won[variant] += 1
    return {variant: (played[variant], won[variant]) for variant in played}
