"""A sensible legal move for a player whose clock ran out (rules.md 3.6).

Deliberately simple and predictable, so a timed-out player is neither helped
nor ruined: name the suit you hold twice among your first three cards (else no
trump, as the Russian seed advises), pass when you may, play your lowest
card, keep a joker unless it is all you may play.
"""

from __future__ import annotations

from .actions import Bid, ChooseTrump
from .cards import CARD_NAMES, SUIT_OF, SUITS
from .common import P_BID, P_PLAY, P_TRUMP


def _rank(card: int) -> int:
    return card % 9


def timeout_action(state):
    """The move the server makes for ``state.to_act``; None when nobody is to act."""
    seat = state.to_act
    if seat is None:
        return None
    legal = state.legal_actions(seat)
    if state.phase is P_TRUMP:
        first_three = state._dealt[seat][:3]
        counts = [sum(1 for c in first_three if SUIT_OF[c] == s) for s in range(4)]
        best = max(range(4), key=lambda s: (counts[s], max((_rank(c) for c in first_three if SUIT_OF[c] == s), default=-1)))
        return ChooseTrump(seat, SUITS[best] if counts[best] >= 2 else None)
    if state.phase is P_BID:
        bids = [a for a in legal if type(a) is Bid]
        return min(bids, key=lambda a: a.n)
    if state.phase is P_PLAY:
        ordinary = [a for a in legal if a.card not in ("X1", "X2")]
        if ordinary:
            trump = state._trump

            def cost(action):
                card = CARD_NAMES.index(action.card)
                return (SUIT_OF[card] == trump, _rank(card))

            return min(ordinary, key=cost)
        discards = [a for a in legal if a.joker == "discard"]
        return (discards or legal)[0]
    return legal[0] if legal else None
