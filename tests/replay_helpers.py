"""Matches for the replay and fairness tests, made and played through the real services."""

import random
from contextlib import contextmanager

from django.db import transaction

from games.models import Match, MatchStatus
from games.services import tables as table_service
from games.services.matches import load_state, perform
from games.services.tables import TableSettings
from tests.factories import make_player, player_at


def seated_match(variant="japanese", names=("tamar", "levan"), **options):
    """Players sit down until the table is full; the match starts by itself."""
    players = [make_player(n) for n in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, **options))
    for p in players[1:]:
        table_service.sit(table.pk, p)
    return Match.objects.select_related("table").get(table=table), players


def fresh(match):
    return Match.objects.select_related("table").get(pk=match.pk)


def random_move(match, rng):
    """The seat to act in `match` (as read) makes a random legal move through `perform`: its Outcome."""
    state = load_state(match)
    seat = state.to_act
    return perform(match.pk, player_at(match, seat), random_action(state, rng), match.version)


def random_action(state, rng) -> dict:
    """A random legal action of the seat to act in `state`, as the record writes it."""
    return rng.choice(state.legal_actions(state.to_act)).to_record()


def play_moves(match, rng, moves=None):
    """The seat to act makes a random legal move through `perform`, `moves` times or to the end.
    Each move's Outcome carries the position and the seats it left, so the next move is chosen
    from them without reading the match again (the moves are those `random_move` would make)."""
    match = fresh(match)
    if match.status != MatchStatus.RUNNING:
        return match
    state, version, seats = load_state(match), match.version, match.table.seats.all()
    done = 0
    while moves is None or done < moves:
        player = next(s.player for s in seats if s.index == state.to_act)
        outcome = perform(match.pk, player, random_action(state, rng), version)
        done += 1
        if outcome.finished:
            break
        state, version, seats = outcome.state, outcome.version, outcome.match.table.seats.all()
    return fresh(match)


def finished_match(variant="japanese", names=("tamar", "levan"), seed=5, **options):
    match, players = seated_match(variant, names, **options)
    match = play_moves(match, random.Random(seed))
    assert match.status == MatchStatus.FINISHED
    return match, players


@contextmanager
def kept_for_the_module(django_db_blocker):
    """Data made once for a test module (a whole match takes seconds to play): made in a
    transaction the module's tests run inside (each in its own savepoint) and rolled back
    when the module is done, so nothing leaks into other tests."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)
