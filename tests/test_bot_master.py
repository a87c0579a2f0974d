"""The master's samples fit the opponents' bids (bot_classic.deal_sampler): an opponent who bid
many tricks is dealt strong hands in its samples, one who bid none weak ones; the club's
samples ignore the bids. In Japanese the master's playouts answer a joker led with the other
joker and lead none into it; the club's do neither."""

import random
import statistics

from games.engine import Bid, ClassicState, Phase, bot_japanese, deal_from_deck, shuffled_deck
from games.engine.bot import MASTER_JAPANESE_SEARCH, MASTER_SEARCH, observe
from games.engine.bot_classic import CLUB_SEARCH, ClassicKnowledge, deal_sampler, quick_bid
from games.engine.rules import CARD_INDEX, CARD_NAMES, SUIT_MASK, SUITS


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


def _japanese_table(hands):
    """Two Japanese players holding ``hands`` (card names), no columns left, first cards played."""
    masks = [sum(1 << CARD_INDEX[name] for name in hand) for hand in hands]
    return bot_japanese._Table(masks, [[], []], [True, True])


def test_the_masters_japanese_playouts_answer_a_joker_led_with_the_other_joker():
    table = _japanese_table([["X1", "7S"], ["X2", "AS", "6H"]])
    led = CARD_INDEX["X1"], SUITS.index("S")
    trump = SUITS.index("H")
    mask = SUIT_MASK[trump]
    wise = bot_japanese._policy_follow(table, 1, *led, trump, mask, MASTER_JAPANESE_SEARCH.joker_wise)
    plain = bot_japanese._policy_follow(table, 1, *led, trump, mask, CLUB_SEARCH.joker_wise)
    assert CARD_NAMES[wise] == "X2"  # a following joker takes the leading one
    assert CARD_NAMES[plain] == "AS"  # the club's players give up their highest spade to it


def test_the_masters_japanese_playouts_lead_no_joker_into_the_other_one():
    trump = SUITS.index("H")
    mask = SUIT_MASK[trump]
    facing_a_joker = _japanese_table([["X1", "7S", "8D"], ["X2", "AS", "6H"]])
    card, _named = bot_japanese._policy_lead(facing_a_joker, 0, trump, mask, MASTER_JAPANESE_SEARCH.joker_wise)
    assert CARD_NAMES[card] in ("7S", "8D")
    card, _named = bot_japanese._policy_lead(facing_a_joker, 0, trump, mask, CLUB_SEARCH.joker_wise)
    assert CARD_NAMES[card] == "X1"
    no_joker_facing = _japanese_table([["X1", "7S", "8D"], ["KS", "AS", "6H"]])
    card, named = bot_japanese._policy_lead(no_joker_facing, 0, trump, mask, MASTER_JAPANESE_SEARCH.joker_wise)
    assert CARD_NAMES[card] == "X1" and named == trump  # nothing of ours is safe and no joker waits: it leads, drawing a trump
