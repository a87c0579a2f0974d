"""Games played and won, for profile pages (`player_stats`, registered with accounts/profiles.py).

Counted from finished matches only: an aborted match (stopped by staff or the
system, every stake refunded) was not played to a result, and a running one
has none yet. A match is won when the player's seat is among the match's
winners, stored when it ended by games/services/results.py: a classic player
who left counts as last there, whatever the bot playing on for them scored
(rules.md 3.6), so their seat is never among the winners.
"""

from collections import Counter
from dataclasses import dataclass

from accounts.models import Player

from .models import MatchStatus, Seat, Variant


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


@dataclass(frozen=True)
class VariantStats:
    variant: str
    label: str
    played: int
    won: int


def _player_of(who):
    if isinstance(who, Player):
        return who
    return Player.objects.filter(user=who).first()


def player_stats(who):
    """A VariantStats per variant for a User or a Player, zeros when nothing is recorded."""
    player = _player_of(who)
    results = results_for_player(player) if player is not None else {}
    labels = dict(Variant.choices)
    codes = list(Variant.values) + sorted(set(results) - set(labels))
    return [
        VariantStats(code, labels.get(code, code), *map(int, results.get(code, (0, 0))))
        for code in codes
    ]
