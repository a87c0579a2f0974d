"""The bot's Japanese Joker player (see bot.py for the API and what the bot may see).

The follower's card alone decides a Japanese trick, so following is simple:
win the trick with the cheapest card that wins it, else throw the least useful
card. Leading, each available card is weighed by the chance the opponent
cannot beat it (their hand sampled from the unseen cards, their face-up column
cards known exactly), minus what the card would be worth later, plus what the
lead makes the opponent give up (a joker led naming a suit pulls their
highest card of that suit). A card's later worth is estimated from the cards
still out above it, the chance of being trumped and the jokers still out.
Playing a face-up column card is slightly preferred: it brings a new card
into the hand.
"""

from __future__ import annotations

from .actions import Play
from .bot_common import (
    ABOVE,
    FULL_DECK,
    INDEX,
    JOKERS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    X1,
    X2,
    binom_below,
    bits,
    suit_index,
)
from .bot_classic import legal_follow


def _beat_chance(legal: int, beat: int) -> float:
    """Chance the opponent takes the trick: half purposeful (always, when it can), half random."""
    if not beat:
        return 0.0
    return JP_RATIONAL + (1.0 - JP_RATIONAL) * beat.bit_count() / legal.bit_count()


JP_RATIONAL = 0.6


JP_ALPHA = 0.7
JP_BETA = 0.9
JP_GAMMA = 0.3
JP_SAMPLES = 24
# How much a card's later chance fades compared with playing it now (ruffs and jokers grow).
JP_DECAY = 0.9
# Worth of bringing a face-down card into the hand.
JP_COLUMN_BONUS = 0.04


class _JapaneseKnowledge:
    __slots__ = ("seat", "opp", "trump", "trump_mask", "played", "pool", "opp_up", "opp_hand", "opp_later", "q")

    def __init__(self, obs):
        self.seat = obs.seat
        self.opp = 1 - obs.seat
        trump = obs.trump if obs.trump is not None else -1
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        played = 0
        for _s, c, _m, _n in obs.plays:
            played |= 1 << c
        self.played = played
        self.opp_up = obs.face_up[self.opp]
        self.pool = FULL_DECK & ~obs.hand & ~obs.face_up[0] & ~obs.face_up[1] & ~played
        self.opp_hand = obs.hand_counts[self.opp]
        # Cards the opponent will hold at some point: hand now plus face-down cards to come.
        self.opp_later = self.opp_hand + obs.columns_left[self.opp]
        n_pool = self.pool.bit_count()
        self.q = min(1.0, self.opp_later / n_pool) if n_pool else 0.0

    def sample_opp_hand(self, rng) -> int:
        cards = bits(self.pool)
        rng.shuffle(cards)
        hand = 0
        for c in cards[: self.opp_hand]:
            hand |= 1 << c
        return hand


def _tie_break(card: int) -> float:
    """Among equal choices keep the jokers and the high cards."""
    return 1e-6 * (20 if card in (X1, X2) else RANK_OF[card])


def _japanese_future(cards: int, know: _JapaneseKnowledge, own: int, against_up: int, against_q: float) -> dict[int, float]:
    """Chance that each ordinary card of ``cards`` wins a trick later.

    ``own`` is every card its holder has (for the order its cards come out in),
    ``against_up`` the other side's known cards, ``against_q`` the chance an
    unseen card is the other side's.
    """
    pool = know.pool
    n_pool = pool.bit_count() or 1
    trump = know.trump
    trump_mask = know.trump_mask
    known_jokers = (against_up & JOKERS).bit_count()
    pool_jokers = (pool & JOKERS).bit_count()
    joker_keep = (1.0 - JP_GAMMA) ** known_jokers * (1.0 - JP_GAMMA * against_q) ** pool_jokers
    other_cards = int(round(against_q * n_pool))
    trumps_known = (against_up & trump_mask).bit_count()
    trumps_pool = (pool & trump_mask).bit_count()
    if trump < 0:
        has_trump = 0.0
    elif trumps_known:
        has_trump = 1.0
    else:
        has_trump = 1.0 - (1.0 - trumps_pool / n_pool) ** other_cards if trumps_pool else 0.0
    f = {}
    for c in bits(cards & ~JOKERS):
        suit = SUIT_OF[c]
        known_higher = (against_up & ABOVE[c]).bit_count()
        pool_higher = (pool & ABOVE[c]).bit_count()
        chance = (1.0 - JP_ALPHA) ** known_higher * (1.0 - JP_ALPHA * against_q) ** pool_higher
        if suit != trump and has_trump:
            round_no = (own & ABOVE[c]).bit_count() + 1
            known_suit = (against_up & SUIT_MASK[suit]).bit_count()
            need = round_no - known_suit
            if need > 0:
                void = binom_below(other_cards, (pool & SUIT_MASK[suit]).bit_count() / n_pool, need)
                chance *= 1.0 - JP_BETA * void * has_trump
        f[c] = chance * joker_keep
    return f


def choose_play(obs, rng):
    know = _JapaneseKnowledge(obs)
    seat, opp = obs.seat, know.opp
    trump, trump_mask = know.trump, know.trump_mask
    mine = obs.hand | obs.face_up[seat]
    # What the opponent can see of us: our face-up cards; the rest of ours is unseen to them.
    future = _japanese_future(mine, know, mine, know.opp_up, know.q)
    n_plays = len(obs.plays)
    leading = n_plays % 2 == 0
    own_up = obs.face_up[seat]
    best = None
    if not leading:
        lead_seat, lead_card, _m, named = obs.plays[-1]
        for order, action in enumerate(obs.legal):
            card = INDEX[action.card]
            win = _japanese_follower_wins(lead_card, named, card, trump)
            worth = 1.0 if card in (X1, X2) else future.get(card, 0.0) * JP_DECAY
            v = (1.0 if win else 0.0) - worth + _column_bonus(card, own_up, obs.columns_left[seat])
            v -= _tie_break(card)
            if best is None or v > best[0]:
                best = (v, action)
        return best[1]
    opp_first_done = obs.first_card_played[opp]
    opp_up = know.opp_up
    samples = [know.sample_opp_hand(rng) for _ in range(JP_SAMPLES)]
    # What the opponent's cards are worth later (from their side), for what a lead makes them give up.
    opp_future_cache: dict[int, dict[int, float]] = {}
    my_q = 1.0 - know.q
    for order, action in enumerate(obs.legal):
        card = INDEX[action.card]
        named = suit_index(action.suit)
        lead_suit = named if card in (X1, X2) else SUIT_OF[card]
        total_win = 0.0
        total_cost = 0.0
        for hand in samples:
            avail = hand | opp_up if opp_first_done else hand
            legal = legal_follow(avail, lead_suit, card in (X1, X2), trump_mask)
            beat = 0
            for c in bits(legal):
                if _japanese_follower_wins(card, named, c, trump):
                    beat |= 1 << c
            p_beat = _beat_chance(legal, beat)
            # Their answer: the cheapest winner when they beat, else their least useful card.
            fut = opp_future_cache.get(hand)
            if fut is None:
                fut = _japanese_future(avail, know, avail | hand, mine, my_q)
                opp_future_cache[hand] = fut
            give = 0.0
            if beat:
                give += p_beat * min(_opp_worth(c, fut) for c in bits(beat))
            losers = legal & ~beat
            if losers:
                give += (1.0 - p_beat) * min(_opp_worth(c, fut) for c in bits(losers))
            total_win += 1.0 - p_beat
            total_cost += give
        p_win = total_win / len(samples)
        taken_from_them = total_cost / len(samples)
        worth = 1.0 if card in (X1, X2) else future.get(card, 0.0) * JP_DECAY
        v = p_win - worth + taken_from_them + _column_bonus(card, own_up, obs.columns_left[seat])
        v -= _tie_break(card)
        if best is None or v > best[0]:
            best = (v, action)
    return best[1]


def _opp_worth(card: int, fut: dict[int, float]) -> float:
    if card == X1 or card == X2:
        return 1.0
    return fut.get(card, 0.0)


def _column_bonus(card: int, own_up: int, columns_left: int) -> float:
    if not own_up >> card & 1:
        return 0.0
    return JP_COLUMN_BONUS * (3 if columns_left == 2 else 1)


def _japanese_follower_wins(lead: int, named: int, follow: int, trump: int) -> bool:
    """rules.md 3.4."""
    if follow == X1 or follow == X2:
        return True
    follow_suit = SUIT_OF[follow]
    if lead == X1 or lead == X2:
        return trump >= 0 and named != trump and follow_suit == trump
    lead_suit = SUIT_OF[lead]
    if follow_suit == trump and lead_suit != trump:
        return True
    return follow_suit == lead_suit and follow > lead
