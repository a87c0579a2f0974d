"""``view(seat)``: what each seat may see, and nothing more (rules.md 2 and 3.2)."""

import json
import random

import pytest

from games.engine import Bid, ChooseTrump, ClassicState, JapaneseState, Phase, Play, play_random
from games.engine.cards import CARD_INDEX
from games.engine.scenario import advance_to_deal, classic_cards, japanese_cards
from tests.view_cards import cards_of_this_deal


def cards_in(value) -> set[str]:
    """Every card name a view shows of the deal being played (tests/view_cards.py)."""
    return cards_of_this_deal(value)


def three_card_state():
    state = ClassicState({"game_type": "standard", "first_dealer": 1})
    advance_to_deal(state, 2)
    state.deal([["AS", "KH", "7C"], ["8S", "9H", "JC"], ["X1", "QS", "6H"], ["TS", "8C", "9D"]], "TD")
    return state


def test_classic_view_shows_the_own_hand_and_only_counts_of_the_others():
    state = three_card_state()
    for seat in range(4):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(state.hand(seat))
        assert view["hand_counts"] == [3, 3, 3, 3]
        others = set().union(*(state.hand(s) for s in range(4) if s != seat))
        assert not cards_in(view) & others
    spectator = state.view(None)
    assert spectator["hand"] == [] and spectator["legal_actions"] == []
    assert cards_in(spectator) == {"TD"}


def test_classic_view_is_json_and_lists_the_seats_legal_actions_as_record_dicts():
    state = three_card_state()
    view = state.view(0)
    assert json.loads(json.dumps(view)) == view
    assert view["legal_actions"] == [{"seat": 0, "bid": n} for n in range(4)]
    assert state.view(1)["legal_actions"] == []
    assert view["phase"] == "bid" and view["to_act"] == 0 and view["dealer"] == 3
    assert view["cards_per_player"] == 3 and view["pulka"] == 0 and view["deal_index"] == 2


def test_classic_view_shows_bids_forbidden_bid_trick_with_joker_modes_last_trick_and_tricks_taken():
    state = three_card_state()
    for n in (1, 0, 1):
        state.apply(Bid(state.to_act, n))
    assert state.view(2)["forbidden_bid"] == 1 and state.view(None)["forbidden_bid"] == 1
    state.apply(Bid(3, 0))
    for card in ("AS", "8S", "QS", "TS", "KH", "9H"):
        state.apply(Play(state.to_act, card))
    state.apply(Play(2, "X1", "take"))
    view = state.view(1)
    assert view["bids"] == [1, 0, 1, 0] and view["forbidden_bid"] is None
    assert view["trick"] == [{"seat": 0, "play": "KH"}, {"seat": 1, "play": "9H"}, {"seat": 2, "play": "X1", "joker": "take"}]
    assert view["leader"] == 0
    assert view["last_trick"] == {
        "cards": [{"seat": 0, "play": "AS"}, {"seat": 1, "play": "8S"}, {"seat": 2, "play": "QS"}, {"seat": 3, "play": "TS"}],
        "winner": 0,
        "deal": view["deal_index"],
    }
    assert view["tricks_taken"] == [1, 0, 0, 0]
    assert state.view(3)["legal_actions"] == [{"seat": 3, "play": "9D"}]


def test_classic_view_carries_the_score_sheet_totals_and_the_final_ranking():
    state = ClassicState({"game_type": "short"})
    play_random(state, random.Random(4))
    view = state.view(None)
    assert len(view["score_sheet"]["deals"]) == 12 and len(view["score_sheet"]["pulkas"]) == 2
    assert view["totals"] == state.totals and view["finished"] is True
    assert view["ranking"] == state.ranking() and view["winner"] == state.winners()
    row = view["score_sheet"]["deals"][0]
    assert set(row) == {"deal", "pulka", "kind", "cards", "dealer", "trump", "bids", "tricks", "scores", "khishti", "running_totals"}


def test_nine_card_trump_choice_shows_each_player_only_their_first_three_cards():
    state = ClassicState({"game_type": "nines"})
    state.deal(**classic_cards(state))
    for seat in range(4):
        view = state.view(seat)
        first_three = state._dealt[seat][:3]
        assert sorted(CARD_INDEX[c] for c in view["hand"]) == sorted(first_three)
        later = {c for c in state.hand(seat) if CARD_INDEX[c] not in first_three}
        assert not cards_in(view) & later


def test_dark_pulka_shows_no_card_until_the_bids_are_made():
    state = ClassicState({"game_type": "full"})
    advance_to_deal(state, 32)
    state.deal(**classic_cards(state))
    every_card = set().union(*(state.hand(s) for s in range(4)))
    for seat in (0, 1, 2, 3, None):
        assert not cards_in(state.view(seat)) & every_card


def test_view_refuses_a_seat_that_does_not_exist():
    with pytest.raises(ValueError):
        ClassicState().view(4)
    with pytest.raises(ValueError):
        JapaneseState().view(2)


def test_japanese_view_shows_own_hand_both_players_face_up_cards_and_counts():
    state = JapaneseState()
    args = japanese_cards()
    state.deal(**args)
    state.apply(ChooseTrump(0, "S"))
    view = state.view(1)
    assert sorted(view["hand"]) == sorted(state.hand(1)) and view["hand_counts"] == [8, 8]
    assert [c["up"] for c in view["columns"][0]] == [col[1] for col in args["columns"][0]]
    assert view["first_card_played"] == [False, False] and view["target"] == 21
    assert not cards_in(view) & set(state.hand(0))
    assert json.loads(json.dumps(view)) == view


def test_japanese_spectator_sees_face_up_cards_but_no_hand_and_no_face_down_card():
    state = JapaneseState()
    args = japanese_cards()
    state.deal(**args)
    state.apply(ChooseTrump(0, "S"))
    face_down = {col[0] for cols in args["columns"] for col in cols}
    hands = set(state.hand(0)) | set(state.hand(1))
    seen = cards_in(state.view(None))
    assert not seen & (face_down | hands)
    assert seen == set(state.face_up(0)) | set(state.face_up(1))


@pytest.mark.parametrize("seed", range(6))
def test_no_view_ever_shows_a_card_its_seat_may_not_see_during_random_play(seed):
    rng = random.Random(seed)
    state = (ClassicState({"game_type": "full"}) if seed % 2 else JapaneseState({"target": 11}))
    if seed % 2:
        advance_to_deal(state, 24 + 2 * seed, seed)
    steps = 0
    while not state.is_over() and steps < 150:
        play_random(state, rng, max_moves=1)
        steps += 1
        if state.phase is Phase.DEAL:
            continue
        for seat in [None, *range(state.seats)]:
            seen = cards_in(state.view(seat))
            hidden = set()
            for other in range(state.seats):
                if other != seat:
                    hidden |= set(state.hand(other))
            if state.variant == "japanese":
                hidden |= {state._dealt_cols[s][c][0] for s in (0, 1) for c in range(5) if state._cols[s][c] is not None}
                hidden = {h if isinstance(h, str) else _name(h) for h in hidden}
            assert not seen & hidden, (seat, seen & hidden)


def _name(index):
    from games.engine.cards import CARD_NAMES

    return CARD_NAMES[index]


# The keys every view had before "tricks" came; the pages and the protocol's clients read them.
COMMON_KEYS = {
    "variant", "seat", "phase", "options", "deal_index", "to_act", "trump", "hand", "hand_counts", "leader",
    "trick", "last_trick", "tricks_taken", "score_sheet", "totals", "legal_actions", "move_count", "finished",
    "winner", "end",
}
CLASSIC_KEYS = COMMON_KEYS | {
    "deal_count", "pulka", "pulka_kind", "cards_per_player", "dealer", "trump_card", "trump_chooser", "bids",
    "forbidden_bid", "ranking",
}
JAPANESE_KEYS = COMMON_KEYS | {"declarer", "target", "columns", "first_card_played"}


@pytest.mark.parametrize("variant", ["classic", "japanese"])
def test_view_recalls_every_finished_trick_of_the_deal_with_its_leader_cards_and_winner(variant):
    """``tricks``: each finished trick of the current deal (of the last one while the next waits),
    built here from the server's record and the winner ``last_trick`` named when the trick ended."""
    rng = random.Random(41)
    state = ClassicState({"game_type": "full", "first_dealer": 3}) if variant == "classic" else JapaneseState({"target": 31})
    keys = (CLASSIC_KEYS if variant == "classic" else JAPANESE_KEYS) | {"tricks"}
    expected, deals_seen, checked, jokers = [], 0, 0, []
    while not state.is_over() and state.deal_index < (8 if variant == "classic" else 3):
        play_random(state, rng, max_moves=1)
        deals = state.record_deals()
        plays = [action for action in deals[-1]["actions"] if "play" in action]
        if len(deals) != deals_seen and plays:  # a new deal's first card: the previous deal's tricks go
            expected, deals_seen = [], len(deals)
        if len(plays) // state.seats > len(expected):
            cards = plays[len(expected) * state.seats : (len(expected) + 1) * state.seats]
            expected.append({"leader": cards[0]["seat"], "cards": cards, "winner": state.last_trick[1]})
            jokers += [card for card in cards if card["play"] in ("X1", "X2")]
        for seat in [None, *range(state.seats)]:
            view = state.view(seat)
            assert set(view) == keys
            assert view["tricks"] == expected
            if expected:
                assert {key: view["last_trick"][key] for key in ("cards", "winner")} == {
                    "cards": expected[-1]["cards"], "winner": expected[-1]["winner"]}
        checked += len(expected)
    assert checked > 100
    assert jokers and all(("joker" in card) == (variant == "classic") for card in jokers)  # each joker's call is kept
    assert any("suit" in card for card in jokers)


@pytest.mark.parametrize("variant", ["classic", "japanese"])
def test_a_view_keeps_the_previous_deals_final_trick_until_the_next_deals_first_card(variant):
    """Perfect recall across the deal boundary: the final trick of a deal stays every view's
    last trick (with its deal), and its tricks the view's `tricks`, from the moment the next deal
    is dealt until a card of it is played."""
    state = ClassicState({"game_type": "standard", "first_dealer": 0}) if variant == "classic" \
        else JapaneseState({"target": 31})
    rng = random.Random(5)
    play_random(state, rng, until_deal=1)  # the first deal played out; the next not yet dealt
    assert state.phase is Phase.DEAL
    waiting = state.view(None)
    final = waiting["last_trick"]
    assert final["deal"] == 0 and len(final["cards"]) == state.seats
    play_random(state, rng, max_moves=1)  # the next deal is dealt
    assert state.deal_index == 1 and state.phase is not Phase.DEAL
    while not state.trick:
        for seat in (None, *range(state.seats)):
            view = state.view(seat)
            assert view["last_trick"] == final and view["tricks"] == waiting["tricks"]
        play_random(state, rng, max_moves=1)  # a trump choice, the bids, then the first card
    view = state.view(None)
    assert view["last_trick"] is None and view["tricks"] == []
