"""The options a table may be created with: the one home of their values and defaults.

The game's options (game type, khishti, the end of a pulka, the Japanese target)
are the engine's own constants; the site adds only their labels. Stakes and move
clocks are the site's and are defined here. The models (choices, defaults and
check constraints), the forms, the JSON protocol (through the forms), the coin
ledger (which refuses any other stake) and the rules pages' examples take
theirs from this module.
"""

from django.utils.translation import gettext_lazy as _

from coins.stakes import TABLE_STAKES

from .engine.classic import GAME_TYPES, KHISHTI_VALUES, PULKA_BONUS_MODES, ClassicOptions
from .engine.japanese import TARGETS, JapaneseOptions

_CLASSIC_DEFAULTS = ClassicOptions()
_JAPANESE_DEFAULTS = JapaneseOptions()

# --- The game's options: the engine's values, the site's labels ----------------------------

GAME_TYPE_LABELS = {
    "standard": _("Standard (24 deals)"),
    "nines": _("Nines (16 deals)"),
    "short": _("Short (12 deals)"),
    "full": _("Full (40 deals)"),
}
KHISHTI_LABELS = {
    100: _("−100"),
    200: _("−200"),
    500: _("−500"),
    "per_card": _("−100 per card"),
}
PULKA_BONUS_LABELS = {
    "premium_moshla": _("Premium and moshla"),
    "premium": _("Premium only"),
    "none": _("None"),
}


def _labelled(values, labels: dict, option: str) -> list[tuple]:
    """(value, label) for each of the engine's values, in its order; a value the engine
    gained or lost without a label here stops the site at start."""
    if set(labels) != set(values):
        raise RuntimeError(f"games/options.py labels {sorted(map(str, labels))} for {option}, "
                           f"the engine offers {sorted(map(str, values))}")
    return [(value, labels[value]) for value in values]


# A table stores khishti as text ("200", "per_card"); the engine takes 200 or "per_card".
GAME_TYPE_CHOICES = _labelled(tuple(GAME_TYPES), GAME_TYPE_LABELS, "game_type")
KHISHTI_CHOICES = [(str(value), label) for value, label in _labelled(KHISHTI_VALUES, KHISHTI_LABELS, "khishti")]
PULKA_BONUS_CHOICES = _labelled(PULKA_BONUS_MODES, PULKA_BONUS_LABELS, "pulka_bonus")
JAPANESE_TARGETS = TARGETS

DEFAULT_GAME_TYPE = _CLASSIC_DEFAULTS.game_type
DEFAULT_KHISHTI = str(_CLASSIC_DEFAULTS.khishti)
DEFAULT_PULKA_BONUS = _CLASSIC_DEFAULTS.pulka_bonus
DEFAULT_TARGET = _JAPANESE_DEFAULTS.target


def khishti_for_engine(stored: str):
    """The engine's khishti for the text a table stores."""
    return {str(value): value for value in KHISHTI_VALUES}[stored]


# --- The site's options -------------------------------------------------------------------

STAKES = TABLE_STAKES  # Domino Coin per seat; 0 is a free table (the ledger says which: coins/stakes.py)
CLOCK_SECONDS = (15, 25, 30, 60, 120)  # the move clock's choices
DEFAULT_CLOCK_SECONDS = 30
# A reserve per seat, spent only when a move takes longer than the move clock (0: none).
BANK_SECONDS = (0, 60, 150)
DEFAULT_BANK_SECONDS = 0
# The clocks the table form offers in one tap: (seconds a move, bank seconds).
CLOCK_PRESETS = ((25, 150), (15, 60), (60, 0))
