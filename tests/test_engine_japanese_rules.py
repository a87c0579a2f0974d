"""Japanese Joker, rules.md section 3: one test per rule, named after it."""

import json
import random

import pytest

from games.engine import (
    Bid,
    ChooseTrump,
    IllegalAction,
    InvalidDeal,
    InvalidOptions,
    JapaneseState,
    Phase,
    Play,
    play_random,
    to_record,
)
from games.engine.cards import CARD_INDEX
from games.engine.rules import japanese_follower_wins as follower_wins
from games.engine.scenario import japanese_cards

# The deal of the Georgian seed's worked example: Giorgi (seat 0) declares hearts.
SEED_HANDS = [["AH", "TH", "KC", "9C", "JD", "7D", "8S", "QS"], ["7H", "JH", "X1", "TS", "8D", "9D", "7C", "AD"]]
SEED_COLUMNS = [
    [["QD", "KS"], ["9H", "6D"], ["QH", "QC"], ["KH", "8H"], ["X2", "TD"]],
    [["AC", "AS"], ["7S", "JS"], ["9S", "TC"], ["8C", "6H"], ["JC", "KD"]],
]


def seed_deal(trump="H", declarer=0):
    state = JapaneseState({"first_declarer": declarer})
    state.deal(SEED_HANDS, SEED_COLUMNS)
    state.apply(ChooseTrump(declarer, trump))
    return state


def custom_deal(hands, columns=None, trump="H", declarer=0):
    state = JapaneseState({"first_declarer": declarer})
    state.deal(**japanese_cards(dict(enumerate(hands)), dict(enumerate(columns)) if columns else None))
    state.apply(ChooseTrump(declarer, trump))
    return state


def plays(state, *cards):
    for card in cards:
        if isinstance(card, tuple):
            state.apply(Play(state.to_act, *card))
        else:
            state.apply(Play(state.to_act, card))


def refused(state, action, code):
    before = (to_record(state), state.view(0), state.view(1), list(state.hands), list(state.up))
    assert not state.is_legal(action)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.code == code, info.value
    assert (to_record(state), state.view(0), state.view(1), list(state.hands), list(state.up)) == before
    return info.value


def legal_cards(state):
    return sorted({a.card for a in state.legal_actions(state.to_act)})


# --- 3.1 deals ----------------------------------------------------------------------------------


def test_every_japanese_deal_gives_out_the_whole_deck_eight_in_hand_and_five_columns_each():
    state = JapaneseState()
    state.deal(SEED_HANDS, SEED_COLUMNS)
    assert [len(state.hand(s)) for s in (0, 1)] == [8, 8]
    assert [len(state.face_up(s)) for s in (0, 1)] == [5, 5]
    cases = [
        ([SEED_HANDS[0][:7] + [], SEED_HANDS[1]], SEED_COLUMNS, "wrong_hand_size"),
        ([SEED_HANDS[0]], SEED_COLUMNS, "wrong_hand_count"),
        (SEED_HANDS, [SEED_COLUMNS[0][:4], SEED_COLUMNS[1]], "wrong_column_count"),
        (SEED_HANDS, [SEED_COLUMNS[0][:4] + [["X2"]], SEED_COLUMNS[1]], "malformed_column"),
        ([SEED_HANDS[0][:7] + ["7H"], SEED_HANDS[1]], SEED_COLUMNS, "duplicate_card"),
        ([SEED_HANDS[0][:7] + ["6S"], SEED_HANDS[1]], SEED_COLUMNS, "unknown_card"),
    ]
    for hands, columns, code in cases:
        fresh = JapaneseState()
        with pytest.raises(InvalidDeal) as info:
            fresh.deal(hands, columns)
        assert info.value.code == code
        assert fresh.phase is Phase.DEAL


def test_every_japanese_deal_has_exactly_18_tricks():
    state = JapaneseState({"target": 31})
    play_random(state, random.Random(4), until_deal=3)
    assert all(sum(r.tricks) == 18 for r in state.results)


def test_declarer_alternates_deal_by_deal_starting_with_seat_0_unless_told_otherwise():
    for first, expected in ((0, [0, 1, 0, 1]), (1, [1, 0, 1, 0])):
        state = JapaneseState({"target": 31, "first_declarer": first})
        seen = []
        for _ in range(4):
            seen.append(state.declarer)
            play_random(state, random.Random(len(seen)), until_deal=state.deal_index + 1)
            if state.is_over():
                break
        assert seen == expected[: len(seen)] and len(seen) >= 2


def test_declarer_picks_trump_from_five_after_seeing_three_cards():
    state = JapaneseState({"first_declarer": 1})
    state.deal(SEED_HANDS, SEED_COLUMNS)
    assert state.phase is Phase.TRUMP and state.to_act == 1
    for seat in (0, 1):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(SEED_HANDS[seat][:3]) and view["hand_counts"] == [3, 3]
        assert view["columns"] == [[], []]
    assert [a.to_record() for a in state.legal_actions(1)] == [{"seat": 1, "trump": t} for t in ("S", "C", "D", "H", "none")]
    refused(state, ChooseTrump(0, "S"), "not_your_turn")
    refused(state, Play(1, "7H"), "wrong_phase")
    refused(state, Bid(1, 3), "wrong_phase")
    state.apply(ChooseTrump(1, None))
    assert state.trump == "none" and len(state.view(1)["hand"]) == 8


def test_declarer_leads_the_first_trick():
    for declarer in (0, 1):
        state = seed_deal(declarer=declarer)
        assert state.phase is Phase.PLAY and state.to_act == declarer == state.leader


# --- 3.2 columns --------------------------------------------------------------------------------


def test_face_up_column_cards_are_public_to_both_players():
    state = seed_deal()
    for seat in (0, 1, None):
        columns = state.view(seat)["columns"]
        assert [c["up"] for c in columns[0]] == ["KS", "6D", "QC", "8H", "TD"]
        assert [c["up"] for c in columns[1]] == ["AS", "JS", "TC", "6H", "KD"]
        assert all(c["face_down"] is True for c in columns[0] + columns[1])


def all_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from all_strings(k)
            yield from all_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from all_strings(v)


def test_face_down_cards_are_seen_by_nobody_not_even_their_owner():
    state = seed_deal()
    face_down = {col[0] for cols in SEED_COLUMNS for col in cols}
    for seat in (0, 1, None):
        assert face_down.isdisjoint(all_strings(state.view(seat)))
    assert "QD" not in state.available(0)


def test_playing_a_face_up_card_empties_the_column_and_its_face_down_card_goes_to_the_hand():
    state = seed_deal()
    plays(state, "AH", "7H", "8H")
    assert "KH" in state.hand(0) and "KH" in state.view(0)["hand"]
    assert state.view(1)["columns"][0][3] is None
    assert state.view(0)["hand_counts"] == [8, 7]  # AH left and KH came in; seat 1 played 7H
    assert "KH" not in state.view(1)["hand"] and "KH" not in set(all_strings(state.view(1)))


def test_the_face_down_card_is_not_turned_over_in_place():
    state = seed_deal()
    plays(state, "AH", "7H", "8H")
    columns = state.view(0)["columns"][0]
    assert columns[3] is None and sum(c is not None for c in columns) == 4


def test_with_two_columns_left_playing_one_moves_the_rest_of_the_table_into_the_hand():
    hands = [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]]
    columns = [
        [["6H", "AD"], ["AC", "KD"], ["KC", "QD"], ["QC", "JD"], ["JC", "TD"]],
        [["X1", "9D"], ["X2", "8D"], ["8C", "7D"], ["7C", "6D"], ["TC", "9C"]],
    ]
    state = custom_deal(hands, columns, trump="none")
    plays(state, "AH", "AS")  # first cards from the hand; seat 0 keeps the lead
    plays(state, "AD", "9D", "KD", "8D", "QD", "7D")
    assert [c is None for c in state.view(0)["columns"][0]] == [True, True, True, False, False]
    hand_before = set(state.hand(0))
    plays(state, "JD")
    assert state.view(0)["columns"][0] == [None] * 5
    assert set(state.hand(0)) == hand_before | {"QC", "JC", "TD"}
    assert state.face_up(0) == []


def test_a_single_column_never_remains():
    state = JapaneseState({"target": 31})
    rng = random.Random(9)
    while not state.is_over() and state.deal_index < 3:
        play_random(state, rng, max_moves=1)
        if state.phase is Phase.PLAY:
            for seat in (0, 1):
                assert sum(col is not None for col in state.view(seat)["columns"][seat]) != 1


def test_a_face_down_card_is_never_played_from_the_table():
    state = seed_deal()
    plays(state, "AH", "7H")
    refused(state, Play(0, "QD"), "card_not_available")  # under KS
    refused(state, Play(0, "AS"), "card_not_available")  # the opponent's face-up card


# --- 3.3 play -----------------------------------------------------------------------------------


def test_each_players_first_card_of_a_deal_comes_from_the_hand_leading_and_following():
    state = seed_deal()
    assert "KS" not in legal_cards(state)
    error = refused(state, Play(0, "KS"), "first_card_from_hand")
    assert error.params == {"card": "KS"}
    plays(state, "8S")
    assert legal_cards(state) == ["TS", "X1"]  # JS and AS lie face up, but the first card comes from the hand
    refused(state, Play(1, "AS"), "first_card_from_hand")


def test_after_their_first_card_a_player_may_play_face_up_column_cards():
    state = seed_deal()
    plays(state, "AH", "7H")
    assert {"KS", "6D", "QC", "8H", "TD"} <= set(legal_cards(state))


def test_follower_holding_the_led_suit_in_hand_or_face_up_plays_any_card_of_it():
    state = seed_deal()
    plays(state, "AH", "7H", "8H")
    assert legal_cards(state) == ["6H", "JH", "X1"]
    refused(state, Play(1, "TS"), "must_follow_suit")
    plays(state, "6H")
    assert state.last_trick[1] == 0


def test_joker_lead_demands_the_highest_available_card_of_the_named_suit():
    state = seed_deal()
    plays(state, "AH", "7H", "8H", "6H", "QC", "7C", "JD", "KD")
    assert state.to_act == 1
    plays(state, ("X1", None, "C"))
    assert legal_cards(state) == ["KC"]
    error = refused(state, Play(0, "9C"), "must_play_highest")
    assert error.params == {"suit": "C", "card": "KC"}


def test_joker_lead_highest_card_may_be_a_face_up_column_card():
    state = custom_deal(
        [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "X1"], ["7C", "8C", "9C", "7S", "8S", "9S", "7D", "6H"]],
        [[], [["6D", "AS"], ["8D", "KS"], ["9D", "QS"], ["TD", "JS"], ["JD", "TS"]]],
        trump="C",
    )
    plays(state, "AH", "6H", ("X1", None, "S"))
    assert legal_cards(state) == ["AS"]
    refused(state, Play(1, "9S"), "must_play_highest")


def test_before_their_first_card_a_player_trumps_or_follows_only_from_the_hand():
    state = custom_deal(
        [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "AC"]],
        [[], [["6D", "AS"], ["8D", "KS"], ["9D", "QS"], ["TD", "JS"], ["JD", "TS"]]],
        trump="S",
    )
    plays(state, "AH")
    assert len(legal_cards(state)) == 8 and "AS" not in legal_cards(state)


def test_follower_without_the_led_suit_holding_a_trump_must_play_a_trump_any_trump():
    hands = [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["AS", "7S", "KC", "QC", "JC", "TC", "9C", "8C"]]
    state = custom_deal(hands, trump="S")
    plays(state, "AH")
    assert legal_cards(state) == ["7S", "AS"]
    refused(state, Play(1, "KC"), "must_trump")
    plays(state, "7S")
    assert state.last_trick[1] == 1


def test_in_no_trump_a_follower_without_the_suit_may_play_any_card():
    hands = [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["AS", "7S", "KC", "QC", "JC", "TC", "9C", "8C"]]
    state = custom_deal(hands, trump="none")
    plays(state, "AH")
    assert len(legal_cards(state)) == 8


def test_a_joker_is_always_legal_for_the_japanese_follower():
    hands = [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["6H", "X1", "KC", "QC", "JC", "TC", "9C", "8C"]]
    state = custom_deal(hands, trump="C")
    plays(state, "AH")
    assert legal_cards(state) == ["6H", "X1"]
    assert [a.to_record() for a in state.legal_actions(1) if a.card == "X1"] == [{"seat": 1, "play": "X1"}]


def test_japanese_joker_is_always_played_to_take_never_discarded():
    hands = [["X1", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["AH", "X2", "KC", "QC", "JC", "TC", "9C", "8C"]]
    state = custom_deal(hands, trump="C")
    refused(state, Play(0, "X1", "discard", "H"), "joker_cannot_discard")
    refused(state, Play(0, "X1", None, None), "joker_needs_suit")
    assert sorted(a.suit for a in state.legal_actions(0) if a.card == "X1") == ["C", "D", "H", "S"]
    plays(state, ("X1", "take", "H"))  # "take" may be said, it changes nothing
    refused(state, Play(1, "X2", None, "H"), "joker_suit_only_when_leading")
    refused(state, Play(1, "X2", "discard"), "joker_cannot_discard")
    assert to_record(state)["deals"][0]["actions"][-1] == {"seat": 0, "play": "X1", "suit": "H"}


def test_an_ordinary_card_carries_no_joker_fields_in_japanese():
    state = seed_deal()
    refused(state, Play(0, "AH", "take"), "joker_fields_on_card")
    refused(state, Play(0, "AH", None, "H"), "joker_fields_on_card")
    refused(state, Play(1, "7H"), "not_your_turn")


# --- 3.4 who wins a trick -------------------------------------------------------------------


def idx(name):
    return CARD_INDEX[name]


S, C, D, H, NONE = 0, 1, 2, 3, -1


@pytest.mark.parametrize(
    "lead, named, follow, trump, follower",
    [
        ("AH", -1, "X1", H, True),  # a joker answering a card beats it, trump included
        ("AH", -1, "X2", D, True),
        ("X1", S, "X2", H, True),  # of two jokers the later wins
        ("X1", S, "AH", H, True),  # trump beats a joker that named a non-trump suit
        ("X1", H, "AH", H, False),  # a joker naming trump is not beaten by a trump
        ("X1", S, "AS", NONE, False),  # in no trump nothing beats a leading joker
        ("X1", S, "AS", H, False),  # the named suit's ace does not beat it
        ("KS", -1, "AS", H, True),  # higher card of the led suit
        ("AS", -1, "KS", H, False),
        ("AS", -1, "6H", H, True),  # trump beats a non-trump lead
        ("AH", -1, "KH", H, False),
        ("AS", -1, "AD", H, False),  # another suit, not trump, never wins
        ("7S", -1, "AD", NONE, False),
    ],
)
def test_japanese_trick_winner_rules(lead, named, follow, trump, follower):
    assert follower_wins(idx(lead), named, idx(follow), trump) is follower


def test_trump_beats_a_joker_that_named_a_non_trump_suit_in_play():
    hands = [["X1", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["AS", "KS", "AD", "QC", "JC", "TC", "9C", "8C"]]
    state = custom_deal(hands, trump="D")
    plays(state, ("X1", None, "H"))
    assert legal_cards(state) == ["AD"]
    plays(state, "AD")
    assert state.last_trick[1] == 1 and state.to_act == 1


def test_a_joker_lead_naming_the_trump_suit_wins_against_the_followers_highest_trump():
    hands = [["X1", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["AS", "KS", "AD", "QC", "JC", "TC", "9C", "8C"]]
    state = custom_deal(hands, trump="D")
    plays(state, ("X1", None, "D"), "AD")
    assert state.last_trick[1] == 0


def test_a_joker_answering_the_ace_of_trump_wins():
    hands = [["AD", "KH", "QH", "JH", "TH", "9H", "8H", "7H"], ["X1", "KS", "7D", "QC", "JC", "TC", "9C", "8C"]]
    state = custom_deal(hands, trump="D")
    plays(state, "AD", "X1")
    assert state.last_trick[1] == 1


# --- 3.5 scoring and the match -------------------------------------------------------------


def finish_deal(state, rng):
    play_random(state, rng, until_deal=state.deal_index + 1)


def test_the_player_with_more_tricks_scores_the_difference_the_other_nothing():
    state = JapaneseState({"target": 31})
    rng = random.Random(11)
    while not state.is_over():
        finish_deal(state, rng)
    for result in state.results:
        a, b = result.tricks
        assert result.scores == ((a - b, 0) if a > b else (0, b - a))
    assert state.totals == [sum(r.scores[s] for r in state.results) for s in (0, 1)]


def test_nine_nine_scores_nothing():
    rng = random.Random(0)
    for attempt in range(400):
        state = JapaneseState({"target": 31})
        finish_deal(state, rng)
        if state.results[0].tricks == (9, 9):
            assert state.results[0].scores == (0, 0) and state.totals == [0, 0]
            assert state.phase is Phase.DEAL
            return
    pytest.fail("no 9:9 deal in 400 random deals")


@pytest.mark.parametrize("target", [11, 15, 21, 31])
def test_the_first_player_to_reach_the_target_at_the_end_of_a_deal_wins_the_match(target):
    state = JapaneseState({"target": target})
    play_random(state, random.Random(target))
    assert state.phase is Phase.GAME_OVER
    winner = state.winners()[0]
    assert state.totals[winner] >= target > state.totals[1 - winner]
    before_last = [state.totals[s] - state.results[-1].scores[s] for s in (0, 1)]
    assert max(before_last) < target
    assert state.scores()["finished"] is True and state.scores()["pulka_bonus"] == []


def test_match_target_default_is_21_and_only_11_15_21_31_exist():
    assert JapaneseState().options.target == 21
    for bad in (10, 20, "21", None):
        with pytest.raises(InvalidOptions):
            JapaneseState({"target": bad})


def test_a_single_deal_can_be_worth_up_to_18_points():
    assert max(abs(a - b) for a in range(19) for b in [18 - a]) == 18


# --- 3.6 leaving --------------------------------------------------------------------------------


def test_resigning_or_forfeiting_ends_the_match_and_the_opponent_wins():
    for reason in ("resign", "forfeit"):
        state = seed_deal()
        state.end_game(reason, 0)
        assert state.phase is Phase.GAME_OVER and state.winners() == [1]
        assert to_record(state)["end"] == {"reason": reason, "seat": 0}
        with pytest.raises(IllegalAction) as info:
            state.apply(Play(0, "AH"))
        assert info.value.code == "game_over"


def test_an_aborted_match_has_no_winner():
    state = seed_deal()
    state.end_game("abort")
    assert state.winners() == [] and state.scores()["finished"] is True


def test_an_early_end_needs_a_known_reason_and_the_seat():
    state = seed_deal()
    for reason, seat in (("quit", 0), ("resign", None), ("resign", 2)):
        with pytest.raises(IllegalAction) as info:
            state.end_game(reason, seat)
        assert info.value.code == "invalid_end"
    assert state.phase is Phase.PLAY


def test_japanese_state_round_trips_through_json_views():
    state = seed_deal()
    for seat in (0, 1, None):
        assert json.loads(json.dumps(state.view(seat))) == state.view(seat)
