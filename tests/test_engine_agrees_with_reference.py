"""The engine agrees with the straightforward reference (scripts/reference_engine.py) move by move.

Random games played by the engine are replayed in the reference: before every move
both offer the same legal cards (bids, for a bid), every move is legal in both, and
every deal's scores, pulka bonuses and totals are the same. The speed benchmark
(``make bench``) measures the engine against this reference, so the reference must
play the same game.
"""

import importlib.util
import random
from pathlib import Path

import pytest

from games.engine import ClassicState, JapaneseState, play_random, to_record

_path = Path(__file__).resolve().parent.parent / "scripts" / "reference_engine.py"
_spec = importlib.util.spec_from_file_location("reference_engine", _path)
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)


def _engine_choices(state, seat):
    """The cards (or bids) the engine offers ``seat`` now, jokers once."""
    out = set()
    for action in state.legal_actions(seat):
        record = action.to_record()
        out.add(record.get("play", record.get("bid")))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_reference_replays_random_classic_games_with_the_same_legal_moves_and_scores(seed):
    rng = random.Random(seed)
    first = rng.randrange(4)
    done = ClassicState({"game_type": "standard", "first_dealer": first})
    play_random(done, rng)
    assert done.is_over()
    state = ClassicState({"game_type": "standard", "first_dealer": first})
    game = ref.ReferenceClassic(first)
    moves = 0
    for deal in to_record(done)["deals"]:
        state.deal(deal["hands"], deal.get("trump_card"))
        game.deal(deal["hands"], deal.get("trump_card"))
        for action in deal["actions"]:
            seat = action["seat"]
            assert seat == game.to_act == state.to_act
            if "trump" in action:
                game.choose_trump(seat, None if action["trump"] == "none" else action["trump"])
            elif "bid" in action:
                assert set(game.legal_bids()) == _engine_choices(state, seat)
                game.bid(seat, action["bid"])
            else:
                assert set(game.legal_cards()) == _engine_choices(state, seat)
                game.play(seat, action["play"], action.get("joker"), action.get("suit"))
            state.apply_record(action)
            moves += 1
    assert game.phase == "over" and moves > 200
    scores = state.scores()
    assert game.deal_scores == [list(row) for row in scores["deal_scores"]]
    assert game.pulka_bonuses == [list(row) for row in scores["pulka_bonus"]]
    assert game.totals == list(scores["totals"])


@pytest.mark.parametrize("seed", range(6))
def test_reference_replays_random_japanese_matches_with_the_same_legal_moves_and_scores(seed):
    rng = random.Random(100 + seed)
    done = JapaneseState({"target": 11})
    play_random(done, rng)
    assert done.is_over()
    state = JapaneseState({"target": 11})
    game = ref.ReferenceJapanese(target=11)
    for deal in to_record(done)["deals"]:
        state.deal(deal["hands"], deal["columns"])
        game.deal(deal["hands"], deal["columns"])
        for action in deal["actions"]:
            seat = action["seat"]
            assert seat == game.to_act == state.to_act
            if "trump" in action:
                game.choose_trump(seat, None if action["trump"] == "none" else action["trump"])
            else:
                assert set(game.legal_cards()) == _engine_choices(state, seat)
                game.play(seat, action["play"], action.get("suit"))
            state.apply_record(action)
    assert game.phase == "over"
    scores = state.scores()
    assert game.deal_scores == [list(row) for row in scores["deal_scores"]]
    assert game.totals == list(scores["totals"])


def test_reference_refuses_an_illegal_card_as_the_engine_does():
    game = ref.ReferenceClassic(0)
    game.deal([["AS"], ["KS"], ["7H"], ["8D"]], "9C")
    for seat in (1, 2, 3):
        game.bid(seat, 0)
    with pytest.raises(ValueError):
        game.bid(0, 1)  # the dealer's forbidden bid: 0 + 0 + 0 + 1 = 1 card
    game.bid(0, 0)
    game.play(1, "KS")
    with pytest.raises(ValueError):
        game.play(2, "AS")  # not in seat 2's hand


def test_reference_random_games_run_to_the_end():
    rng = random.Random(7)
    game = ref.play_random_classic(rng)
    assert game.phase == "over" and len(game.deal_scores) == 24
    match = ref.ReferenceJapanese(target=11)
    while match.phase != "over":
        ref.play_random_japanese_deal(match, rng)
    assert max(match.totals) >= 11
