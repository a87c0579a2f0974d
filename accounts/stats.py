"""Games played and won per variant, for profile pages.

The figures come from the games app: `games/stats.py` defines
`results_for_player(player)`, which returns `{variant_code: (played, won)}`
counted over the finished matches the player sat at. A variant the player has
not finished a match of shows zeros.
"""

from dataclasses import dataclass

from games.models import Variant
from games.stats import results_for_player

from .models import Player


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
