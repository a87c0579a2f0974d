"""Property tests over random games (hypothesis draws the seeds and the positions).

At every checked step: all 36 cards are accounted for, tricks add up, every
legal action applies and other actions are refused leaving the state exactly
as it was, no view shows a card its seat may not see. At the end: export and
replay give the same scores, and the replay fast lane agrees with the plain
``apply`` path.
"""

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Bid,
    ChooseTrump,
    ClassicState,
    IllegalAction,
    JapaneseState,
    Phase,
    Play,
    action_from_record,
    play_random,
    replay_record,
    to_record,
)
from games.engine.cards import CARD_NAMES, mask_to_cards
from games.engine.errors import RecordError
from games.engine.record import state_from_record
from games.engine.state import GameState
from tests.view_cards import cards_of_this_deal

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLASSIC_TYPES = st.sampled_from(["standard", "nines", "short", "full"])


def cards_in(value) -> set[str]:
    """Every card name a view shows of the deal being played (tests/view_cards.py)."""
    return cards_of_this_deal(value)


def fingerprint(state):
    """Everything a state holds, for "nothing changed" checks."""
    out = []
    for name in GameState.__slots__ + type(state).__slots__:
        value = getattr(state, name)
        if isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        out.append((name, value))
    return tuple(out), state.view(None)


# --- invariants -------------------------------------------------------------------------------


def played_this_deal(state):
    return [CARD_NAMES[entry[2]] for entry in state._actions if entry[0] == 2]


def check_cards_accounted_for(state):
    if state.phase not in (Phase.TRUMP, Phase.BID, Phase.PLAY):
        return
    played = played_this_deal(state)
    if state.variant == "classic":
        held = [c for s in range(4) for c in state.hand(s)]
        turned = [state.trump_card] if state.trump_card else []
        dealt = held + played + turned
        n = state.spec.cards
        assert len(dealt) == len(set(dealt)) == 4 * n + (1 if n < 9 else 0)
        assert len(played) == 4 * state._tricks_played + state._pos
    else:
        held = state.hand(0) + state.hand(1) + state.face_up(0) + state.face_up(1)
        down = [CARD_NAMES[col[0]] for s in (0, 1) for col in state._cols[s] if col is not None]
        every = held + down + played
        assert len(every) == len(set(every)) == 36


def check_tricks_add_up(state):
    if state.phase is Phase.PLAY:
        assert sum(state.taken) == state._tricks_played
    for result in state.results:
        assert sum(result.tricks) == (result.cards if state.variant == "classic" else 18)


def check_views(state):
    hidden_from = {}
    for seat in [None, *range(state.seats)]:
        hidden = set()
        for other in range(state.seats):
            if other != seat:
                hidden |= set(state.hand(other))
        if state.variant == "japanese" and state._cols is not None and state.phase is not Phase.DEAL:
            hidden |= {CARD_NAMES[col[0]] for s in (0, 1) for col in state._cols[s] if col is not None}
            if state.phase is Phase.TRUMP:
                hidden |= set(state.face_up(0) + state.face_up(1))
        if seat is not None and state.phase is Phase.TRUMP:
            first_three = {CARD_NAMES[c] for c in state._dealt[seat][:3]}
            hidden |= set(state.hand(seat)) - first_three
        if state.variant == "classic" and seat is not None and state.phase is Phase.BID and state.spec.kind == "dark":
            hidden |= set(state.hand(seat))
        hidden_from[seat] = hidden
        assert not cards_in(state.view(seat)) & hidden, (seat, cards_in(state.view(seat)) & hidden)


def other_actions(state, rng):
    """Actions that are not legal now: wrong seats, wrong kinds, cards not allowed."""
    seat = state.to_act
    legal = set(state.legal_actions(seat))
    candidates = [
        Play((seat + 1) % state.seats, rng.choice(CARD_NAMES)),
        Bid(seat, rng.randrange(-1, 11)),
        ChooseTrump(seat, rng.choice(["S", "H", None, "Q"])),
        Play(seat, rng.choice(CARD_NAMES)),
        Play(seat, rng.choice(CARD_NAMES), rng.choice([None, "take", "discard"]), rng.choice([None, "S", "D"])),
        Play(seat, "6S"),
    ]
    return [a for a in candidates if a not in legal and not (state.variant == "japanese" and _japanese_equivalent(a, legal))]


def _japanese_equivalent(action, legal):
    # In Japanese Joker "take" may be said with a joker; it is the same move.
    return type(action) is Play and action.joker == "take" and action._replace(joker=None) in legal


def check_actions(state, rng):
    seat = state.to_act
    if seat is None:
        return
    legal = state.legal_actions(seat)
    assert legal, "a seat to act always has a legal action"
    for action in legal:
        trial = state.copy()
        assert trial.is_legal(action)
        trial.apply(action)
    before = fingerprint(state)
    for action in other_actions(state, rng):
        assert not state.is_legal(action), action
        try:
            state.apply(action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{action} was applied")
        assert fingerprint(state) == before
    for other in range(state.seats):
        if other != seat:
            assert state.legal_actions(other) == []


def walk(state, rng, steps):
    """Check the invariants on ``steps`` consecutive positions, moving by random legal actions."""
    for _ in range(steps):
        if state.is_over():
            return
        check_cards_accounted_for(state)
        check_tricks_add_up(state)
        check_views(state)
        check_actions(state, rng)
        if state.phase is Phase.DEAL:
            play_random(state, rng, max_moves=1)
        else:
            state.apply(rng.choice(state.legal_actions(state.to_act)))


@SETTINGS
@given(seed=st.integers(0, 2**32), game_type=CLASSIC_TYPES, skip=st.integers(0, 600), steps=st.integers(1, 60))
def test_classic_invariants_hold_at_every_step(seed, game_type, skip, steps):
    rng = random.Random(seed)
    state = ClassicState({"game_type": game_type, "first_dealer": seed % 4})
    play_random(state, rng, max_moves=skip)
    walk(state, rng, steps)


@SETTINGS
@given(seed=st.integers(0, 2**32), skip=st.integers(0, 200), steps=st.integers(1, 60))
def test_japanese_invariants_hold_at_every_step(seed, skip, steps):
    rng = random.Random(seed)
    state = JapaneseState({"target": 21, "first_declarer": seed % 2})
    play_random(state, rng, max_moves=skip)
    walk(state, rng, steps)


# --- records ------------------------------------------------------------------------------------


def slow_replay(doc):
    """The plain path: deal, then ``apply(action_from_record(...))`` one by one."""
    try:
        state = state_from_record({**doc, "deals": []})
        for i, deal in enumerate(doc["deals"]):
            if state.variant == "classic":
                state.deal(deal["hands"], deal.get("trump_card"))
            else:
                state.deal(deal["hands"], deal["columns"])
            for j, rec in enumerate(deal["actions"]):
                try:
                    state.apply(action_from_record(rec))
                except IllegalAction as e:
                    return ("refused", i, j, e.code)
    except RecordError as e:
        return ("refused", e.deal, e.action, e.code)
    return ("ok", state.scores())


def fast_replay(doc):
    verdict = replay_record(doc)
    if verdict["ok"]:
        return ("ok", {k: v for k, v in verdict.items() if k != "ok"})
    return ("refused", verdict["deal"], verdict["action"], verdict["error"].split(":")[0])


@SETTINGS
@given(seed=st.integers(0, 2**32), game_type=CLASSIC_TYPES, moves=st.integers(0, 2000))
def test_classic_export_then_replay_reproduces_the_scores(seed, game_type, moves):
    state = ClassicState({"game_type": game_type, "first_dealer": seed % 4, "khishti": 500})
    play_random(state, random.Random(seed), max_moves=moves)
    doc = to_record(state)
    assert replay_record(doc) == {"ok": True, **state.scores()}
    again = state_from_record(doc)
    assert to_record(again) == doc
    if doc["deals"]:  # with no deal yet the record cannot say who deals first
        assert all(again.view(s) == state.view(s) for s in (None, 0, 1, 2, 3))


@SETTINGS
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 400))
def test_japanese_export_then_replay_reproduces_the_scores(seed, moves):
    state = JapaneseState({"target": 11})
    play_random(state, random.Random(seed), max_moves=moves)
    doc = to_record(state)
    assert replay_record(doc) == {"ok": True, **state.scores()}
    assert to_record(state_from_record(doc)) == doc


def mutate(doc, rng):
    """Change one action of a record to something else."""
    deals = [d for d in doc["deals"] if d["actions"]]
    if not deals:
        return doc
    deal = rng.choice(deals)
    j = rng.randrange(len(deal["actions"]))
    rec = deal["actions"][j]
    choice = rng.randrange(5)
    if choice == 0 and "play" in rec:
        rec["play"] = rng.choice(CARD_NAMES)
    elif choice == 1:
        rec["seat"] = rng.randrange(5)
    elif choice == 2 and "bid" in rec:
        rec["bid"] = rng.randrange(-1, 11)
    elif choice == 3 and "play" in rec:
        rec["joker"] = rng.choice(["take", "discard"])
    else:
        deal["actions"].insert(j, dict(rng.choice(deal["actions"])))
    return doc


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["classic", "japanese"]), moves=st.integers(0, 700))
def test_replay_fast_lane_agrees_with_plain_apply_on_good_and_broken_records(seed, variant, moves):
    rng = random.Random(seed)
    state = ClassicState({"game_type": "short"}) if variant == "classic" else JapaneseState({"target": 11})
    play_random(state, rng, max_moves=moves)
    doc = to_record(state)
    assert fast_replay(doc) == slow_replay(doc)
    broken = mutate(copy.deepcopy(doc), rng)
    assert fast_replay(broken) == slow_replay(broken)


def test_hands_are_dealt_exactly_once_across_a_full_game():
    state = ClassicState({"game_type": "full"})
    rng = random.Random(99)
    while not state.is_over():
        play_random(state, rng, max_moves=1)
        if state.phase is Phase.BID and state._bid_count == 0 and state.spec.cards < 9:
            held = [c for s in range(4) for c in mask_to_cards(state.hands[s])]
            assert len(held) == len(set(held)) == 4 * state.spec.cards
