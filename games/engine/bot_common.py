"""Card tools shared by the bot's classic and Japanese players (see bot.py).

Cards use the engine's numbering and tables (``games.engine.rules`` exports
them): index = suit * 9 + rank (suits S C D H, ranks 6..A), with the jokers
where 6S (X1 = 0) and 6C (X2 = 9) would be, so a hand is a 36-bit mask and
"cards above c in its suit" is one mask away.
"""

from __future__ import annotations

from .rules import JOKER_MASK, RANK_OF, SUIT_INDEX, SUIT_OF, SUITS

# The card indices of every 9-bit suit pattern, for each suit's offset: bits() is four lookups.
_BITS9 = tuple(tuple(tuple(9 * s + r for r in range(9) if m >> r & 1) for m in range(512)) for s in range(4))
_B0, _B1, _B2, _B3 = (tuple(list(t) for t in table) for table in _BITS9)


def bits(mask: int) -> list[int]:
    """Card indices in a mask, lowest first."""
    return _B0[mask & 511] + _B1[(mask >> 9) & 511] + _B2[(mask >> 18) & 511] + _B3[mask >> 27]


def suit_index(name) -> int:
    """A suit letter as 0-3; None (no suit named) as -1."""
    return -1 if name is None else SUIT_INDEX[name]


def trump_index(name):
    """A view's trump: None while unknown, -1 for no trump, 0-3 for a suit."""
    if name is None:
        return None
    if name == "none":
        return -1
    return SUIT_INDEX[name]


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_rank(mask: int, trump_mask: int = 0) -> int:
    """The card of ``mask`` (no jokers) of the lowest rank, side suits before trumps; -1 if empty."""
    side = mask & ~trump_mask
    if side:
        mask = side
    best = 99
    card = -1
    for shift in (0, 9, 18, 27):
        chunk = (mask >> shift) & 511
        if chunk:
            r = (chunk & -chunk).bit_length() - 1
            if r < best:
                best, card = r, shift + r
    return card


def highest_rank(mask: int, trump_mask: int = 0) -> int:
    """The card of ``mask`` (no jokers) of the highest rank, trumps above side suits; -1 if empty."""
    trumps = mask & trump_mask
    if trumps:
        return trumps.bit_length() - 1
    best = -1
    card = -1
    for shift in (0, 9, 18, 27):
        chunk = (mask >> shift) & 511
        if chunk:
            r = chunk.bit_length() - 1
            if r > best:
                best, card = r, shift + r
    return card


_TRUMP_RANK_WEIGHT = (0.0, 0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)


def choose_trump(hand: int):
    """Trump from the first three cards (both variants): the suit they are longest and highest in.

    No trump (None) when they are high cards spread over different suits (two
    aces or kings and no suit held twice): a trump would only help the others.
    Jokers do not lean towards any suit.
    """
    score = [0.0] * 4
    count = [0] * 4
    tops = 0
    for c in bits(hand & ~JOKER_MASK):
        s = SUIT_OF[c]
        count[s] += 1
        score[s] += 1.0 + _TRUMP_RANK_WEIGHT[RANK_OF[c]]
        if RANK_OF[c] >= 7:
            tops += 1
    if max(count) <= 1 and tops >= 2:
        return None
    best = max(range(4), key=lambda s: (score[s], -s))
    if score[best] == 0.0:
        return None
    return SUITS[best]
