"""A match's record is an append-only log of actions, a row per version
(games/services/match_log.py): the log gives back exactly the joker-record/1 document
of every position, no action is lost or doubled when two processes race to move, a
process that catches up reads only the rows it has not seen, and the migration moves a
stored record into the log unchanged."""

import json
import multiprocessing
import random

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games import engine
from games.models import Match, MatchAction, MatchStatus
from games.services import match_log, matches
from games.services.matches import MatchError, load_state, perform
from tests.factories import player_at
from tests.replay_helpers import fresh, seated_match

GAMES = (("japanese", ("tamar", "levan"), {"target": 11}),
         ("classic", ("ana", "giorgi", "nino", "dato"), {"game_type": "short"}))


def _random_move(match, rng):
    state = engine.state_from_record(match.record)
    action = rng.choice(state.legal_actions(state.to_act)).to_record()
    return player_at(match, action.pop("seat")), action


@pytest.mark.django_db
@pytest.mark.parametrize(("variant", "names", "options"), GAMES)
def test_the_log_gives_back_the_exact_record_of_every_position(variant, names, options):
    match, _players = seated_match(variant, names, **options)
    rng = random.Random(3)
    while match.status == MatchStatus.RUNNING:
        player, action = _random_move(match, rng)
        outcome = perform(match.pk, player, action, match.version)
        match = fresh(match)
        assert match.record == engine.to_record(outcome.state, match.record["players"])
        assert json.dumps(match.record, sort_keys=True) == json.dumps(
            engine.to_record(engine.state_from_record(match.record), match.record["players"]), sort_keys=True)
    # One row per version, none rewritten; over, the row keeps the whole record, the same
    # as the log assembles.
    versions = list(MatchAction.objects.filter(match=match).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, match.version + 1))
    head = {key: match.document[key] for key in match_log.HEAD_KEYS}
    assert match_log.assemble(head, match.log_rows(match.version)) == match.document == match.record
    assert engine.replay_record(match.record)["ok"]


@pytest.mark.django_db
def test_an_earlier_version_reads_back_as_the_record_it_had():
    match, _players = seated_match("japanese", ("tamar", "levan"), target=11)
    rng = random.Random(8)
    records = {match.version: match.record}
    for _ in range(15):
        player, action = _random_move(match, rng)
        perform(match.pk, player, action, match.version)
        match = fresh(match)
        records[match.version] = match.record
    for version, record in records.items():
        then = fresh(match)
        then.version = version
        assert then.record == record


@pytest.mark.django_db
def test_a_process_catching_up_reads_only_the_new_rows():
    match, _players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    matches.forget_states()
    load_state(match)  # this process holds version 1 only
    rng = random.Random(5)
    for _ in range(6):  # moves made "elsewhere": their positions are never handed to this cache
        player, action = _random_move(match, rng)
        perform(match.pk, player, action, match.version)
        match = fresh(match)
        matches._states.pop(matches._state_key(match), None)
    matches._newest_version[matches._state_key(match)[:2]] = 1
    with CaptureQueriesContext(connection) as queries:
        state = load_state(match)
    assert len(queries) == 1, [q["sql"] for q in queries]
    sql = queries[0]["sql"]
    assert "games_matchaction" in sql and '"version" > 1' in sql and '"version" <= 7' in sql
    assert engine.to_record(state, match.record["players"]) == match.record


@pytest.mark.django_db
def test_a_move_writes_its_log_row_and_the_match_s_new_version_in_one_statement():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite (make run) writes through the ORM's statements")
    match, _players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    rng = random.Random(3)
    dealt = 0
    for _ in range(20):  # plain moves, and the first deal's end deals the second
        player, action = _random_move(match, rng)
        with CaptureQueriesContext(connection) as queries:
            perform(match.pk, player, action, match.version)
        writes = [q["sql"] for q in queries if q["sql"].startswith(("INSERT", "UPDATE", "WITH"))]
        assert len(writes) == 1 and "games_matchaction" in writes[0] and '"games_match"' in writes[0], writes
        dealt += "deal_commitments" in writes[0]
        match = fresh(match)
        assert MatchAction.objects.filter(match=match).count() == match.version
    assert dealt >= 1


@pytest.mark.django_db
def test_a_stale_or_repeated_move_writes_no_row():
    match, _players = seated_match("japanese", ("tamar", "levan"), target=11)
    player, action = _random_move(match, random.Random(2))
    perform(match.pk, player, action, match.version)
    rows = MatchAction.objects.filter(match=match).count()
    with pytest.raises(MatchError) as refused:
        perform(match.pk, player, action, match.version)  # the double tap: made against version 1
    assert refused.value.code == "stale_version"
    assert MatchAction.objects.filter(match=match).count() == rows == fresh(match).version


def _race(match_id, seed, moves, results):
    """One process: make `moves` moves for whoever is to act, from what it reads (another
    process moves the same match at the same time; a stale move is refused and retried)."""
    from django.db import connections

    from games.services import matches as process_matches

    connections.close_all()
    process_matches.forget_states()
    rng = random.Random(seed)
    made, refused = [], 0
    try:
        while len(made) < moves:
            match = Match.objects.select_related("table").get(pk=match_id)
            if match.status != MatchStatus.RUNNING:
                break
            state = load_state(match)
            action = rng.choice(state.legal_actions(state.to_act)).to_record()
            seat = action.pop("seat")
            try:
                outcome = perform(match_id, player_at(match, seat), action, match.version)
            except MatchError as error:
                assert error.code == "stale_version", error.code
                refused += 1
                continue
            made.append(outcome.version)
        results.put((made, refused, None))
    except Exception as error:
        results.put((made, refused, repr(error)))
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_two_processes_racing_lose_and_double_no_action():
    if connection.vendor != "postgresql":
        pytest.skip("two processes share a database on PostgreSQL (the tests' SQLite is in one process's memory)")
    match, _players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    start = match.version
    connections.close_all()  # the children open their own connections
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    racers = [context.Process(target=_race, args=(match.pk, seed, 25, results)) for seed in (1, 2)]
    for racer in racers:
        racer.start()
    outcomes = [results.get(timeout=120) for _ in racers]
    for racer in racers:
        racer.join(30)
    assert [error for _made, _refused, error in outcomes] == [None, None]
    made = sorted(v for versions, _refused, _error in outcomes for v in versions)
    match = fresh(match)
    # Every accepted move is one version of its own, and each version is one log row.
    assert made == list(range(start + 1, match.version + 1))
    versions = list(MatchAction.objects.filter(match=match).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, match.version + 1))
    state = engine.state_from_record(match.record)  # every logged action legal, in order
    moves = sum(len(deal["actions"]) for deal in match.record["deals"])
    first = MatchAction.objects.get(match=match, version=1).entries  # the first deal, no move yet
    assert moves == len(made) + sum(len(entry["deal"]["actions"]) for entry in first)
    assert engine.to_record(state, match.record["players"]) == match.record


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_stored_records_into_the_log_unchanged():
    from django.db.migrations.executor import MigrationExecutor

    running, _players = seated_match("japanese", ("tamar", "levan"), target=11)
    rng = random.Random(4)
    for _ in range(9):
        player, action = _random_move(running, rng)
        perform(running.pk, player, action, running.version)
        running = fresh(running)
    over, _players = seated_match("japanese", ("eka", "dato"), target=11)
    matches.resign(over.pk, _players[0])
    before = {m.pk: (m.version, m.record) for m in (fresh(running), fresh(over))}

    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0004_verbose_names")])
    old = MigrationExecutor(connection).loader.project_state([("games", "0004_verbose_names")]).apps
    OldMatch = old.get_model("games", "Match")
    assert {m.pk: m.record for m in OldMatch.objects.all()} == {pk: record for pk, (_v, record) in before.items()}
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    # Every app forward again: going back to games 0004 also undid the apps built on games
    # since (tournaments), which the tests after this one use.
    executor.migrate(executor.loader.graph.leaf_nodes())
    matches.forget_states()
    for pk, (version, record) in before.items():
        migrated = Match.objects.select_related("table").get(pk=pk)
        assert migrated.version == version and migrated.record == record
    # A migrated running match plays on: its next move is the next row.
    running = fresh(running)
    player, action = _random_move(running, rng)
    perform(running.pk, player, action, running.version)
    running = fresh(running)
    assert running.record == engine.to_record(engine.state_from_record(running.record), running.record["players"])
    assert list(MatchAction.objects.filter(match=running).values_list("version", flat=True).order_by("version")) == [
        before[running.pk][0], running.version]
