"""Setting up particular positions: lessons, tests and puzzles.

``classic_cards`` / ``japanese_cards`` complete a partly written deal (the
cards you care about) from the rest of the deck, in deck order, so that
``state.deal(**args)`` gets a full, valid deal. ``advance_to_deal`` plays
random legal moves until a given deal of the schedule is about to be dealt
(e.g. to reach the dark pulka of a ``full`` game).
"""

from __future__ import annotations

import random

from .cards import CARD_NAMES
from .japanese import COLUMNS, HAND_SIZE
from .randomplay import play_random


def _rest(used) -> list[str]:
    """The cards not in ``used``: ordinary cards in deck order, then the jokers (so a
    joker only lands where the deal has room for every card)."""
    used = set(used)
    order = [c for c in CARD_NAMES if c[0] != "X"] + ["X1", "X2"]
    return [c for c in order if c not in used]


def classic_cards(state, hands: dict[int, list[str]] | None = None, trump_card: str | None = None) -> dict:
    """Arguments of ``state.deal`` for its next deal with the given cards fixed.

    ``hands`` maps seats to the cards they must hold (listed first: in 9-card
    deals the first three are the ones seen before the trump choice).
    ``trump_card`` fixes the turned card of a 1-8-card deal; left out, the
    first remaining card (in deck order) is turned.
    """
    hands = hands or {}
    n = state.spec.cards
    fixed = [c for cards in hands.values() for c in cards] + ([trump_card] if trump_card else [])
    rest = iter(_rest(fixed))
    full = []
    for seat in range(4):
        full.append(_filled(hands.get(seat, []), n, rest))
    if n < 9:
        return {"hands": full, "trump_card": trump_card or next(rest)}
    return {"hands": full, "trump_card": None}


def japanese_cards(
    hands: dict[int, list[str]] | None = None, columns: dict[int, list[list[str]]] | None = None
) -> dict:
    """Arguments of ``JapaneseState.deal`` with the given cards fixed.

    ``hands`` maps seats to cards of their 8-card hand (first three: seen
    before the trump choice); ``columns`` maps seats to ``[face_down,
    face_up]`` pairs (a pair may use None for "any card").
    """
    hands = hands or {}
    columns = columns or {}
    fixed = [c for cards in hands.values() for c in cards]
    fixed += [c for cols in columns.values() for col in cols for c in col if c is not None]
    rest = iter(_rest(fixed))
    full_hands = []
    full_columns = []
    for seat in range(2):
        full_hands.append(_filled(hands.get(seat, []), HAND_SIZE, rest))
        cols = [list(col) for col in columns.get(seat, [])]
        while len(cols) < COLUMNS:
            cols.append([None, None])
        full_columns.append([[c if c is not None else next(rest) for c in col] for col in cols])
    return {"hands": full_hands, "columns": full_columns}


def _filled(cards, size: int, rest) -> list[str]:
    """``cards`` completed to ``size`` cards from the iterator ``rest``."""
    own = list(cards)
    while len(own) < size:
        own.append(next(rest))
    return own


def advance_to_deal(state, deal_index: int, seed: int = 0):
    """Play random legal moves (random deals included) until deal ``deal_index`` waits to be dealt."""
    play_random(state, random.Random(seed), until_deal=deal_index)
    if state.deal_index != deal_index:
        raise ValueError(f"the game ended before deal {deal_index}")
    return state
