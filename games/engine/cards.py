"""Cards as small ints and hands as 36-bit masks.

Card index = suit * 9 + rank, suits in record order S C D H (0..3), ranks 6..A
(0..8). The two places that would hold 6S and 6C hold the jokers: index 0 is
X1 and index 9 is X2. Inside a suit a higher rank is a higher bit, so "highest
card of a suit in a hand" is one ``bit_length`` away.

Publicly, cards are always the record strings (``"AS"``, ``"TH"``, ``"X1"``).
"""

from __future__ import annotations

from operator import itemgetter

# The card alphabet every other module takes from here (games.engine exports it).
RANKS = "6789TJQKA"  # low to high
SUITS = "SCDH"  # the record's order
SUIT_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
JOKERS = ("X1", "X2")  # in place of the black sixes

X1 = 0
X2 = 9
JOKER_MASK = (1 << X1) | (1 << X2)
FULL_DECK = (1 << 36) - 1
DECK_SIZE = 36

NO_SUIT = -1

CARD_NAMES: tuple[str, ...] = tuple(
    ("X1" if idx == X1 else "X2" if idx == X2 else RANKS[idx % 9] + SUITS[idx // 9]) for idx in range(36)
)
CARD_INDEX: dict[str, int] = {name: idx for idx, name in enumerate(CARD_NAMES)}
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}

# Suit of each card index; jokers have none.
SUIT_OF: tuple[int, ...] = tuple(NO_SUIT if idx in (X1, X2) else idx // 9 for idx in range(36))
# Ordinary cards of each suit (the joker bits are left out).
SUIT_MASK: tuple[int, ...] = tuple((0x1FF << (9 * s)) & ~JOKER_MASK for s in range(4))
BIT: tuple[int, ...] = tuple(1 << idx for idx in range(36))
# Rank of each card (0 = six .. 8 = ace); jokers have none.
RANK_OF: tuple[int, ...] = tuple(-1 if SUIT_OF[idx] == NO_SUIT else idx % 9 for idx in range(36))
# Cards of the same suit ranked above / below each card (empty for the jokers).
ABOVE: tuple[int, ...] = tuple(
    0 if SUIT_OF[idx] == NO_SUIT else SUIT_MASK[SUIT_OF[idx]] & ~((1 << (idx + 1)) - 1) for idx in range(36)
)
BELOW: tuple[int, ...] = tuple(0 if SUIT_OF[idx] == NO_SUIT else SUIT_MASK[SUIT_OF[idx]] & ((1 << idx) - 1) for idx in range(36))

# Display order of a hand: jokers, then spades, clubs, diamonds, hearts, each high to low.
_DISPLAY_ORDER: tuple[int, ...] = (X1, X2) + tuple(
    s * 9 + r for s in range(4) for r in range(8, -1, -1) if s * 9 + r not in (X1, X2)
)


def card_index(name: object) -> int:
    """Index of a record card string, or -1 when it is not one of the 36 cards."""
    if type(name) is not str:
        return -1
    return CARD_INDEX.get(name, -1)


def dealt_indices(names) -> list[int]:
    """Card indices of a dealt list of record strings; raises InvalidDeal("unknown_card")."""
    try:
        if len(names) > 1:
            return list(itemgetter(*names)(CARD_INDEX))
        return [CARD_INDEX[name] for name in names]
    except (KeyError, TypeError):
        for name in names:
            if card_index(name) < 0:
                raise _invalid_deal("unknown_card", f"{name!r} is not a card", card=repr(name)) from None
        raise


def hand_mask(indices) -> int:
    """Mask of a list of card indices. With a repeated card the popcount comes out short
    (a sum of powers of two carries), which is how deals find duplicates cheaply."""
    if len(indices) > 1:
        return sum(itemgetter(*indices)(BIT))
    return BIT[indices[0]] if indices else 0


def check_distinct(indices: list[int]) -> None:
    """Raise InvalidDeal("duplicate_card") when a card index repeats."""
    if len(set(indices)) != len(indices):
        seen = set()
        for idx in indices:
            if idx in seen:
                raise _invalid_deal("duplicate_card", f"{CARD_NAMES[idx]} is dealt twice", card=CARD_NAMES[idx])
            seen.add(idx)


def _invalid_deal(code, message, **params):
    from .errors import InvalidDeal

    return InvalidDeal(code, message, **params)


def mask_to_indices(mask: int) -> list[int]:
    """Card indices in a mask, in display order."""
    return [idx for idx in _DISPLAY_ORDER if mask >> idx & 1]


def mask_to_cards(mask: int) -> list[str]:
    """Record strings of the cards in a mask, in display order."""
    return [CARD_NAMES[idx] for idx in _DISPLAY_ORDER if mask >> idx & 1]


def indices_mask(indices) -> int:
    mask = 0
    for idx in indices:
        mask |= 1 << idx
    return mask


def full_deck() -> list[str]:
    """The 36 cards, in index order."""
    return list(CARD_NAMES)


def shuffled_deck(rng) -> list[str]:
    """A freshly shuffled 36-card deck (record strings).

    ``rng`` is any ``random.Random``-like object: the site passes
    ``secrets.SystemRandom()``, tests pass ``random.Random(seed)`` so that a seed
    fixes the deal. ``rng.shuffle`` is an exactly uniform Fisher-Yates shuffle.
    """
    deck = list(CARD_NAMES)
    rng.shuffle(deck)
    return deck


def random_indices(rng, count: int) -> list[int]:
    """``count`` distinct random card indices in random order (the first cards of a shuffled deck).

    The fast dealing path of random play (bots, benchmarks): one
    ``rng.getrandbits`` call read as mixed-radix digits (a partial Lehmer
    code). With 64 spare bits the deviation from uniform is below 2**-64.
    """
    r = rng.getrandbits(6 * count + 64)
    deck = list(range(36))
    pop = deck.pop
    out = []
    append = out.append
    # The digits are read four at a time: one division of the big number by the product
    # of four radices, then four small ones (the same digits as one radix at a time).
    m = 36
    stop = 36 - count
    while m > stop:
        if m - 4 >= stop:
            r, chunk = divmod(r, _RADIX4[m])
            chunk, j = divmod(chunk, m)
            append(pop(j))
            chunk, j = divmod(chunk, m - 1)
            append(pop(j))
            j = chunk % (m - 2)
            append(pop(j))
            append(pop(chunk // (m - 2)))
            m -= 4
        else:
            r, j = divmod(r, m)
            append(pop(j))
            m -= 1
    return out


_RADIX4 = {m: m * (m - 1) * (m - 2) * (m - 3) for m in range(4, 37)}
