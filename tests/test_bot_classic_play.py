"""The classic bot plays sensibly: bids from its hand's strength, names trump from its strongest
suit, ducks once its bid is made, takes when it needs a trick, uses the joker deliberately, and
follows the golden and misère pulkas' aims. Each position is built from a fixed deal."""

import random

import pytest

from games.engine import (
    Bid,
    ChooseTrump,
    ClassicState,
    Phase,
    Play,
    action_from_record,
    full_deck,
    play_random,
)
from games.engine.bot import choose_action

SEEDS = range(5)


def fill_hands(partial, size, exclude=()):
    """Four hands of ``size`` cards: the cards given, then the unused cards in deck order."""
    used = {c for hand in partial for c in hand} | set(exclude)
    rest = [c for c in full_deck() if c not in used]
    hands = []
    for hand in partial:
        hand = list(hand)
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands.append(hand)
    return hands


def classic(hands, trump_card=None, actions=(), game_type="nines", first_dealer=3, skip_deals=0):
    """A classic game at the given deal (dealer 3 by default, so seat 0 names trump, bids and leads first)."""
    state = ClassicState({"game_type": game_type, "first_dealer": first_dealer})
    if skip_deals:
        play_random(state, random.Random(0), until_deal=skip_deals)
    state.deal(hands, trump_card)
    for record in actions:
        state.apply(action_from_record(record))
    return state


def bot_moves(state, seeds=SEEDS):
    seat = state.to_act
    return {choose_action(state, seat, random.Random(seed)) for seed in seeds}


def plays(*cards_by_seat):
    return [{"seat": seat, "play": card} for seat, card in cards_by_seat]


# --- trump ---------------------------------------------------------------------------------------


def test_bot_chooses_trump_from_its_strongest_suit():
    state = classic(fill_hands([["AH", "KH", "7C"], [], [], []], 9))
    assert state.phase is Phase.TRUMP and state.to_act == 0
    assert bot_moves(state) == {ChooseTrump(0, "H")}


def test_bot_names_the_suit_beside_a_joker():
    state = classic(fill_hands([["X1", "QD", "9D"], [], [], []], 9))
    assert bot_moves(state) == {ChooseTrump(0, "D")}


def test_bot_names_no_trump_with_aces_in_different_suits():
    state = classic(fill_hands([["AS", "AD", "8C"], [], [], []], 9))
    assert bot_moves(state) == {ChooseTrump(0, None)}


# --- bids ------------------------------------------------------------------------------------------


def test_bot_bids_high_with_jokers_trumps_and_aces():
    hand = ["X1", "X2", "AH", "KH", "QH", "JH", "AS", "AD", "AC"]
    state = classic(fill_hands([hand, [], [], []], 9), actions=[{"seat": 0, "trump": "H"}])
    assert state.phase is Phase.BID and state.to_act == 0
    assert all(move.n >= 7 for move in bot_moves(state))


def test_bot_passes_with_a_hand_of_low_cards():
    hand = ["7S", "8S", "7C", "8C", "7D", "8D", "6D", "6H", "7H"]
    state = classic(fill_hands([hand, [], [], []], 9), actions=[{"seat": 0, "trump": "S"}])
    assert all(move.n <= 1 for move in bot_moves(state))


def test_bot_bids_a_trick_for_a_joker_in_a_one_card_deal():
    hands = [["KC"], ["X1"], ["7S"], ["9D"]]
    state = classic(hands, trump_card="8H", game_type="standard", actions=[{"seat": 0, "bid": 0}])
    assert bot_moves(state) == {Bid(1, 1)}


def test_bot_passes_with_a_low_card_in_a_one_card_deal():
    hands = [["KC"], ["7D"], ["7S"], ["AH"]]
    state = classic(hands, trump_card="8H", game_type="standard", actions=[{"seat": 0, "bid": 1}])
    assert bot_moves(state) == {Bid(1, 0)}


def test_dealer_bot_never_chooses_the_forbidden_bid():
    # The dealer (seat 3) holds a hand worth about three tricks and the others leave exactly three.
    hand = ["X1", "AH", "KH", "7S", "8S", "7C", "8C", "7D", "8D"]
    bids = [{"seat": 0, "trump": "H"}, {"seat": 0, "bid": 2}, {"seat": 1, "bid": 2}, {"seat": 2, "bid": 2}]
    state = classic(fill_hands([[], [], [], hand], 9), actions=bids)
    assert state.to_act == 3 and state.forbidden_bid == 3
    moves = bot_moves(state, seeds=range(10))
    assert all(move.n != 3 for move in moves)
    # And over many random dealer positions.
    rng = random.Random(3)
    checked = 0
    while checked < 40:
        state = ClassicState({"game_type": "standard", "first_dealer": rng.randrange(4)})
        play_random(state, rng, until_deal=rng.randrange(24))
        play_random(state, rng, max_moves=4)  # the deal, then three bids (trump first in 9-card deals)
        if state.phase is Phase.TRUMP:
            play_random(state, rng, max_moves=1)
        while state.phase is Phase.BID and state.to_act != state.dealer:
            play_random(state, rng, max_moves=1)
        if state.phase is not Phase.BID or state.forbidden_bid is None:
            continue
        move = choose_action(state, state.to_act, random.Random(checked), effort=0.2)
        assert move.n != state.forbidden_bid
        checked += 1


def test_bot_bids_blind_in_the_dark_pulka():
    state = ClassicState({"game_type": "full", "first_dealer": 3})
    play_random(state, random.Random(5), until_deal=32)  # the dark pulka starts at deal 32
    play_random(state, random.Random(5), max_moves=1)
    assert state.phase is Phase.BID and state.spec.kind == "dark"
    seat = state.to_act
    assert state.view(seat)["hand"] == []
    moves = bot_moves(state)
    assert all(isinstance(m, Bid) and 0 <= m.n <= 4 for m in moves)


# --- play --------------------------------------------------------------------------------------------


def _four_card_deal(bot_bid):
    """Deal 4 (four cards each, trump hearts, none held). Seat 1 takes the first trick with AS and
    loses the second; on the third, led with TC, it holds AC (sure to win) and 8C (sure to lose)."""
    hands = [
        ["QS", "TC", "9D", "KD"],
        ["AS", "7D", "AC", "8C"],
        ["8S", "9C", "8D", "JC"],
        ["7S", "7C", "TD", "QC"],
    ]
    bids = [1, bot_bid, 0 if bot_bid == 2 else 1, 0]
    actions = [{"seat": s, "bid": b} for s, b in enumerate(bids)]
    actions += plays(
        (0, "QS"), (1, "AS"), (2, "8S"), (3, "7S"), (1, "7D"), (2, "8D"), (3, "TD"), (0, "KD"), (0, "TC")
    )
    state = classic(
        hands, trump_card="6H", game_type="standard", first_dealer=0, skip_deals=3, actions=actions
    )
    assert state.to_act == 1 and state.taken[1] == 1
    return state


def test_bot_ducks_when_its_bid_is_already_made():
    # Taking with AC now fails the bid for sure; 8C keeps the chance that the last trick is not clubs.
    state = _four_card_deal(bot_bid=1)
    assert bot_moves(state) == {Play(1, "8C")}


def test_bot_takes_when_it_still_needs_the_trick():
    state = _four_card_deal(bot_bid=2)
    assert bot_moves(state) == {Play(1, "AC")}


def _one_card_deal(joker_seat_bid):
    # One card each, trump hearts. Seat 0 leads KC; seat 1 holds a joker; seat 2 must trump with 7H.
    hands = [["KC"], ["X1"], ["7H"], ["9D"]]
    return classic(
        hands,
        trump_card="8H",
        game_type="standard",
        actions=[
            {"seat": 0, "bid": 1},
            {"seat": 1, "bid": joker_seat_bid},
            {"seat": 2, "bid": 1},
            {"seat": 3, "bid": 1},
            {"seat": 0, "play": "KC"},
        ],
    )


def test_bot_takes_with_joker_when_it_needs_the_last_trick():
    state = _one_card_deal(joker_seat_bid=1)
    assert bot_moves(state) == {Play(1, "X1", "take")}


def test_bot_discards_joker_when_it_must_not_take_the_trick():
    state = _one_card_deal(joker_seat_bid=0)
    assert bot_moves(state) == {Play(1, "X1", "discard")}


def test_bot_wins_a_trick_it_needs_with_its_cheapest_winning_card():
    # Deal 2 (two cards each), no trump (a joker turned). Seat 3 bid both tricks and plays last to
    # 9D 7D JD: QD takes this trick and AD the next; AD now would leave QD to lose to KD.
    hands = [["9D", "KD"], ["7D", "8S"], ["JD", "9S"], ["QD", "AD"]]
    actions = [{"seat": 0, "bid": 1}, {"seat": 1, "bid": 0}, {"seat": 2, "bid": 0}, {"seat": 3, "bid": 2}]
    actions += plays((0, "9D"), (1, "7D"), (2, "JD"))
    state = classic(
        hands, trump_card="X1", game_type="standard", first_dealer=2, skip_deals=1, actions=actions
    )
    assert state.to_act == 3 and state.trump == "none"
    assert bot_moves(state) == {Play(3, "QD")}


def test_bot_leading_with_its_bid_made_leads_a_card_that_cannot_win():
    # Seat 0 bid 0 and leads: its lowest diamond is beaten by every other diamond in play.
    hand = ["6D", "AS", "KS", "QS", "JS", "AC", "KC", "QC", "AH"]
    hands = fill_hands([hand, ["7D"], ["8D"], ["9D"]], 9)
    actions = [{"seat": 0, "trump": "S"}, {"seat": 0, "bid": 0}, {"seat": 1, "bid": 3}, {"seat": 2, "bid": 3}]
    actions.append({"seat": 3, "bid": 2})
    state = classic(hands, actions=actions)
    assert state.to_act == 0
    assert bot_moves(state) == {Play(0, "6D")}


PULL_HANDS = [
    ["X1", "X2", "KH", "QH", "JH", "TH", "AS", "AC", "AD"],
    ["AH", "9H", "7S", "8S", "7C", "8C", "6D", "7D", "8D"],
    ["8H", "7H", "9S", "TS", "JS", "9C", "TC", "JC", "9D"],
    ["6H", "QS", "KS", "TD", "JD", "QD", "KD", "QC", "KC"],
]


def test_bot_leads_a_joker_high_naming_trump_to_pull_out_the_ace_of_trump():
    # Seat 0 bid all nine with both jokers, KH QH JH TH of trump hearts and three aces; seat 1 holds
    # AH 9H. Every trick is the bot's if a joker led as take naming hearts makes seat 1 give up AH
    # before the bot leads a heart of its own.
    actions = [{"seat": 0, "trump": "H"}, {"seat": 0, "bid": 9}, {"seat": 1, "bid": 0}, {"seat": 2, "bid": 0}]
    actions.append({"seat": 3, "bid": 1})
    for seed in SEEDS:
        state = classic(PULL_HANDS, actions=actions)
        rng = random.Random(seed)
        pulled = False
        while state.phase is Phase.PLAY:
            seat = state.to_act
            if seat == 0:
                move = choose_action(state, 0, random.Random(seed))
                ace_out = "AH" in state.hand(1)
                if not state.trick and ace_out:
                    assert move.card not in ("KH", "QH", "JH", "TH"), "led a heart into the ace"
                    pulled |= move.card in ("X1", "X2") and move.joker == "take" and move.suit == "H"
            else:
                move = rng.choice(state.legal_actions(seat))
            state.apply(move)
        assert pulled
        assert state.results[-1].tricks[0] == 9


# --- golden and misère --------------------------------------------------------------------------------

SPECIAL_HANDS = [
    ["KD", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],
    ["AD", "7D", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
    ["8D", "9D", "AC", "AH", "KH", "QH", "JH", "TH", "9H"],
    ["TD", "JD", "QD", "6D", "8H", "7H", "6H", "X1", "X2"],
]


def test_bot_ducks_under_a_higher_card_in_misere():
    state = classic(
        SPECIAL_HANDS,
        game_type="full",
        skip_deals=36,  # pulka VIII, misère
        actions=[{"seat": 0, "trump": "S"}, {"seat": 0, "play": "KD"}],
    )
    assert state.spec.kind == "misere" and state.to_act == 1
    assert bot_moves(state) == {Play(1, "7D")}


@pytest.mark.parametrize("deal_index, kind, mode", [(24, "golden", "take"), (36, "misere", "discard")])
def test_bot_with_only_a_joker_left_takes_in_golden_and_discards_in_misere(deal_index, kind, mode):
    rng = random.Random(deal_index)
    checked = 0
    while checked < 8:
        state = ClassicState({"game_type": "full"})
        play_random(state, rng, until_deal=deal_index)
        play_random(state, rng, max_moves=1 + 1 + 4 * 8)  # deal, trump, eight tricks
        assert state.spec.kind == kind and state.phase is Phase.PLAY
        while state.phase is Phase.PLAY and state.spec.index == deal_index:
            seat = state.to_act
            if state.trick and state.hand(seat)[0] in ("X1", "X2"):
                move = choose_action(state, seat, random.Random(checked))
                assert move.joker == mode
                checked += 1
            play_random(state, rng, max_moves=1)
