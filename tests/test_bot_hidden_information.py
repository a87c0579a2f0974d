"""The bot never reads hidden information.

Each check takes a game in progress, rebuilds it from its record with the cards the bot seat
cannot see (the other players' unplayed cards, the undealt cards, in Japanese also every
face-down card still under a column) dealt differently, keeps the rebuilt game only if the
same moves are still legal in it, and then requires that the bot seat's view is identical and
that the bot makes the same move with the same random seed (and with no seed).
"""

import copy
import random

import pytest

from games.engine import (
    ClassicState,
    JapaneseState,
    Phase,
    deal_from_deck,
    full_deck,
    shuffled_deck,
    state_from_record,
    to_record,
)
from games.engine.bot import LEVELS, choose_action, observe
from games.engine.errors import RecordError


def random_move(state, seat, rng):
    actions = state.legal_actions(seat)
    if state.phase is not Phase.PLAY:
        return rng.choice(actions)
    card = rng.choice(sorted({a.card for a in actions}))
    return rng.choice([a for a in actions if a.card == card])


def _advance(state, rng, moves):
    """Random play for about ``moves`` moves, stopping inside a deal (never between deals)."""
    for _ in range(moves):
        if state.is_over():
            break
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(rng))
            continue
        state.apply(random_move(state, state.to_act, rng))
    if state.phase is Phase.DEAL:
        deal_from_deck(state, shuffled_deck(rng))


def _played_cards(deal):
    return {a["play"] for a in deal["actions"] if "play" in a}


def _classic_rebuilt(state, seat, rng):
    """The same game with the cards ``seat`` cannot see dealt again, or None if no such deal fits."""
    doc = to_record(state)
    deal = doc["deals"][-1]
    played = _played_cards(deal)
    slots = [(s, i) for s in range(4) if s != seat for i, c in enumerate(deal["hands"][s]) if c not in played]
    if len(slots) < 2:
        return None
    dealt = {c for hand in deal["hands"] for c in hand} | (
        {deal["trump_card"]} if "trump_card" in deal else set()
    )
    pool = [deal["hands"][s][i] for s, i in slots] + [c for c in full_deck() if c not in dealt]
    for _ in range(200):
        cards = rng.sample(pool, len(slots))
        new = copy.deepcopy(doc)
        for (s, i), card in zip(slots, cards):
            new["deals"][-1]["hands"][s][i] = card
        if new["deals"][-1]["hands"] == deal["hands"]:
            continue
        try:
            return state_from_record(new)
        except RecordError:
            continue
    return None


def _japanese_rebuilt(state, seat, rng):
    doc = to_record(state)
    deal = doc["deals"][-1]
    played = _played_cards(deal)
    view = state.view(seat)
    visible = set(view["hand"]) | {col["up"] for cols in view["columns"] for col in cols if col} | played
    slots = [
        ("hands", s, i, None) for s in (0, 1) for i, c in enumerate(deal["hands"][s]) if c not in visible
    ]
    slots += [
        ("columns", s, c, 0)
        for s in (0, 1)
        for c, col in enumerate(deal["columns"][s])
        if col[0] not in visible
    ]
    if len(slots) < 2:
        return None

    def get(d, slot):
        where, s, i, k = slot
        return d[where][s][i] if k is None else d[where][s][i][k]

    def put(d, slot, card):
        where, s, i, k = slot
        if k is None:
            d[where][s][i] = card
        else:
            d[where][s][i][k] = card

    cards = [get(deal, slot) for slot in slots]
    for _ in range(200):
        shuffled = rng.sample(cards, len(cards))
        if shuffled == cards:
            continue
        new = copy.deepcopy(doc)
        for slot, card in zip(slots, shuffled):
            put(new["deals"][-1], slot, card)
        try:
            return state_from_record(new)
        except RecordError:
            continue
    return None


def _check_same_decision(state, other, seat, level):
    assert other.view(seat) == state.view(seat)
    assert observe(other, seat) == observe(state, seat)
    assert to_record(other) != to_record(state)  # the hidden cards really differ
    assert choose_action(state, seat, random.Random(99), effort=0.3, level=level) == choose_action(
        other, seat, random.Random(99), effort=0.3, level=level
    )
    assert choose_action(state, seat, effort=0.3, level=level) == choose_action(other, seat, effort=0.3, level=level)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_type", ["standard", "full"])
def test_classic_bot_decides_the_same_whatever_the_cards_it_cannot_see(game_type, level):
    rng = random.Random(7)
    checked = 0
    phases = set()
    for trial in range(60):
        state = ClassicState({"game_type": game_type, "first_dealer": trial % 4})
        _advance(state, rng, rng.randrange(1, 900))
        if state.is_over():
            continue
        seat = state.to_act
        other = _classic_rebuilt(state, seat, rng)
        if other is None:
            continue
        _check_same_decision(state, other, seat, level)
        phases.add(state.phase)
        checked += 1
    assert checked >= 30
    assert {Phase.BID, Phase.PLAY} <= phases


@pytest.mark.parametrize("level", LEVELS)
def test_japanese_bot_decides_the_same_whatever_the_cards_it_cannot_see(level):
    rng = random.Random(8)
    checked = 0
    for trial in range(50):
        state = JapaneseState({"target": 31, "first_declarer": trial % 2})
        _advance(state, rng, rng.randrange(1, 120))
        if state.is_over() or state.phase is not Phase.PLAY:
            continue
        seat = state.to_act
        other = _japanese_rebuilt(state, seat, rng)
        if other is None:
            continue
        _check_same_decision(state, other, seat, level)
        checked += 1
    assert checked >= 25
