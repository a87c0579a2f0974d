"""Things both variants share: the phase enum, joker modes, history tags, option coercion."""

from __future__ import annotations

from enum import Enum

from .actions import DISCARD, TAKE
from .cards import CARD_NAMES, NO_SUIT, SUIT_INDEX, SUITS
from .errors import IllegalAction


class Phase(str, Enum):
    """Where a game stands. ``state.to_act`` is None exactly in DEAL and GAME_OVER."""

    DEAL = "deal"  # waiting for the next deal's cards (state.deal(...))
    TRUMP = "trump"  # the trump chooser / declarer names trump
    BID = "bid"  # classic bidding
    PLAY = "play"  # tricks
    GAME_OVER = "game_over"


# The members as plain module globals: ``Phase.PLAY`` is an enum class lookup, far
# slower than a global in the hot paths of 3.11.
P_DEAL = Phase.DEAL
P_TRUMP = Phase.TRUMP
P_BID = Phase.BID
P_PLAY = Phase.PLAY
P_OVER = Phase.GAME_OVER

# Joker modes, internally.
MODE_NONE = 0
MODE_TAKE = 1
MODE_DISCARD = 2
MODE_NAMES = (None, TAKE, DISCARD)
MODE_OF = {None: MODE_NONE, TAKE: MODE_TAKE, DISCARD: MODE_DISCARD}  # a record's "joker" (None: no mode)

# History entries are tuples whose first item says what they are:
#   (H_TRUMP, seat, suit)   suit -1 = no trump
#   (H_BID, seat, n)
#   (H_PLAY, seat, card, mode, suit)   card index, MODE_*, named suit or -1
H_TRUMP = 0
H_BID = 1
H_PLAY = 2
# History entries of ordinary cards, shared (tuples are immutable): no tuple to build per card.
PLAIN_PLAYS = tuple((H_PLAY, seat, card, MODE_NONE, NO_SUIT) for seat in range(4) for card in range(36))


def trump_from_public(suit) -> int:
    """Internal trump from ChooseTrump.suit ("S".."H", None or "none"); raises invalid_trump."""
    if suit is None or suit == "none":
        return NO_SUIT
    idx = SUIT_INDEX.get(suit) if type(suit) is str else None
    if idx is None:
        raise IllegalAction("invalid_trump", f"trump must be S, C, D, H or none, not {suit!r}", trump=repr(suit))
    return idx


def history_entry_to_record(entry) -> dict:
    """Record-format dict of one history entry."""
    tag = entry[0]
    if tag == H_PLAY:
        rec = {"seat": entry[1], "play": CARD_NAMES[entry[2]]}
        if entry[3]:
            rec["joker"] = MODE_NAMES[entry[3]]
        if entry[4] != NO_SUIT:
            rec["suit"] = SUITS[entry[4]]
        return rec
    if tag == H_BID:
        return {"seat": entry[1], "bid": entry[2]}
    return {"seat": entry[1], "trump": "none" if entry[2] == NO_SUIT else SUITS[entry[2]]}


def trick_to_public(trick) -> list[dict]:
    return [history_entry_to_record(entry) for entry in trick]


def ranks_by_total(totals) -> list[int]:
    """Place of each seat (1 = best); equal totals share the place."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]
