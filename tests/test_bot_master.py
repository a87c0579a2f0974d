"""The master's samples fit the opponents' bids (bot_classic.deal_sampler): an opponent who bid
many tricks is dealt strong hands in its samples, one who bid none weak ones; the club's
samples ignore the bids."""

import random
import statistics

from games.engine import Bid, ClassicState, Phase, deal_from_deck, shuffled_deck
from games.engine.bot import MASTER_SEARCH, observe
from games.engine.bot_classic import CLUB_SEARCH, ClassicKnowledge, deal_sampler, quick_bid


def _nine_card_bid(first_bid: int, seed: int = 4):
    """A nines deal where the first seat to bid has bid ``first_bid``; the observation of the next bidder."""
    state = ClassicState({"game_type": "nines", "first_dealer": 0})
    deal_from_deck(state, shuffled_deck(random.Random(seed)))
    if state.phase is Phase.TRUMP:
        state.apply(state.legal_actions(state.to_act)[0])
    bidder = state.to_act
    state.apply(Bid(bidder, first_bid))
    return observe(state, state.to_act), bidder


def _mean_strength(obs, bidder, search, draws=300):
    know = ClassicKnowledge(obs)
    draw = deal_sampler(obs, know, search, random.Random(1))
    return statistics.fmean(quick_bid(draw()[bidder], know.trump, obs.cards) for _ in range(draws))


def test_the_masters_samples_give_a_high_bidder_strong_hands_and_a_zero_bidder_weak_ones():
    high, bidder = _nine_card_bid(6)
    low, _ = _nine_card_bid(0)
    assert high.phase == "bid" and high.bids[bidder] == 6 and low.bids[bidder] == 0
    strong = _mean_strength(high, bidder, MASTER_SEARCH)
    weak = _mean_strength(low, bidder, MASTER_SEARCH)
    assert strong > weak + 0.5


def test_the_clubs_samples_ignore_the_bids():
    high, bidder = _nine_card_bid(6)
    low, _ = _nine_card_bid(0)
    assert _mean_strength(high, bidder, CLUB_SEARCH) == _mean_strength(low, bidder, CLUB_SEARCH)
