"""A process that holds an earlier position of a match brings it up to the stored record
with only the new actions (engine.catch_up, used by games/services/matches.py): the
result must be exactly the position a full replay of the record gives, for every seat's view."""

import random

import pytest

from games import engine
from games.engine import catch_up
from games.models import Match
from games.services import matches
from games.services import tables as table_service
from games.services.matches import load_state, perform
from games.services.tables import TableSettings
from tests.factories import make_player, player_at

VARIANTS = (("classic", {"game_type": "short"}), ("classic", {"game_type": "standard"}), ("japanese", {"target": 11}))


def _positions_of_a_random_game(variant, options, seed):
    """Every position of one random game, each with the record it is the position of."""
    rng = random.Random(seed)
    state = engine.new_state(variant, options)
    positions = []
    while True:
        if state.phase == engine.Phase.DEAL:
            engine.random_deal(state, rng)
        positions.append(state.copy())
        if state.phase == engine.Phase.GAME_OVER:
            return positions
        state.apply(rng.choice(state.legal_actions(state.to_act)))


def _same_position(a, b):
    assert engine.to_record(a) == engine.to_record(b)
    for seat in (None, *range(a.seats)):
        assert a.view(seat) == b.view(seat)


@pytest.mark.parametrize("variant,options", VARIANTS)
def test_an_earlier_position_caught_up_with_the_record_equals_the_full_replay(variant, options):
    positions = _positions_of_a_random_game(variant, options, seed=len(variant) + len(options))
    rng = random.Random(7)
    pairs = [(0, len(positions) - 1)] + [tuple(sorted(rng.sample(range(len(positions)), 2))) for _ in range(40)]
    for early, late in pairs:
        record = engine.to_record(positions[late])
        caught = positions[early].copy()
        catch_up(caught, record)
        _same_position(caught, engine.state_from_record(record))


def test_an_aborted_game_catches_up_to_its_end():
    positions = _positions_of_a_random_game("classic", {"game_type": "short"}, seed=3)
    ended = positions[40].copy()
    ended.end_game("abort")
    caught = positions[10].copy()
    catch_up(caught, engine.to_record(ended))
    _same_position(caught, engine.state_from_record(engine.to_record(ended)))


@pytest.mark.django_db
def test_a_process_holding_an_earlier_version_shows_the_stored_position(caplog):
    players = [make_player(name) for name in ("nino", "giorgi", "eka", "dato")]
    table = table_service.create_table(players[0], TableSettings(variant="classic", game_type="short"))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    match = Match.objects.select_related("table").get(table=table)
    matches.forget_states()
    load_state(match)  # this process now holds version 1 only
    rng = random.Random(5)
    for _ in range(12):  # moves whose positions this process is never handed
        state = engine.state_from_record(match.record)
        action = rng.choice(state.legal_actions(state.to_act)).to_record()
        perform(match.pk, player_at(match, action.pop("seat")), action, match.version)
        match = Match.objects.select_related("table").get(pk=match.pk)
    assert (match.pk, match.created_at, 1) in matches._states
    _same_position(load_state(match), engine.state_from_record(match.record))
    assert "replaying it whole" not in caplog.text  # each position came from the shortcut
