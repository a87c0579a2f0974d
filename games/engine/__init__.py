"""The Joker rules engine: pure Python, no Django. See docs/engine.md for the API."""

from .actions import Bid, ChooseTrump, Play, action_from_record
from .cards import CARD_NAMES, JOKERS, RANKS, SUITS, full_deck, shuffled_deck
from .classic import ClassicOptions, ClassicState
from .common import Phase
from .dealing import deal_arguments, deal_from_deck
from .errors import (
    ERROR_CODES,
    EngineError,
    IllegalAction,
    InvalidDeal,
    InvalidOptions,
    RecordError,
)
from .japanese import JapaneseOptions, JapaneseState
from .outcome import Outcome
from .randomplay import play_random, random_deal
from .record import (
    FORMAT,
    catch_up,
    catch_up_log,
    new_state,
    replay_record,
    replay_text,
    state_from_record,
    to_record,
)
from .state import GameState

__all__ = [
    "CARD_NAMES",
    "ERROR_CODES",
    "FORMAT",
    "JOKERS",
    "RANKS",
    "SUITS",
    "Bid",
    "ChooseTrump",
    "ClassicOptions",
    "ClassicState",
    "EngineError",
    "GameState",
    "IllegalAction",
    "InvalidDeal",
    "InvalidOptions",
    "JapaneseOptions",
    "JapaneseState",
    "Outcome",
    "Phase",
    "Play",
    "RecordError",
    "action_from_record",
    "catch_up",
    "catch_up_log",
    "deal_arguments",
    "deal_from_deck",
    "full_deck",
    "new_state",
    "play_random",
    "random_deal",
    "replay_record",
    "replay_text",
    "shuffled_deck",
    "state_from_record",
    "to_record",
]
