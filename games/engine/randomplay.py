"""Random legal play on the fast internal path (bots' playouts, property tests, benchmarks).

It drives the very same state objects, legality code (``_legal_mask``,
``_forbidden_bid``) and mutators (``_deal_indices``, ``_choose_trump``,
``_bid``, ``_play``) as the public ``apply``; it only skips building action
objects and re-checking choices that were drawn from the legal set.
"""

from __future__ import annotations

from . import classic, japanese
from .cards import NO_SUIT, X1, X2, random_indices
from .common import MODE_DISCARD, MODE_NONE, MODE_TAKE, Phase

# The set cards of every 12-bit chunk of a mask, low to high: the k-th legal card is found
# a chunk at a time instead of a bit at a time.
_CHUNK_CARDS = tuple(tuple(i for i in range(12) if v >> i & 1) for v in range(4096))

_PLAY = Phase.PLAY
_BID = Phase.BID
_TRUMP = Phase.TRUMP
_DEAL = Phase.DEAL
_OVER = Phase.GAME_OVER


def random_deal(state, rng) -> None:
    """Deal the next deal of ``state`` from a fresh random shuffle."""
    if state.variant == "classic":
        n = state.spec.cards
        cards = random_indices(rng, 36 if n == 9 else 4 * n + 1)
        hands, turned = classic.split_deck(cards, state.dealer, n)
        state._deal_indices(hands, -1 if turned is None else turned)
    else:
        hands, columns = japanese.split_deck(random_indices(rng, 36), state.declarer, pairs=tuple)
        state._deal_indices(hands, columns)


def play_random(state, rng, max_moves: int | None = None, until_deal: int | None = None) -> None:
    """Play uniformly random legal moves (and random deals) until the game is over.

    Stops early after ``max_moves`` moves or once ``state.deal_index`` reaches
    ``until_deal``. Jokers pick take/discard (classic) and a named suit (when
    leading) at random.
    """
    random = rng.random
    chunks = _CHUNK_CARDS
    x1, x2 = X1, X2
    play = state._play
    plain, none, take, discard = MODE_NONE, NO_SUIT, MODE_TAKE, MODE_DISCARD  # locals: read faster in the loop
    modes = state.variant == "classic"  # a classic joker is played to take or discard, a Japanese one just takes
    moves = 0
    limit = max_moves if max_moves is not None else -1
    stop = until_deal if until_deal is not None else 1 << 30
    while moves != limit:
        phase = state.phase
        if phase is _PLAY:
            mask = state._mask  # the legal cards of the seat to act, as _play keeps them
            count = mask.bit_count()
            if count > 1:  # a real choice: the k-th highest of the legal cards, the j-th lowest
                j = count - 1 - int(random() * count)
                low = mask & 4095
                n = low.bit_count()
                if j < n:
                    card = chunks[low][j]
                else:
                    j -= n
                    middle = (mask >> 12) & 4095
                    n = middle.bit_count()
                    card = 12 + chunks[middle][j] if j < n else 24 + chunks[mask >> 24][j - n]
            else:
                card = mask.bit_length() - 1
            if card == x1 or card == x2:
                mode = (take if random() < 0.5 else discard) if modes else plain
                play(state.to_act, card, mode, none if state._pos else int(random() * 4))
            else:
                play(state.to_act, card, plain, none)
        elif phase is _BID:
            n = state._cards
            forbidden = state._forbidden_bid()
            if forbidden < 0:
                bid = int(random() * (n + 1))
            else:
                bid = int(random() * n)
                if bid >= forbidden:
                    bid += 1
            state._bid(state.to_act, bid)
        elif phase is _DEAL:
            if state.deal_index >= stop:
                return
            random_deal(state, rng)
        elif phase is _TRUMP:
            state._choose_trump(state.to_act, int(random() * 5) - 1)
        else:
            return
        moves += 1
