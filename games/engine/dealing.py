"""Turning a deck order into a deal, so the site can commit to a shuffled deck before a deal starts."""

from __future__ import annotations

from . import classic, japanese
from .cards import BIT, card_index
from .errors import InvalidDeal


def check_deck(deck) -> None:
    """Raise InvalidDeal("invalid_deck") unless ``deck`` lists the 36 cards once each."""
    if not isinstance(deck, (list, tuple)) or len(deck) != 36:
        raise InvalidDeal("invalid_deck", "a deck is a list of the 36 cards")
    seen = 0
    for name in deck:
        idx = card_index(name)
        if idx < 0 or seen & BIT[idx]:
            raise InvalidDeal("invalid_deck", f"bad or repeated card {name!r} in the deck", card=repr(name))
        seen |= BIT[idx]


def deal_arguments(state, deck) -> dict:
    """The keyword arguments of ``state.deal`` for the next deal, taken from a 36-card deck order.

    Classic: packets clockwise from the dealer's left, then the turned card
    (see ``classic.split_deck``). Japanese: see ``japanese.split_deck``.
    """
    check_deck(deck)
    if state.variant == "classic":
        spec = state.spec
        if spec is None:
            raise InvalidDeal("deal_not_expected", "the game is over")
        hands, turned = classic.split_deck(list(deck), state.dealer, spec.cards)
        return {"hands": hands, "trump_card": turned}
    hands, columns = japanese.split_deck(list(deck), state.declarer)
    return {"hands": hands, "columns": columns}


def deal_from_deck(state, deck) -> dict:
    """Deal the next deal of ``state`` from a 36-card deck order; returns what was dealt."""
    args = deal_arguments(state, deck)
    state.deal(**args)
    return args
