"""Games played and won per variant, for profile pages.

The figures come from the games app: `games/stats.py` defines
`results_for_player(player)`, which returns `{variant_code: (played, won)}`
counted over the finished matches the player sat at. A variant the player has
not finished a match of shows zeros.
"""

import importlib
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from .models import Player

VARIANTS = (
    ("classic", _("Classic Joker")),
    ("japanese", _("Japanese Joker")),
)
RESULTS_MODULE = "games.stats"


@dataclass(frozen=True)
class VariantStats:
    variant: str
    label: str
    played: int
    won: int


def _results_provider():
    try:
        module = importlib.import_module(RESULTS_MODULE)
    except ModuleNotFoundError as exc:
        # Only a missing games.stats means "no matches yet"; a broken import inside it must show.
        if exc.name in {RESULTS_MODULE, RESULTS_MODULE.partition(".")[0]}:
            return None
        raise
    return getattr(module, "results_for_player", None)


def _player_of(who):
    if isinstance(who, Player):
        return who
    return Player.objects.filter(user=who).first()


def player_stats(who):
    """A VariantStats per variant for a User or a Player, zeros when nothing is recorded."""
    player = _player_of(who)
    provider = _results_provider()
    results = dict(provider(player)) if (provider is not None and player is not None) else {}
    labels = dict(VARIANTS)
    codes = [code for code, _label in VARIANTS] + sorted(set(results) - set(labels))
    return [
        VariantStats(code, labels.get(code, code), *map(int, results.get(code, (0, 0))))
        for code in codes
    ]
