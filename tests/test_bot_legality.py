"""The bot's move is always one of the legal actions and applies cleanly, in every phase of both
variants and every classic game type (trump choice, bids, the dealer's forbidden number, the dark
pulka's blind bids, golden, no-trump and misère play, Japanese columns)."""

import random
from collections import Counter

import pytest

from games.engine import ClassicState, JapaneseState, Phase, deal_from_deck, shuffled_deck
from games.engine.bot import LEVELS, choose_action


def random_move(state, seat, rng):
    actions = state.legal_actions(seat)
    if state.phase is not Phase.PLAY:
        return rng.choice(actions)
    card = rng.choice(sorted({a.card for a in actions}))
    return rng.choice([a for a in actions if a.card == card])


def walk(state, rng, bot_share, effort, coverage, limit=None, level="club"):
    """Play the game to its end, asking the bot for a share of the moves; returns positions asked."""
    asked = 0
    while not state.is_over() and (limit is None or asked < limit):
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(rng))
            continue
        seat = state.to_act
        legal = state.legal_actions(seat)
        if rng.random() < bot_share:
            action = choose_action(state, seat, random.Random(rng.random()), effort=effort, level=level)
            assert action in legal, (action, legal)
            coverage[_position_kind(state)] += 1
            asked += 1
        else:
            action = random_move(state, seat, rng)
        state.apply(action)  # raises IllegalAction if the move were not legal
    return asked


def _position_kind(state):
    if state.variant == "japanese":
        return ("japanese", state.phase.value, bool(state.trick))
    forbidden = state.phase is Phase.BID and state.forbidden_bid is not None
    return (state.spec.kind, state.phase.value, state.spec.cards, forbidden)


@pytest.mark.parametrize(
    "game_type, khishti, seed",
    [("standard", 200, 1), ("nines", 500, 2), ("short", 100, 3), ("full", "per_card", 4), ("full", 200, 5)],
)
def test_bot_moves_are_legal_in_random_classic_positions(game_type, khishti, seed):
    rng = random.Random(seed)
    coverage = Counter()
    asked = games = 0
    while asked < 600 or games < 2:
        state = ClassicState({"game_type": game_type, "khishti": khishti, "first_dealer": games % 4})
        asked += walk(state, rng, bot_share=0.6, effort=0.05, coverage=coverage)
        assert state.is_over()
        games += 1
    phases = {kind[1] for kind in coverage}
    assert {"bid", "play"} <= phases
    assert "trump" in phases  # every game type has 9-card deals, where a player names trump
    assert any(kind[3] for kind in coverage)  # the dealer faced a forbidden number
    if game_type == "full":
        kinds = {kind[0] for kind in coverage}
        assert kinds == {"normal", "golden", "no_trump", "dark", "misere"}
        assert ("dark", "bid", 9, False) in coverage or ("dark", "bid", 9, True) in coverage


def test_bot_moves_are_legal_when_every_seat_is_a_bot():
    rng = random.Random(11)
    coverage = Counter()
    state = ClassicState({"game_type": "full"})
    asked = walk(state, rng, bot_share=1.0, effort=0.05, coverage=coverage)
    assert state.is_over()
    assert asked > 1000


def test_bot_moves_are_legal_at_full_effort():
    rng = random.Random(12)
    coverage = Counter()
    asked = 0
    for game_type in ("standard", "full"):
        asked += walk(
            ClassicState({"game_type": game_type}),
            rng,
            bot_share=0.15,
            effort=1.0,
            coverage=coverage,
            limit=120,
        )
    japanese = JapaneseState({"target": 11})
    asked += walk(japanese, rng, bot_share=0.3, effort=1.0, coverage=coverage, limit=120)
    assert asked >= 240


@pytest.mark.parametrize("target, seed", [(11, 21), (21, 22), (31, 23)])
def test_bot_moves_are_legal_in_random_japanese_positions(target, seed):
    rng = random.Random(seed)
    coverage = Counter()
    asked = matches = 0
    while asked < 600:
        state = JapaneseState({"target": target, "first_declarer": matches % 2})
        asked += walk(state, rng, bot_share=0.6, effort=0.05, coverage=coverage)
        assert state.is_over()
        matches += 1
    assert {("japanese", "trump", False), ("japanese", "play", False), ("japanese", "play", True)} <= set(
        coverage
    )


def test_japanese_bot_plays_whole_matches_against_itself():
    rng = random.Random(31)
    coverage = Counter()
    state = JapaneseState({"target": 11})
    asked = walk(state, rng, bot_share=1.0, effort=0.05, coverage=coverage)
    assert state.is_over() and state.winners()
    assert asked > 100


def test_bot_refuses_to_move_for_a_seat_that_is_not_to_act():
    state = ClassicState()
    deal_from_deck(state, shuffled_deck(random.Random(1)))
    other = (state.to_act + 1) % 4
    with pytest.raises(ValueError):
        choose_action(state, other)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_moves_legally_in_every_kind_of_deal_and_both_variants(level):
    rng = random.Random(41)
    coverage = Counter()
    state = ClassicState({"game_type": "full", "khishti": "per_card"})
    walk(state, rng, bot_share=1.0, effort=0.05, coverage=coverage, level=level)
    assert state.is_over()
    assert {kind[0] for kind in coverage} == {"normal", "golden", "no_trump", "dark", "misere"}
    assert any(kind[3] for kind in coverage)  # a dealer faced the forbidden number
    for target in (11, 21):
        japanese = JapaneseState({"target": target})
        walk(japanese, rng, bot_share=1.0, effort=0.05, coverage=coverage, level=level)
        assert japanese.is_over() and japanese.winners()
    assert ("japanese", "play", True) in coverage


def test_an_unknown_level_is_refused_and_the_state_is_untouched():
    state = ClassicState()
    deal_from_deck(state, shuffled_deck(random.Random(1)))
    before = state.view(state.to_act)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(state, state.to_act, level="grandmaster")
    assert state.view(state.to_act) == before
