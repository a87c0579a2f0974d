"""The bot decides from its seat's view alone: the very JSON a protocol client receives.

- the move chosen from the view's JSON text is the move chosen from the state;
- the bot never asks the state for its record, a hand or a copy (a state that refuses
  to give them is played just the same);
- two deals that look the same from the seat (the same cards for it, the same cards
  played, the other players' unplayed cards exchanged) give the same move under the
  same seed, although the deals differ.
"""

import copy
import json
import random

import pytest

from games.engine import ClassicState, JapaneseState, Phase, play_random, state_from_record, to_record
from games.engine.bot import LEVELS, choose_action, choose_from_view
from games.engine.errors import RecordError


def _positions(variant: str, count: int, seed: int):
    """Positions in the middle of a deal with a real choice for the seat to act."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        if variant == "classic":
            state = ClassicState({"game_type": "full", "first_dealer": rng.randrange(4)})
            play_random(state, rng, until_deal=rng.choice([5, 8, 12, 24, 30, 33, 38]))
        else:
            state = JapaneseState({"target": 31})
            play_random(state, rng, until_deal=rng.randrange(2))
        play_random(state, rng, max_moves=1 + rng.randrange(30))
        if state.phase in (Phase.BID, Phase.PLAY) and len(state.legal_actions(state.to_act)) > 1:
            found += 1
            yield state


class _Sealed:
    """Refuses what the bot must never read: the record (every hand), a hand, a copy."""

    __slots__ = ()

    def record_deals(self):
        raise AssertionError("the bot read the record")

    def hand(self, seat):
        raise AssertionError("the bot read a hand")

    def copy(self):
        raise AssertionError("the bot copied the state")


class SealedClassic(_Sealed, ClassicState):
    __slots__ = ()


class SealedJapanese(_Sealed, JapaneseState):
    __slots__ = ()


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", ["classic", "japanese"])
def test_the_bots_move_from_the_views_json_is_its_move_from_the_state(variant, level):
    for k, state in enumerate(_positions(variant, 12, seed=3)):
        seat = state.to_act
        text = json.dumps(state.view(seat))
        from_view = choose_from_view(text, random.Random(k), effort=0.3, level=level)
        state.__class__ = SealedClassic if variant == "classic" else SealedJapanese
        assert choose_action(state, seat, random.Random(k), effort=0.3, level=level) == from_view
        assert state.is_legal(from_view)


def _unplayed(deal, seat):
    played = {a["play"] for a in deal["actions"] if "play" in a}
    return [i for i, card in enumerate(deal["hands"][seat]) if card not in played]


def _same_looking_deal(state, seat):
    """The game with two unplayed cards of two other seats exchanged, if the moves still replay."""
    doc = to_record(state)
    deal = doc["deals"][-1]
    others = [s for s in range(state.seats) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for i in _unplayed(deal, a):
                for j in _unplayed(deal, b):
                    other = copy.deepcopy(doc)
                    hands = other["deals"][-1]["hands"]
                    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
                    try:
                        return state_from_record(other)
                    except RecordError:
                        continue
    return None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", ["classic", "japanese"])
def test_two_deals_that_look_the_same_from_the_seat_give_the_same_move_under_the_same_seed(variant, level):
    pairs = 0
    for k, state in enumerate(_positions(variant, 10, seed=11)):
        seat = state.to_act
        other = _same_looking_deal(state, seat) if state.seats == 4 else _japanese_same_looking_deal(state, seat)
        if other is None:
            continue
        assert other.record_deals() != state.record_deals()
        assert other.view(seat) == state.view(seat)
        assert choose_action(other, seat, random.Random(k), effort=0.3, level=level) == choose_action(
            state, seat, random.Random(k), effort=0.3, level=level
        )
        pairs += 1
    assert pairs >= 6


def _japanese_same_looking_deal(state, seat):
    """Japanese: an unplayed card of the opponent's hand exchanged with a face-down card still under a column."""
    doc = to_record(state)
    deal = doc["deals"][-1]
    opponent = 1 - seat
    view = state.view(seat)
    downs = [(s, c) for s in (0, 1) for c, col in enumerate(view["columns"][s]) if col is not None]
    for i in _unplayed(deal, opponent):
        for s, c in downs:
            other = copy.deepcopy(doc)
            od = other["deals"][-1]
            od["hands"][opponent][i], od["columns"][s][c][0] = od["columns"][s][c][0], od["hands"][opponent][i]
            try:
                rebuilt = state_from_record(other)
            except RecordError:
                continue
            if rebuilt.view(seat) == view:
                return rebuilt
    return None


@pytest.mark.parametrize("variant", ["classic", "japanese"])
def test_the_previous_deals_tricks_a_view_recalls_are_no_cards_of_the_new_deal_to_the_bot(variant):
    """Until a deal's first card the view recalls the deal before (its final trick and tricks);
    the bot's observation of the new deal counts none of those cards as played."""
    from games.engine.bot import observe

    state = ClassicState({"game_type": "standard", "first_dealer": 0}) if variant == "classic" \
        else JapaneseState({"target": 31})
    rng = random.Random(8)
    play_random(state, rng, until_deal=1)
    play_random(state, rng, max_moves=1)  # the second deal is dealt
    while state.phase is not Phase.PLAY:
        play_random(state, rng, max_moves=1)  # the trump choice and the bids
    assert state.view(state.to_act)["tricks"]  # the view still recalls the first deal
    assert observe(state, state.to_act).plays == []
