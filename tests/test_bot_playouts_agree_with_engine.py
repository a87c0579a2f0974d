"""The bot's fast playouts and the engine play by the same rules (games/engine/rules.py).

Hypothesis draws a position of a real game; the bot's playout plays the rest of the
deal from the true cards (purposeful, random or mixed moves), and every card it
played is then applied to the engine: each must be among the engine's legal
actions, the follower's legal cards must be the same mask on both sides, each
trick must go to the seat the bot's playout let lead next, and at the end the
tricks and deal scores must be the ones the bot counted.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    ClassicState,
    JapaneseState,
    Phase,
    Play,
    bot_classic,
    bot_japanese,
    play_random,
    random_deal,
)
from games.engine.classic import PLANS
from games.engine.rules import (
    CARD_NAMES,
    GOLDEN,
    MISERE,
    MODE_NAMES,
    MODE_TAKE,
    NORMAL,
    SUIT_MASK,
    SUITS,
    classic_trick_winner,
    japanese_deal_scores,
    japanese_follower_wins,
    lead_of,
    legal_follow,
    player_score,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RATIONAL = st.sampled_from([0.0, 0.6, 1.0])  # random moves, the bot's mix, the policy alone


def _play_of(seat, card, mode, named) -> Play:
    return Play(seat, CARD_NAMES[card], MODE_NAMES[mode], SUITS[named] if named >= 0 else None)


def _engine_follow_mask(state, seat) -> int:
    """The follow rule on the seat's available cards, from the trick's lead (None for a leader)."""
    if not state.trick:
        return None
    _, _seat, card, mode, named = state.trick[0]
    japanese = state.variant == "japanese"
    led, must_high = lead_of(card, MODE_TAKE if japanese else mode, named)
    trump_mask = SUIT_MASK[state._trump] if state._trump >= 0 else 0
    return legal_follow(state._available(seat), led, must_high, trump_mask)


def _apply_trace(state, trace, trick_winner):
    """Apply the bot's cards to the engine, checking each against its rules; returns the plays by trick."""
    trick = [(e[1], e[2], e[3], e[4]) for e in state.trick]
    for seat, card, mode, named in trace:
        assert state.to_act == seat  # the bot let the trick's winner lead, as the engine does
        expected = _engine_follow_mask(state, seat)
        if expected is not None:
            assert state._legal_mask(seat) == expected
        action = _play_of(seat, card, mode, named)
        assert action in state.legal_actions(seat)
        state.apply(action)
        trick.append((seat, card, mode, named))
        if len(trick) == state.seats:
            assert state.last_trick[1] == trick_winner(trick)
            trick = []


def _classic_position(seed: int, deal_index: int, cards_in: int):
    rng = random.Random(seed)
    state = ClassicState({"game_type": "full", "first_dealer": seed % 4, "khishti": rng.choice([100, 200, 500, "per_card"])})
    play_random(state, rng, until_deal=deal_index)
    random_deal(state, rng)
    while state.phase is not Phase.PLAY:
        play_random(state, rng, max_moves=1)
    play_random(state, rng, max_moves=cards_in % (4 * state.spec.cards))
    return state


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    deal_index=st.integers(0, len(PLANS["full"]) - 1),
    cards_in=st.integers(0, 35),
    rational=RATIONAL,
)
def test_classic_playout_plays_legal_cards_and_counts_tricks_and_scores_as_the_engine(
    seed, deal_index, cards_in, rational
):
    state = _classic_position(seed, deal_index, cards_in)
    spec = state.spec
    kind = spec.kind if spec.kind in (GOLDEN, MISERE) else NORMAL
    trump = state._trump
    bids = list(state.bids)
    trace = []
    taken = bot_classic.playout(
        list(state.hands),
        trump,
        [(e[1], e[2], e[3], e[4]) for e in state.trick],
        state.leader,
        spec.cards - state._tricks_played,
        list(state.taken),
        bids,
        kind,
        random.Random(seed + 1).random,
        [rational] * 4,
        trace,
    )
    _apply_trace(state, trace, lambda trick: classic_trick_winner(trick, trump))
    result = state.results[-1]
    assert result.index == spec.index
    assert list(result.tricks) == taken
    khishti = state.options.khishti
    assert list(result.scores) == [player_score(kind, bids[s], taken[s], spec.cards, khishti) for s in range(4)]


def _japanese_position(seed: int, deal_index: int, cards_in: int):
    rng = random.Random(seed)
    state = JapaneseState({"target": 31, "first_declarer": seed % 2})
    play_random(state, rng, until_deal=deal_index)
    if state.is_over():
        return None
    random_deal(state, rng)
    play_random(state, rng, max_moves=1 + cards_in)  # the trump choice, then some cards
    return state


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    deal_index=st.integers(0, 2),
    cards_in=st.integers(0, 35),
    rational=RATIONAL,
    joker_wise=st.booleans(),
)
def test_japanese_playout_plays_legal_cards_and_counts_tricks_and_scores_as_the_engine(
    seed, deal_index, cards_in, rational, joker_wise
):
    state = _japanese_position(seed, deal_index, cards_in)
    if state is None or state.phase is not Phase.PLAY:
        return
    trump = state._trump
    cols = [[[down, up] for down, up in (c for c in state._cols[s] if c is not None)] for s in (0, 1)]
    table = bot_japanese._Table(list(state.hands), cols, list(state._first_done))
    lead = None
    if state.trick:
        _, seat, card, _mode, named = state.trick[0]
        lead = (seat, card, named)
    trace = []
    taken = bot_japanese.playout(
        table,
        trump,
        lead,
        state.leader,
        18 - state._tricks_played,
        list(state.taken),
        random.Random(seed + 1).random,
        [rational, rational],
        trace,
        joker_wise,
    )

    def winner(trick):
        (lead_seat, lead_card, _, named), (follow_seat, follow_card, _, _) = trick
        return follow_seat if japanese_follower_wins(lead_card, named, follow_card, trump) else lead_seat

    deal_index = state.deal_index
    _apply_trace(state, [(seat, card, 0, named) for seat, card, named in trace], winner)
    result = state.results[-1]
    assert result.index == deal_index
    assert list(result.tricks) == taken
    assert result.scores == japanese_deal_scores(taken)
