"""Classic Joker, rules.md sections 1 and 2.1-2.6: one test per rule, named after it."""

import functools
import itertools
import operator

import pytest

from games.engine import Bid, ChooseTrump, ClassicState, IllegalAction, InvalidDeal, Phase, Play, to_record
from games.engine.cards import CARD_NAMES, SUIT_OF
from games.engine.classic import GAME_TYPES, PLANS
from games.engine.scenario import advance_to_deal, classic_cards

# --- helpers ------------------------------------------------------------------------------------

SPECIAL_PULKA_START = {"golden": 24, "no_trump": 28, "dark": 32, "misere": 36}


def start(cards=3, dealer=3, game_type="standard", deal_index=None, **options):
    """A classic state waiting for a deal of ``cards`` cards dealt by ``dealer``."""
    if deal_index is None:
        deal_index = cards - 1 if cards < 9 else 8
    state = ClassicState({"game_type": game_type, "first_dealer": (dealer - deal_index) % 4, **options})
    advance_to_deal(state, deal_index)
    assert state.dealer == dealer and state.spec.cards == cards
    return state


def deal(state, hands=None, trump_card=None):
    state.deal(**classic_cards(state, hands, trump_card))
    return state


def bids(state, *numbers):
    for n in numbers:
        state.apply(Bid(state.to_act, n))


def plays(state, *cards):
    """Play cards in turn; a card is "AS" or a tuple ("X1", "take"[, "H"])."""
    for card in cards:
        if isinstance(card, tuple):
            state.apply(Play(state.to_act, *card))
        else:
            state.apply(Play(state.to_act, card))


def refused(state, action, code):
    """Assert ``action`` is refused with ``code`` and the state did not change."""
    before = (to_record(state), state.view(None), list(state.hands), state.to_act)
    assert not state.is_legal(action)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.code == code, info.value
    assert (to_record(state), state.view(None), list(state.hands), state.to_act) == before
    return info.value


def cards_of(actions):
    return sorted({a.card for a in actions})


# A 3-card deal dealt by seat 3 with diamonds trump: seat 0 bids and leads first.
THREE = {
    0: ["AS", "7C", "8H"],
    1: ["KS", "9S", "QH"],
    2: ["JC", "TH", "7D"],
    3: ["QS", "8D", "9H"],
}


def three_card_deal(hands=THREE, trump_card="6D", bid_list=(0, 0, 0, 1)):
    state = deal(start(3, dealer=3), hands, trump_card)
    bids(state, *bid_list)
    return state


# --- 1. cards -----------------------------------------------------------------------------------


def test_deck_has_36_cards_two_jokers_replace_the_black_sixes():
    assert len(CARD_NAMES) == 36 == len(set(CARD_NAMES))
    assert "6S" not in CARD_NAMES and "6C" not in CARD_NAMES
    assert {"X1", "X2", "6D", "6H"} <= set(CARD_NAMES)
    assert sum(1 for c in CARD_NAMES if SUIT_OF[CARD_NAMES.index(c)] == -1) == 2


def test_rank_order_inside_a_suit_is_ace_king_queen_jack_ten_down_to_six():
    order = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"]
    for high, low in itertools.pairwise(order):
        state = deal(start(1, dealer=3), {0: [low], 1: [high]}, trump_card="X1")
        bids(state, 0, 0, 0, 0)
        plays(state, low, high)
        plays(state, *[state.hand(s)[0] for s in (2, 3)])
        assert state.results[-1].tricks[1] == 1, (high, low)


def test_the_two_jokers_are_interchangeable_in_play():
    outcomes = []
    for joker in ("X1", "X2"):
        state = deal(start(2, dealer=3), {0: ["AH", "7C"], 1: [joker, "8C"], 2: ["KH", "9C"], 3: ["QH", "TC"]}, "7S")
        bids(state, 0, 0, 0, 0)
        plays(state, "AH", (joker, "take"), "KH", "QH")
        outcomes.append((state.taken[:], state.to_act))
    assert outcomes[0] == outcomes[1] == ([0, 1, 0, 0], 1)


# --- 2.1 seats, deals and pulkas ----------------------------------------------------------------


@pytest.mark.parametrize(
    "game_type, sizes",
    [
        ("standard", [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9]),
        ("nines", [9] * 16),
        ("short", [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]),
        ("full", [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9] + [9] * 16),
    ],
)
def test_game_type_gives_its_deal_sizes_pulka_by_pulka(game_type, sizes):
    assert [spec.cards for spec in PLANS[game_type]] == sizes
    assert len(GAME_TYPES[game_type]) == {"standard": 4, "nines": 4, "short": 2, "full": 8}[game_type]


def test_full_game_extra_pulkas_are_golden_no_trump_dark_misere_in_that_order():
    kinds = [spec.kind for spec in PLANS["full"]]
    assert kinds[:24] == ["normal"] * 24
    assert kinds[24:] == ["golden"] * 4 + ["no_trump"] * 4 + ["dark"] * 4 + ["misere"] * 4


def test_standard_is_the_default_game_type():
    assert ClassicState().options.game_type == "standard"


def test_first_dealer_is_an_option_and_dealer_moves_one_seat_clockwise_every_deal():
    state = ClassicState({"game_type": "short", "first_dealer": 2})
    dealers = []
    while state.deal_index < 6:
        dealers.append(state.dealer)
        advance_to_deal(state, state.deal_index + 1, seed=state.deal_index)
    assert dealers == [2, 3, 0, 1, 2, 3]


def test_left_of_a_seat_is_the_next_seat_clockwise_so_left_of_dealer_bids_first():
    for dealer in range(4):
        state = deal(start(2, dealer=dealer))
        assert state.phase is Phase.BID and state.to_act == (dealer + 1) % 4


def test_classic_deal_needs_four_hands_of_the_deal_size():
    state = start(2)
    with pytest.raises(InvalidDeal) as info:
        state.deal([["AS", "KS"]] * 3, "QS")
    assert info.value.code == "wrong_hand_count"
    args = classic_cards(state)
    args["hands"][2] = args["hands"][2][:1]
    with pytest.raises(InvalidDeal) as info:
        state.deal(**args)
    assert info.value.code == "wrong_hand_size"
    assert state.phase is Phase.DEAL


def test_a_deal_refuses_unknown_and_repeated_cards():
    state = start(2)
    args = classic_cards(state)
    for bad, code in (("6S", "unknown_card"), ("ZZ", "unknown_card"), (args["hands"][0][0], "duplicate_card")):
        broken = classic_cards(state)
        broken["hands"][3][1] = bad
        with pytest.raises(InvalidDeal) as info:
            state.deal(**broken)
        assert info.value.code == code
    broken = classic_cards(state)
    broken["trump_card"] = broken["hands"][1][0]
    with pytest.raises(InvalidDeal) as info:
        state.deal(**broken)
    assert info.value.code == "duplicate_card"
    assert state.phase is Phase.DEAL and state.to_act is None


def test_no_second_deal_while_a_deal_is_being_played():
    state = deal(start(2))
    with pytest.raises(InvalidDeal) as info:
        state.deal(**classic_cards(start(2)))
    assert info.value.code == "deal_not_expected"


# --- 2.2 trump ----------------------------------------------------------------------------------


def test_turned_card_suit_is_trump_in_deals_of_one_to_eight_cards():
    for cards in range(1, 9):
        state = deal(start(cards), trump_card="9H")
        assert state.trump == "H" and state.trump_card == "9H"
        assert state.view(0)["trump"] == "H" and state.view(None)["trump_card"] == "9H"


def test_turned_joker_means_the_deal_has_no_trump():
    state = deal(start(3), trump_card="X2")
    assert state.trump == "none" and state.phase is Phase.BID


def test_deals_of_one_to_eight_cards_need_a_turned_card_and_nine_card_deals_have_none():
    state = start(3)
    args = classic_cards(state)
    with pytest.raises(InvalidDeal) as info:
        state.deal(args["hands"], None)
    assert info.value.code == "trump_card_missing"
    nine = start(9)
    args = classic_cards(nine)
    with pytest.raises(InvalidDeal) as info:
        nine.deal(args["hands"][:3] + [args["hands"][3][:8]], args["hands"][3][8])
    assert info.value.code == "wrong_hand_size"
    with pytest.raises(InvalidDeal) as info:
        nine.deal(args["hands"], "AS")
    assert info.value.code in ("trump_card_not_allowed", "duplicate_card")


def test_the_turned_card_belongs_to_nobody():
    state = deal(start(2, dealer=3), {0: ["AS", "KS"]}, trump_card="QS")
    bids(state, 0, 0, 0, 1)
    refused(state, Play(0, "QS"), "card_not_available")
    assert "QS" not in functools.reduce(operator.iadd, (state.hand(s) for s in range(4)), [])


def test_nine_card_deal_player_left_of_dealer_names_trump_after_seeing_three_cards():
    state = deal(start(9, dealer=1), {2: ["AH", "KH", "7C"]})
    assert state.phase is Phase.TRUMP and state.to_act == 2 and state.trump_chooser == 2
    assert state.trump is None
    for seat in range(4):
        view = state.view(seat)
        assert len(view["hand"]) == 3 and view["hand_counts"] == [3, 3, 3, 3]
    assert sorted(state.view(2)["hand"]) == sorted(["AH", "KH", "7C"])
    assert [a.to_record() for a in state.legal_actions(2)] == [
        {"seat": 2, "trump": t} for t in ("S", "C", "D", "H", "none")
    ]
    refused(state, ChooseTrump(3, "H"), "not_your_turn")
    refused(state, Bid(2, 3), "wrong_phase")
    refused(state, ChooseTrump(2, "X"), "invalid_trump")
    state.apply(ChooseTrump(2, "H"))
    assert state.trump == "H" and state.phase is Phase.BID and state.to_act == 2
    assert len(state.view(0)["hand"]) == 9


def test_nine_card_trump_choice_may_be_no_trump():
    state = deal(start(9, dealer=1))
    state.apply(ChooseTrump(2, None))
    assert state.trump == "none"
    assert state.view(None)["trump"] == "none"


def test_no_trump_pulka_has_no_trump_and_nobody_names_one():
    state = ClassicState({"game_type": "full"})
    advance_to_deal(state, SPECIAL_PULKA_START["no_trump"])
    deal(state)
    assert state.trump == "none" and state.trump_chooser is None
    assert state.phase is Phase.BID and state.to_act == (state.dealer + 1) % 4
    refused(state, ChooseTrump(state.to_act, "H"), "wrong_phase")


def test_trump_is_shown_on_the_table_for_the_whole_deal():
    state = three_card_deal()
    for _ in range(3):
        assert all(state.view(s)["trump"] == "D" for s in (0, 1, 2, 3, None))
        plays(state, *[state.legal_actions(state.to_act)[0].card for _ in range(1)])


# --- 2.3 bidding --------------------------------------------------------------------------------


def test_bids_range_from_zero_to_the_number_of_cards_in_the_deal():
    state = deal(start(3, dealer=3))
    assert [a.n for a in state.legal_actions(0)] == [0, 1, 2, 3]
    refused(state, Bid(0, 4), "bid_out_of_range")
    refused(state, Bid(0, -1), "bid_out_of_range")
    refused(state, Bid(0, True), "bid_out_of_range")


def test_bidding_starts_left_of_the_dealer_goes_clockwise_and_the_dealer_bids_last():
    state = deal(start(4, dealer=1))
    order = []
    while state.phase is Phase.BID:
        order.append(state.to_act)
        refused(state, Bid((state.to_act + 1) % 4, 0), "not_your_turn")
        state.apply(Bid(state.to_act, 2))
    assert order == [2, 3, 0, 1]
    assert state.bids == [2, 2, 2, 2]


def test_all_bids_are_public():
    state = deal(start(4, dealer=1))
    bids(state, 2, 0)
    for seat in (0, 1, 2, 3, None):
        assert state.view(seat)["bids"] == [None, None, 2, 0]


def test_dealer_may_not_bid_the_number_that_makes_bids_sum_to_tricks():
    state = deal(start(9, dealer=3))
    state.apply(ChooseTrump(0, "S"))
    bids(state, 2, 2, 3)
    assert state.forbidden_bid == 2 and state.view(1)["forbidden_bid"] == 2
    assert 2 not in [a.n for a in state.legal_actions(3)]
    error = refused(state, Bid(3, 2), "forbidden_bid")
    assert error.params == {"bid": 2}
    state.apply(Bid(3, 3))
    assert sum(state.bids) != 9


def test_dealer_forbidden_number_is_zero_when_the_first_three_bids_sum_to_tricks():
    state = deal(start(3, dealer=3))
    bids(state, 1, 1, 1)
    assert state.forbidden_bid == 0
    refused(state, Bid(3, 0), "forbidden_bid")


def test_nothing_is_forbidden_when_the_first_three_bids_add_up_to_more_than_the_tricks():
    state = deal(start(3, dealer=3))
    bids(state, 2, 1, 1)
    assert state.forbidden_bid is None
    assert [a.n for a in state.legal_actions(3)] == [0, 1, 2, 3]


def test_only_the_dealer_has_a_forbidden_number():
    state = deal(start(3, dealer=3))
    bids(state, 3)
    assert state.forbidden_bid is None and [a.n for a in state.legal_actions(1)] == [0, 1, 2, 3]


def test_dark_pulka_bids_come_before_any_card_is_seen_then_trump_then_play():
    state = ClassicState({"game_type": "full"})
    advance_to_deal(state, SPECIAL_PULKA_START["dark"])
    deal(state)
    first = (state.dealer + 1) % 4
    assert state.phase is Phase.BID and state.trump is None and state.to_act == first
    for seat in range(4):
        view = state.view(seat)
        assert view["hand"] == [] and view["hand_counts"] == [0, 0, 0, 0]
    refused(state, ChooseTrump(first, "H"), "wrong_phase")
    bids(state, 1, 2, 3)
    assert state.forbidden_bid == 3  # the dealer's forbidden number still applies
    refused(state, Bid(state.to_act, 3), "forbidden_bid")
    state.apply(Bid(state.to_act, 0))
    assert state.phase is Phase.TRUMP and state.to_act == first
    assert len(state.view(first)["hand"]) == 3
    refused(state, Play(first, state.hand(first)[0]), "wrong_phase")
    state.apply(ChooseTrump(first, "C"))
    assert state.phase is Phase.PLAY and state.to_act == first and state.trump == "C"
    assert len(state.view(first)["hand"]) == 9


@pytest.mark.parametrize("pulka", ["golden", "misere"])
def test_golden_and_misere_pulkas_have_no_bidding(pulka):
    state = ClassicState({"game_type": "full"})
    advance_to_deal(state, SPECIAL_PULKA_START[pulka])
    deal(state)
    first = (state.dealer + 1) % 4
    assert state.phase is Phase.TRUMP and state.to_act == first
    refused(state, Bid(first, 1), "wrong_phase")
    state.apply(ChooseTrump(first, "H"))
    assert state.phase is Phase.PLAY and state.to_act == first
    refused(state, Bid(first, 1), "wrong_phase")


# --- 2.4 play -----------------------------------------------------------------------------------


def test_player_left_of_the_dealer_leads_the_first_trick():
    state = deal(start(3, dealer=2))
    bids(state, 0, 0, 0, 1)
    assert state.phase is Phase.PLAY and state.to_act == 3 and state.leader == 3


def test_the_winner_of_a_trick_leads_the_next_and_play_goes_clockwise():
    state = three_card_deal()
    order = []
    for _ in range(4):
        order.append(state.to_act)
        plays(state, state.legal_actions(state.to_act)[0].card)
    assert order == [0, 1, 2, 3]
    winner = state.last_trick[1]
    assert state.to_act == winner == state.leader


def test_the_leader_may_lead_any_card():
    state = three_card_deal()
    assert cards_of(state.legal_actions(0)) == sorted(THREE[0])


def test_a_joker_is_always_legal_for_a_follower():
    hands = {0: ["AS", "7C", "8H"], 1: ["KS", "X1", "QH"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, "AS")
    assert cards_of(state.legal_actions(1)) == ["KS", "X1"]
    assert {(a.joker, a.suit) for a in state.legal_actions(1) if a.card == "X1"} == {("take", None), ("discard", None)}


def test_follower_holding_the_led_suit_must_play_a_card_of_it_any_card_of_it():
    state = three_card_deal()
    plays(state, "AS")
    assert cards_of(state.legal_actions(1)) == ["9S", "KS"]
    error = refused(state, Play(1, "QH"), "must_follow_suit")
    assert error.params == {"suit": "S"}
    plays(state, "9S")  # not obliged to play the king


def test_follower_without_the_led_suit_holding_a_trump_must_trump_with_any_trump():
    hands = {0: ["AH", "7C", "8S"], 1: ["KS", "9D", "QD"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, "AH")
    assert cards_of(state.legal_actions(1)) == ["9D", "QD"]
    refused(state, Play(1, "KS"), "must_trump")
    plays(state, "9D")
    plays(state, "TH")
    assert cards_of(state.legal_actions(3)) == ["9H"]


def test_follower_with_neither_led_suit_nor_trump_may_play_any_card():
    hands = {0: ["AH", "7C", "8S"], 1: ["KS", "9C", "QC"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, "AH")
    assert cards_of(state.legal_actions(1)) == sorted(["KS", "9C", "QC"])


def test_nobody_is_ever_obliged_to_beat_the_card_on_the_table():
    hands = {0: ["TH", "7C", "8S"], 1: ["AH", "6H", "QC"], 2: ["JC", "TS", "7S"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, "TH")
    assert "6H" in cards_of(state.legal_actions(1))
    plays(state, "6H", "TS", "9H")
    assert state.last_trick[1] == 0


def test_a_card_of_another_suit_that_is_neither_trump_nor_led_never_wins():
    hands = {0: ["6H", "7C", "8S"], 1: ["AS", "9C", "QC"], 2: ["AC", "TS", "7S"], 3: ["KC", "8C", "9C"]}
    hands[3] = ["KC", "8C", "JC"]
    state = three_card_deal(hands)
    plays(state, "6H", "AS", "AC", "KC")
    assert state.last_trick[1] == 0


def test_highest_trump_wins_over_higher_cards_of_the_led_suit():
    hands = {0: ["AH", "7C", "8S"], 1: ["KS", "9D", "QC"], 2: ["JC", "TS", "QD"], 3: ["QS", "8C", "9H"]}
    state = three_card_deal(hands)
    plays(state, "AH", "9D", "QD", "9H")
    assert state.last_trick[1] == 2


def test_a_card_must_be_in_the_players_hand():
    state = three_card_deal()
    refused(state, Play(0, "KS"), "card_not_available")
    refused(state, Play(0, "ZZ"), "unknown_card")
    refused(state, Play(1, "KS"), "not_your_turn")
    refused(state, Bid(0, 1), "wrong_phase")
    refused(state, ChooseTrump(0, "H"), "wrong_phase")
    refused(state, Play(True, "AS"), "not_your_turn")


def test_an_ordinary_card_carries_no_joker_mode_or_suit():
    state = three_card_deal()
    refused(state, Play(0, "AS", "take"), "joker_fields_on_card")
    refused(state, Play(0, "AS", None, "H"), "joker_fields_on_card")


# --- 2.5 the joker -------------------------------------------------------------------------------

JOKER_HANDS = {
    0: ["AD", "7C", "8S"],
    1: ["X1", "9C", "QH"],
    2: ["KD", "TS", "7H"],
    3: ["QD", "8C", "X2"],
}


def test_a_joker_is_played_as_take_or_discard():
    state = three_card_deal(JOKER_HANDS)
    plays(state, "AD")
    refused(state, Play(1, "X1"), "joker_needs_mode")
    refused(state, Play(1, "X1", "high"), "invalid_joker_mode")
    refused(state, Play(1, "X1", "take", "H"), "joker_suit_only_when_leading")


def test_joker_played_as_take_on_a_trick_beats_the_ace_of_trump():
    state = three_card_deal(JOKER_HANDS)
    plays(state, "AD", ("X1", "take"), "KD", "QD")
    assert state.last_trick[1] == 1


def test_a_later_joker_played_as_take_beats_an_earlier_take():
    state = three_card_deal(JOKER_HANDS)
    plays(state, "AD", ("X1", "take"), "KD", ("X2", "take"))
    assert state.last_trick[1] == 3


def test_joker_played_as_take_beats_a_later_joker_played_as_discard():
    state = three_card_deal(JOKER_HANDS)
    plays(state, "AD", ("X1", "take"), "KD", ("X2", "discard"))
    assert state.last_trick[1] == 1


def test_joker_played_as_discard_never_wins_the_trick_is_decided_among_the_others():
    state = three_card_deal(JOKER_HANDS)
    plays(state, "AD", ("X1", "discard"), "KD", "QD")
    assert state.last_trick[1] == 0


def test_leading_joker_names_a_suit_that_counts_as_the_led_suit():
    hands = {0: ["X1", "7C", "8S"], 1: ["KS", "9S", "QH"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    refused(state, Play(0, "X1", "discard"), "joker_needs_suit")
    refused(state, Play(0, "X1", "discard", "Z"), "invalid_suit")
    lead_variants = [(a.joker, a.suit) for a in state.legal_actions(0) if a.card == "X1"]
    assert sorted(lead_variants) == sorted((m, s) for m in ("take", "discard") for s in "SCDH")
    plays(state, ("X1", "discard", "S"))
    assert cards_of(state.legal_actions(1)) == ["9S", "KS"]
    assert state.view(None)["trick"] == [{"seat": 0, "play": "X1", "joker": "discard", "suit": "S"}]


def test_joker_led_as_take_makes_holders_of_the_suit_play_their_highest_card_of_it():
    hands = {0: ["X1", "7C", "8S"], 1: ["KS", "9S", "QH"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, ("X1", "take", "S"))
    assert [a.card for a in state.legal_actions(1)] == ["KS"]
    error = refused(state, Play(1, "9S"), "must_play_highest")
    assert error.params == {"suit": "S", "card": "KS"}
    plays(state, "KS")
    assert [a.card for a in state.legal_actions(2)] == ["7D"]  # no spades: must trump
    plays(state, "7D", "QS")
    assert state.last_trick[1] == 0  # the joker wins, even against a trump


def test_joker_led_as_take_highest_rule_leaves_the_other_joker_legal():
    hands = {0: ["X1", "7C", "8S"], 1: ["KS", "9S", "X2"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, ("X1", "take", "S"))
    assert cards_of(state.legal_actions(1)) == ["KS", "X2"]
    plays(state, ("X2", "take"), "7D", "QS")
    assert state.last_trick[1] == 1  # a later take joker beats the leading one


def test_joker_led_as_take_may_name_the_trump_suit():
    hands = {0: ["X1", "7C", "8S"], 1: ["KS", "AD", "QH"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, ("X1", "take", "D"))
    assert [a.card for a in state.legal_actions(1)] == ["AD"]
    plays(state, "AD", "7D", "8D")
    assert state.last_trick[1] == 0


def test_joker_led_as_discard_holders_of_the_suit_may_play_any_card_of_it():
    hands = {0: ["X1", "7C", "8S"], 1: ["KS", "9S", "QH"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, ("X1", "discard", "S"))
    assert cards_of(state.legal_actions(1)) == ["9S", "KS"]


def test_joker_led_as_discard_trick_goes_to_the_highest_named_suit_card_when_nobody_trumps():
    hands = {0: ["X1", "7C", "8S"], 1: ["KS", "9S", "QH"], 2: ["JC", "TH", "7S"], 3: ["QS", "8C", "9H"]}
    state = three_card_deal(hands)
    plays(state, ("X1", "discard", "S"), "9S", "7S", "QS")
    assert state.last_trick[1] == 3


def test_joker_led_as_discard_trick_goes_to_the_highest_trump():
    hands = {0: ["X1", "7C", "8S"], 1: ["KS", "9S", "QH"], 2: ["JC", "TH", "7D"], 3: ["QS", "8D", "9H"]}
    state = three_card_deal(hands)
    plays(state, ("X1", "discard", "S"), "KS", "7D", "QS")
    assert state.last_trick[1] == 2


def test_followers_without_the_named_suit_must_trump_after_a_joker_lead():
    hands = {0: ["X1", "7C", "8S"], 1: ["KH", "9D", "QH"], 2: ["JC", "TH", "7S"], 3: ["QS", "8C", "9H"]}
    state = three_card_deal(hands)
    plays(state, ("X1", "discard", "S"))
    assert [a.card for a in state.legal_actions(1)] == ["9D"]
    refused(state, Play(1, "KH"), "must_trump")


def test_rare_case_joker_led_as_discard_nobody_follows_or_trumps_the_leader_wins():
    # The Georgian seed's "rare case": nobody follows the named suit, nobody trumps,
    # and the other joker does not come as take: the trick stays with the leader.
    hands = {0: ["X1", "7C", "8S"], 1: ["KH", "9C", "QH"], 2: ["JC", "TH", "7S"], 3: ["AH", "8C", "9H"]}
    state = three_card_deal(hands, trump_card="6D")
    plays(state, ("X1", "discard", "D"), "KH", "TH", "AH")
    assert state.last_trick[1] == 0 and state.to_act == 0


def test_rare_case_with_the_second_joker_also_discarded_the_leader_still_wins():
    hands = {0: ["X1", "7C", "8S"], 1: ["KH", "9C", "QH"], 2: ["X2", "TH", "7S"], 3: ["AH", "8C", "9H"]}
    state = three_card_deal(hands, trump_card="6D")
    plays(state, ("X1", "discard", "D"), "KH", ("X2", "discard"), "AH")
    assert state.last_trick[1] == 0


def test_joker_led_as_discard_is_beaten_by_the_other_joker_played_as_take():
    hands = {0: ["X1", "7C", "8S"], 1: ["KH", "9C", "QH"], 2: ["X2", "TH", "7S"], 3: ["AH", "8C", "9H"]}
    state = three_card_deal(hands, trump_card="6D")
    plays(state, ("X1", "discard", "D"), "KH", ("X2", "take"), "AH")
    assert state.last_trick[1] == 2


def test_joker_led_in_a_no_trump_deal_as_discard_goes_to_the_highest_named_suit_card():
    hands = {0: ["X1", "7C", "8S"], 1: ["KH", "9C", "QH"], 2: ["JC", "TH", "7S"], 3: ["AH", "8C", "9H"]}
    state = three_card_deal(hands, trump_card="X2")
    assert state.trump == "none"
    plays(state, ("X1", "discard", "H"))
    assert cards_of(state.legal_actions(1)) == ["KH", "QH"]
    plays(state, "QH", "TH", "9H")
    assert state.last_trick[1] == 1
