"""The beginner level of the bot: plays like a person learning the game (see bot.py for the API).

No playouts: a handful of rules a learner uses, from the same observation the club
bot gets (the seat's view alone), with the mistakes learners make:

* **over-bids** — it counts its jokers, aces and high trumps, and often adds one
  more trick out of hope (``OVERBID_CHANCE``);
* **wastes a joker** — wanting a trick it often leads a joker as take at once
  (``JOKER_LEAD_CHANCE``), and following it throws a joker in whenever its other
  cards cannot win the trick as it lies, even when a later player could have been
  left to take it;
* **forgets what was played** — it looks only at the trick on the table, never at
  the cards gone in earlier tricks, and does not think of the players still to
  play (an overtrump); now and then it plays any legal card (``SLIP_CHANCE``);
* it plays high to win (its highest winning card, not the cheapest) and, not
  wanting a trick, throws its highest card that loses to the one on the table.

Every choice is one of the observation's legal actions; it is fast (well under a
millisecond of work a decision).
"""

from __future__ import annotations

from .actions import Bid, Play
from .bot_common import bits, highest_rank, lowest_rank, suit_index
from .rules import (
    CARD_INDEX,
    GOLDEN,
    JOKER_MASK,
    LED_STRENGTH,
    MISERE,
    MODE_OF,
    MODE_TAKE,
    RANK_OF,
    STRENGTH,
    SUIT_MASK,
    SUIT_OF,
    TAKE_AT,
    X1,
    X2,
    japanese_follower_wins,
)

OVERBID_CHANCE = 0.4
JOKER_LEAD_CHANCE = 0.5
SLIP_CHANCE = 0.12

# What a learner counts as a trick: a joker, an ace, a high trump.
_SIDE_VALUE = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 1.0)  # 6 7 8 9 T J Q K A
_TRUMP_VALUE = (0.0, 0.0, 0.0, 0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def _plays_in_legal(legal) -> dict:
    """The legal plays by (card index, joker mode, named suit)."""
    return {(CARD_INDEX[a.card], MODE_OF[a.joker], suit_index(a.suit)): a for a in legal}


def _current_trick(obs, seats: int) -> list:
    n = len(obs.plays) % seats
    return list(obs.plays[len(obs.plays) - n :]) if n else []


# --- classic -----------------------------------------------------------------------------------


def classic_bid(obs, rng) -> Bid:
    legal = [a.n for a in obs.legal]
    n = obs.cards
    trump = obs.trump if obs.trump is not None else -1
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    if obs.hand == 0:  # the dark pulka: nothing seen yet, a learner hopes for a couple
        target = max(1, n // 4 + (1 if rng.random() < OVERBID_CHANCE else 0))
    else:
        est = (obs.hand & JOKER_MASK).bit_count()
        for c in bits(obs.hand & ~JOKER_MASK):
            est += _TRUMP_VALUE[RANK_OF[c]] if trump_mask >> c & 1 else _SIDE_VALUE[RANK_OF[c]]
        target = int(est + 0.5)
        if rng.random() < OVERBID_CHANCE:
            target += 1
    target = min(target, n)
    # The nearest legal bid, the higher one on a tie: a learner would rather hope.
    best = min(legal, key=lambda b: (abs(b - target), -b))
    return Bid(obs.seat, best)


def _wants_trick(obs) -> bool:
    if obs.kind == GOLDEN:
        return True
    if obs.kind == MISERE:
        return False
    bid = obs.bids[obs.seat]
    return bid is not None and obs.taken[obs.seat] < bid


def _hand_at_a_glance(obs):
    """(legal plays by key, the ordinary cards among them as a mask, a joker among them?, trump, trump mask)."""
    by_key = _plays_in_legal(obs.legal)
    plain = 0
    for card, _mode, _named in by_key:
        if card != X1 and card != X2:
            plain |= 1 << card
    has_joker = any(card in (X1, X2) for card, _m, _n in by_key)
    trump = obs.trump if obs.trump is not None else -1
    return by_key, plain, has_joker, trump, SUIT_MASK[trump] if trump >= 0 else 0


def _slip(obs, rng):
    """Now and then any legal move (a learner's slip), else None."""
    if rng.random() < SLIP_CHANCE:
        return obs.legal[int(rng.random() * len(obs.legal))]
    return None


def classic_play(obs, rng) -> Play:
    slip = _slip(obs, rng)
    if slip is not None:
        return slip
    by_key, plain, has_joker, trump, trump_mask = _hand_at_a_glance(obs)
    want = _wants_trick(obs)
    trick = _current_trick(obs, 4)
    if not trick:
        if want:
            if has_joker and (not plain or rng.random() < JOKER_LEAD_CHANCE):
                # Lead a joker as take, naming the suit of its best other card (or trump).
                named = SUIT_OF[highest_rank(plain, trump_mask)] if plain else max(trump, 0)
                return _joker(by_key, MODE_TAKE, named)
            return by_key[(highest_rank(plain, trump_mask), 0, -1)]
        if plain:
            return by_key[(lowest_rank(plain, trump_mask), 0, -1)]
        return _joker(by_key, 2, 0)
    # Following: only the trick as it lies counts.
    _s, lead, _lead_mode, named = trick[0]
    led = named if lead in (X1, X2) else SUIT_OF[lead]
    row = STRENGTH[trump + 1][led]
    best = -1
    for position, (_seat, card, mode, _n) in enumerate(trick):
        strength = (TAKE_AT[position] if mode == MODE_TAKE else -1) if card in (X1, X2) else row[card]
        best = max(best, strength)
    winners = [c for c in bits(plain) if row[c] > best]
    losers = [c for c in bits(plain) if row[c] <= best]
    if want:
        if winners:
            return by_key[(max(winners, key=lambda c: row[c]), 0, -1)]
        if has_joker:
            return _joker(by_key, MODE_TAKE, -1)
        return by_key[(lowest_rank(plain, trump_mask), 0, -1)]
    if losers:
        return by_key[(max(losers, key=lambda c: (row[c] >= LED_STRENGTH, RANK_OF[c])), 0, -1)]
    if has_joker:
        return _joker(by_key, 2, -1)
    return by_key[(min(winners, key=lambda c: row[c]), 0, -1)]


def _joker(by_key, mode: int, named: int):
    for card in (X1, X2):
        action = by_key.get((card, mode, named))
        if action is not None:
            return action
    raise LookupError("no such joker play among the legal actions")


# --- Japanese ----------------------------------------------------------------------------------


def japanese_play(obs, rng) -> Play:
    slip = _slip(obs, rng)
    if slip is not None:
        return slip
    by_key, plain, has_joker, trump, trump_mask = _hand_at_a_glance(obs)
    trick = _current_trick(obs, 2)
    if not trick:
        if has_joker and (not plain or rng.random() < JOKER_LEAD_CHANCE):
            named = SUIT_OF[highest_rank(plain, trump_mask)] if plain else max(trump, 0)
            return _joker(by_key, 0, named)
        return by_key[(highest_rank(plain, trump_mask), 0, -1)]
    _s, lead, _m, named = trick[0]
    winners = [c for c in bits(plain) if japanese_follower_wins(lead, named, c, trump)]
    if winners:
        return by_key[(max(winners, key=lambda c: RANK_OF[c]), 0, -1)]
    if has_joker:
        return _joker(by_key, 0, -1)
    return by_key[(lowest_rank(plain, trump_mask), 0, -1)]
