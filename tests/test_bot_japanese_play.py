"""The Japanese bot plays sensibly: it names trump from its strongest suit, wins a trick with its
cheapest winning card, throws its lowest card when it cannot win, does not lead into the
opponent's open column cards, and beats random play. Positions come from fixed deals."""

import random

from games.engine import (
    ChooseTrump,
    JapaneseState,
    Phase,
    Play,
    action_from_record,
    deal_from_deck,
    shuffled_deck,
)
from games.engine.bot import choose_action, observe
from games.engine.rules import CARD_INDEX, CARD_NAMES

SEEDS = range(5)

# Seat 0 declares. Face up: seat 0 AD 7C 8C 9C JD, seat 1 AC X2 TC QD JC. X1 lies face down under
# seat 0's JD, unknown to everyone.
HANDS = [
    ["7S", "8S", "AH", "9S", "6D", "7D", "7H", "8H"],
    ["AS", "KD", "KC", "6H", "9H", "TH", "8D", "9D"],
]
COLUMNS = [
    [["TS", "AD"], ["JS", "7C"], ["QS", "8C"], ["KS", "9C"], ["X1", "JD"]],
    [["JH", "AC"], ["QH", "X2"], ["KH", "TC"], ["TD", "QD"], ["QC", "JC"]],
]


def japanese(hands, columns, actions=(), first_declarer=0):
    state = JapaneseState({"target": 21, "first_declarer": first_declarer})
    state.deal(hands, columns)
    for record in actions:
        state.apply(action_from_record(record))
    return state


def bot_moves(state, seeds=SEEDS):
    seat = state.to_act
    return {choose_action(state, seat, random.Random(seed)) for seed in seeds}


def test_japanese_declarer_bot_chooses_trump_from_its_strongest_suit():
    hands = [
        ["AH", "KH", "7C", "7S", "8S", "9S", "6D", "7D"],
        ["AS", "KD", "KC", "6H", "9H", "TH", "8D", "9D"],
    ]
    columns = [
        [["TS", "AD"], ["JS", "7H"], ["QS", "8C"], ["KS", "9C"], ["X1", "JD"]],
        [["JH", "AC"], ["QH", "X2"], ["8H", "TC"], ["TD", "QD"], ["QC", "JC"]],
    ]
    state = japanese(hands, columns)
    assert state.phase is Phase.TRUMP and state.to_act == 0
    assert bot_moves(state) == {ChooseTrump(0, "H")}


def test_japanese_bot_wins_a_trick_with_its_cheapest_winning_card():
    # Seat 0 leads 6D; seat 1's first card comes from its hand, where 8D, 9D and KD all win.
    state = japanese(HANDS, COLUMNS, [{"seat": 0, "trump": "H"}, {"seat": 0, "play": "6D"}])
    assert state.to_act == 1
    assert bot_moves(state) == {Play(1, "8D")}


def test_japanese_bot_throws_its_lowest_card_when_it_cannot_win():
    # Seat 0 leads the ace of trump; seat 1 must follow with 6H, 9H or TH and none of them wins.
    state = japanese(HANDS, COLUMNS, [{"seat": 0, "trump": "H"}, {"seat": 0, "play": "AH"}])
    assert bot_moves(state) == {Play(1, "6H")}


def test_japanese_bot_sees_both_players_open_columns_and_no_face_down_card():
    actions = [{"seat": 0, "trump": "H"}, {"seat": 0, "play": "7S"}, {"seat": 1, "play": "AS"}]
    state = japanese(HANDS, COLUMNS, actions)
    obs = observe(state, 1)
    assert [[CARD_NAMES[c] for c in cols] for cols in obs.columns] == [
        ["AD", "7C", "8C", "9C", "JD"],
        ["AC", "X2", "TC", "QD", "JC"],
    ]
    assert obs.first_card_played == [True, True]  # both may now play their face-up cards
    seen = obs.hand | obs.face_up[0] | obs.face_up[1]
    for down in ("TS", "JS", "QS", "KS", "X1", "JH", "QH", "KH", "TD", "QC"):
        assert not seen >> CARD_INDEX[down] & 1
    assert obs.hand_counts == [7, 7]


def test_japanese_bot_beats_random_play():
    # Sixteen deals, new matches as needed, the bot taking each seat in turn. Card luck decides
    # some deals (a random declarer may hold seven trumps), so the bar is a clear majority.
    rng = random.Random(4)
    won = lost = deals = 0
    while deals < 16:
        state = JapaneseState({"target": 31, "first_declarer": deals % 2})
        while deals < 16 and not state.is_over():
            if state.phase is Phase.DEAL:
                deal_from_deck(state, shuffled_deck(rng))
                continue
            bot = deals % 2
            seat = state.to_act
            if seat == bot:
                move = choose_action(state, seat, rng)
            else:
                move = rng.choice(state.legal_actions(seat))
            before = len(state.results)
            state.apply(move)
            if len(state.results) > before:
                tricks = state.results[-1].tricks
                won += tricks[bot] > tricks[1 - bot]
                lost += tricks[bot] < tricks[1 - bot]
                deals += 1
    assert won >= 11 and won >= 3 * lost
