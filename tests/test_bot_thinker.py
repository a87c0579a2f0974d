"""A master bot's move at a live table is thought in a worker process (games/bot_thinker.py):
the same move the engine's bot makes in the thread, and a worker that died costs no move."""

import os
import random
from concurrent.futures.process import BrokenProcessPool

import pytest

from games import bot_thinker
from games.engine import ClassicState, JapaneseState, Phase, deal_from_deck, play_random, shuffled_deck
from games.engine.bot import choose_action


def _positions():
    rng = random.Random(5)
    classic = ClassicState({"game_type": "standard"})
    deal_from_deck(classic, shuffled_deck(rng))
    play_random(classic, rng, max_moves=6)
    japanese = JapaneseState({"target": 11})
    play_random(japanese, rng, max_moves=5)
    return [state for state in (classic, japanese) if state.phase in (Phase.BID, Phase.PLAY)]


def test_the_master_thought_in_a_worker_process_makes_the_move_it_makes_in_the_thread():
    positions = _positions()
    assert len(positions) == 2
    for state in positions:
        seat = state.to_act
        assert bot_thinker.bot_action(state, seat, "master") == choose_action(state, seat, level="master")


def test_a_worker_that_died_is_replaced_and_the_move_is_still_made():
    state = _positions()[0]
    seat = state.to_act
    expected = choose_action(state, seat, level="master")
    pool = bot_thinker._thinkers()
    with pytest.raises(BrokenProcessPool):
        pool.submit(os._exit, 1).result()  # a worker dies: the pool is broken
    assert bot_thinker.bot_action(state, seat, "master") == expected
    assert bot_thinker._thinkers() is not pool
    assert bot_thinker.bot_action(state, seat, "master") == expected


def test_beginner_and_club_moves_are_made_in_the_thread_without_a_pool(monkeypatch):
    monkeypatch.setattr(bot_thinker, "_pool", None)
    state = _positions()[0]
    for level in ("beginner", "club"):
        assert bot_thinker.bot_action(state, state.to_act, level) == choose_action(state, state.to_act, level=level)
    assert bot_thinker._pool is None


def test_a_lessons_hint_is_thought_in_a_worker_process_and_is_the_advice_of_the_thread(monkeypatch):
    from games.engine.advice import advise
    from lessons import practice

    monkeypatch.setattr(bot_thinker, "_pool", None)
    state = practice.load(practice.new_record("classic", random.Random(3)))
    try:
        hint = practice.hint(state)
        assert bot_thinker._pool is not None  # the pool was started for the hint
        assert hint["action"] == advise(state.view(practice.LEARNER)).to_dict()["action"]
    finally:
        if bot_thinker._pool is not None:
            bot_thinker._pool.shutdown()
