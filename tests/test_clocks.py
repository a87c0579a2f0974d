"""Move clocks, disconnects, resignations and forfeits (rules.md 3.6); where the clocks live."""

import ast
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connections
from django.utils import timezone

from games.models import Match, MatchStatus, Seat, TableStatus
from games.services import presence
from games.services import tables as table_service
from games.services.matches import (
    TIMEOUTS_BEFORE_GONE,
    MatchError,
    clock_ran_out,
    grace_ran_out,
    load_state,
    perform,
    resign,
)
from games.services.tables import TableSettings
from games.tasks import sweep, tick
from tests.factories import make_player, player_at


def _match(variant="japanese", names=("tamar", "levan"), **options):
    players = [make_player(n) for n in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, **options))
    for p in players[1:]:
        table_service.sit(table.pk, p)
    return Match.objects.get(table=table), players


def _fresh(match):
    return Match.objects.select_related("table").get(pk=match.pk)


@pytest.mark.django_db
def test_clock_running_out_makes_one_legal_move_for_the_player():
    match, _ = _match()
    before = load_state(match)
    seat = before.to_act
    assert clock_ran_out(match.pk, match.version)
    match = _fresh(match)
    after = load_state(match)
    assert match.version == 2
    assert len(after.record_deals()[-1]["actions"]) == 1
    assert after.record_deals()[-1]["actions"][0]["seat"] == seat
    assert Seat.objects.get(table=match.table, index=seat).timeouts_in_row == 1


@pytest.mark.django_db
def test_a_stale_or_repeated_clock_does_nothing():
    match, _ = _match()
    assert clock_ran_out(match.pk, 1)
    assert not clock_ran_out(match.pk, 1)  # the same task delivered again
    assert _fresh(match).version == 2


@pytest.mark.django_db
def test_own_move_resets_the_run_of_timeouts():
    match, _ = _match()
    state = load_state(match)
    declarer = state.to_act
    clock_ran_out(match.pk, 1)  # the bot chose trump; now the declarer leads
    match = _fresh(match)
    state = load_state(match)
    assert state.to_act == declarer
    perform(match.pk, player_at(match, declarer), state.legal_actions(declarer)[0].to_record(), match.version)
    assert Seat.objects.get(table=match.table, index=declarer).timeouts_in_row == 0


@pytest.mark.django_db
def test_japanese_player_whose_clock_runs_out_three_times_in_a_row_loses_the_match():
    match, _players = _match()
    first = load_state(match).to_act
    for _ in range(10):
        match = _fresh(match)
        if match.status != MatchStatus.RUNNING:
            break
        state = load_state(match)
        if state.to_act == first:
            clock_ran_out(match.pk, match.version)
        else:
            seat = state.to_act
            perform(match.pk, player_at(match, seat), state.legal_actions(seat)[0].to_record(), match.version)
    match = _fresh(match)
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "forfeit" and match.end_seat == first
    assert match.winners == [1 - first]
    assert match.record["end"] == {"reason": "forfeit", "seat": first}
    assert TIMEOUTS_BEFORE_GONE == 3


@pytest.mark.django_db
def test_player_back_before_the_grace_ends_keeps_the_seat():
    match, players = _match()
    seat_id = presence.connected(match.table_id, players[0])
    presence.disconnected(seat_id)
    gone_at = Seat.objects.get(pk=seat_id).disconnected_at
    assert gone_at is not None
    presence.connected(match.table_id, players[0])  # back a second before the end
    assert not grace_ran_out(seat_id, gone_at)
    assert _fresh(match).status == MatchStatus.RUNNING


@pytest.mark.django_db
def test_japanese_player_not_back_in_time_loses_and_the_opponent_wins():
    match, players = _match()
    seat_id = presence.connected(match.table_id, players[0])
    presence.disconnected(seat_id)
    seat = Seat.objects.get(pk=seat_id)
    assert grace_ran_out(seat_id, seat.disconnected_at)
    match = _fresh(match)
    assert match.status == MatchStatus.FINISHED and match.winners == [1 - seat.index]
    assert match.table.status == TableStatus.FINISHED


@pytest.mark.django_db
def test_both_japanese_players_disconnected_together_abort_the_match_whichever_grace_ends_first():
    match, players = _match()
    seats = [presence.connected(match.table_id, p) for p in players]
    for seat_id in seats:
        presence.disconnected(seat_id)
    stamps = [Seat.objects.get(pk=s).disconnected_at for s in seats]
    assert grace_ran_out(seats[0], stamps[0])
    assert not grace_ran_out(seats[1], stamps[1])  # the match is already over
    match = _fresh(match)
    assert (match.status, match.end_reason, match.end_seat, match.winners) == (
        MatchStatus.ABORTED, "everyone_left", None, [])  # tests/test_everyone_left.py


@pytest.mark.django_db
def test_classic_player_who_leaves_is_replaced_by_a_bot_and_the_game_goes_on():
    match, players = _match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    resign(match.pk, players[1])
    match = _fresh(match)
    assert match.status == MatchStatus.RUNNING
    seat = Seat.objects.get(table=match.table, player=players[1])
    assert seat.left_at is not None
    state = load_state(match)
    assert state.to_act != seat.index  # the bot has already moved if it was its turn


@pytest.mark.django_db
def test_classic_match_with_every_player_gone_is_aborted():
    match, players = _match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    for p in players:
        resign(match.pk, p)
    match = _fresh(match)
    assert match.status == MatchStatus.ABORTED and match.winners == []


@pytest.mark.django_db
def test_resigning_a_japanese_match_gives_the_opponent_the_win_at_once():
    match, players = _match()
    resign(match.pk, players[1])
    match = _fresh(match)
    assert match.status == MatchStatus.FINISHED and match.end_reason == "resign"
    seat = Seat.objects.get(table=match.table, player=players[1])
    assert match.winners == [1 - seat.index]
    with pytest.raises(MatchError):
        resign(match.pk, players[0])


@pytest.mark.django_db(transaction=True)
def test_a_timeout_racing_the_players_own_move_counts_exactly_once():
    match, _ = _match()
    state = load_state(match)
    seat = state.to_act
    action = state.legal_actions(seat)[-1].to_record()
    barrier = threading.Barrier(2)
    results = {}

    def by_clock():
        barrier.wait()
        try:
            results["clock"] = clock_ran_out(match.pk, 1)
        finally:
            connections.close_all()

    def by_player():
        barrier.wait()
        try:
            perform(match.pk, player_at(match, seat), action, 1)
            results["player"] = True
        except MatchError as exc:
            results["player"] = exc.code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=by_clock), threading.Thread(target=by_player)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert (results["clock"] is True) != (results["player"] is True), results
    match = _fresh(match)
    assert match.version == 2
    assert len(load_state(match).record_deals()[-1]["actions"]) == 1


@pytest.mark.django_db
def test_the_tick_makes_the_move_of_a_deadline_that_passed_and_a_doubled_tick_does_nothing():
    match, _ = _match()
    waiting, _ = _match(names=("nino", "dato"))  # its deadline is still ahead: untouched
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert tick() == {"clocks": 1, "graces": 0}
    assert _fresh(match).version == 2 and _fresh(waiting).version == 1
    assert tick() == {"clocks": 0, "graces": 0}  # a late or doubled tick: nothing is due any more
    assert _fresh(match).version == 2
    assert _fresh(match).deadline_at > timezone.now()  # the next move's clock runs


@pytest.mark.django_db
def test_a_redelivered_clock_for_a_version_already_moved_on_does_nothing():
    match, _ = _match()
    assert clock_ran_out(match.pk, 1)
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert not clock_ran_out(match.pk, 1)  # what an old tick read: the match is at version 2 now
    assert _fresh(match).version == 2


@pytest.mark.django_db
def test_the_tick_ends_a_grace_that_ran_out_once(settings):
    match, players = _match()
    seat_id = presence.connected(match.table_id, players[0])
    presence.disconnected(seat_id)
    assert tick()["graces"] == 0  # the grace has just begun
    Seat.objects.filter(pk=seat_id).update(
        disconnected_at=timezone.now() - timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS + 1))
    assert tick()["graces"] == 0  # the grace is over, but not the window after it (docs/conduct.md)
    Seat.objects.filter(pk=seat_id).update(disconnected_at=timezone.now() - timedelta(
        seconds=settings.DISCONNECT_GRACE_SECONDS + settings.EVERYONE_GONE_WINDOW_SECONDS + 1))
    assert tick()["graces"] == 1
    assert _fresh(match).status == MatchStatus.FINISHED and _fresh(match).end_reason == "forfeit"
    assert tick() == {"clocks": 0, "graces": 0}


@pytest.mark.django_db
def test_sweeper_closes_unfilled_tables_and_acts_on_what_is_due(settings):
    match, _ = _match()
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(minutes=5))
    lonely = table_service.create_table(make_player("lonely"), TableSettings(variant="japanese"))
    settings.UNFILLED_TABLE_SECONDS = 0
    done = sweep()
    assert done["clocks"] == 1 and done["tables"] >= 1
    assert _fresh(match).version == 2
    lonely.refresh_from_db()
    assert lonely.status == TableStatus.CLOSED


@pytest.mark.django_db
def test_every_move_writes_its_deadline_in_the_update_that_bumps_the_version_and_queues_no_task(
        settings, django_capture_on_commit_callbacks):
    """No task per move: the broker the site uses (Redis under `make test`) receives nothing."""
    import redis
    from celery import current_app
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match, _players = _match(clock_seconds=30)
    state = load_state(match)
    broker = queue = None
    if settings.CELERY_BROKER_URL.startswith("redis://"):
        broker, queue = redis.Redis.from_url(settings.CELERY_BROKER_URL), current_app.conf.task_default_queue
        broker.delete(queue)
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        perform(match.pk, player_at(match, state.to_act), state.legal_actions(state.to_act)[0].to_record(),
                match.version)
    match = _fresh(match)
    assert match.deadline_at == match.turn_started_at + timedelta(seconds=30)
    writes = [q["sql"] for q in queries.captured_queries if 'UPDATE "games_match"' in q["sql"]]
    assert len(writes) == 1 and '"deadline_at"' in writes[0] and '"version"' in writes[0]
    if broker is not None:
        assert broker.llen(queue) == 0
    assert len([c for c in queries.captured_queries if "games_seat" in c["sql"] and "UPDATE" in c["sql"]]) == 0


@pytest.mark.django_db
def test_a_finished_match_has_no_deadline():
    match, players = _match()
    resign(match.pk, players[1])
    match = _fresh(match)
    assert match.status == MatchStatus.FINISHED and match.deadline_at is None


@pytest.mark.django_db
def test_a_grace_task_for_a_seat_given_up_before_the_start_does_nothing():
    player = make_player("tamar")
    table = table_service.create_table(player, TableSettings(variant="japanese"))
    seat = Seat.objects.get(table=table, player=player)
    table_service.stand(table.pk, player)
    assert grace_ran_out(seat.pk, timezone.now()) is False


# --- Where the clocks live -------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(path: Path, package: str) -> set[str]:
    """Every module `path` imports, at the top or inside a function, relative imports resolved."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            imported.add(module)
            # `from . import clocks` imports the module games.services.clocks
            imported |= {f"{module}.{alias.name}" for alias in node.names}
    return imported


def _site_modules() -> dict[str, set[str]]:
    """The games app's modules (without the engine and migrations) and what each imports of them."""
    modules = {}
    for path in sorted((ROOT / "games").rglob("*.py")):
        relative = path.relative_to(ROOT).with_suffix("")
        if relative.parts[1] in ("engine", "migrations", "management", "templatetags"):
            continue
        name = ".".join(relative.parts).removesuffix(".__init__")
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        modules[name] = _imported_modules(path, package)
    return {name: {other for other in imported if other in modules and other != name}
            for name, imported in modules.items()}


def test_no_service_imports_the_celery_tasks():
    graph = _site_modules()
    importers = sorted(name for name, imported in graph.items() if "games.tasks" in imported)
    assert importers == []


def test_matches_tables_clocks_and_tasks_import_one_another_without_a_circle():
    graph = _site_modules()
    names = ("games.services.matches", "games.services.tables", "games.services.clocks",
             "games.services.presence", "games.tasks", "games.fairness")

    def reaches(start, goal, seen=()):
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, (*seen, nxt))) for nxt in graph[start])

    circles = [name for name in names if reaches(name, name)]
    assert circles == []


def test_no_site_code_queues_a_task_beat_runs_them_all():
    """The clocks cost nothing per move: no task is queued for a move or a disconnect (beat's
    schedule in joker_site/settings.py runs games/tasks.py). Push's delivery is the one task the
    site queues (push/notify.py: a friend's invitation, a quick-play match, a match that starts;
    never one per move)."""
    queuing = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith((".venv/", "node_modules/", "tests/", "scripts/")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("apply_async", "delay", "send_task"):
                queuing.append(relative)
    assert sorted(set(queuing)) == ["push/notify.py"]
    from django.conf import settings

    scheduled = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled["games.tasks.tick"] <= 1.0 and "games.tasks.sweep" in scheduled


@pytest.mark.django_db
def test_sweeper_releases_a_seat_whose_web_process_died_and_its_grace_runs_from_when_it_was_last_seen(settings):
    """A process killed with its sockets open never counts them down; its beat stops."""
    from joker_site.heartbeat import stale_seconds

    match, players = _match()
    gone, kept = (presence.connected(match.table_id, player) for player in players)
    long_ago = timezone.now() - timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS + stale_seconds() + 10)
    Seat.objects.filter(pk=gone).update(seen_at=long_ago)  # its process stopped beating then
    done = sweep()
    # Released, and since its grace time from `long_ago` is over, the match is lost in the same sweep.
    assert (done["unseen"], done["graces"]) == (1, 1)
    seat = Seat.objects.get(pk=gone)
    assert (seat.connections, seat.disconnected_at) == (0, long_ago)
    assert Seat.objects.get(pk=kept).connections == 1  # seen just now: still at the table
    match = _fresh(match)
    assert match.status == MatchStatus.FINISHED and match.end_reason == "forfeit"
    assert match.winners == [Seat.objects.get(pk=kept).index]


@pytest.mark.django_db
def test_a_seat_seen_recently_is_not_released_by_the_sweeper():
    match, players = _match()
    seat_id = presence.connected(match.table_id, players[0])
    Seat.objects.filter(pk=seat_id).update(seen_at=timezone.now() - timedelta(seconds=2))
    assert sweep()["unseen"] == 0
    assert Seat.objects.get(pk=seat_id).connections == 1


@pytest.mark.django_db(transaction=True)
def test_each_web_process_beats_for_the_seats_its_sockets_hold(settings):
    settings.PRESENCE_BEAT_SECONDS = 0.2
    match, players = _match()
    seat_id = presence.connected(match.table_id, players[0])
    long_ago = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(pk=seat_id).update(seen_at=long_ago)
    deadline = timezone.now() + timedelta(seconds=10)
    while Seat.objects.get(pk=seat_id).seen_at == long_ago and timezone.now() < deadline:
        threading.Event().wait(0.1)
    assert Seat.objects.get(pk=seat_id).seen_at > long_ago
    presence.disconnected(seat_id)


@pytest.mark.django_db
def test_a_seat_released_while_its_process_stalled_is_counted_as_connected_at_the_next_beat(settings):
    from joker_site.heartbeat import stale_seconds

    match, players = _match()
    seat_id = presence.connected(match.table_id, players[0])
    long_ago = timezone.now() - timedelta(seconds=stale_seconds() + 1)
    Seat.objects.filter(pk=seat_id).update(seen_at=long_ago)  # the process stalled, missed its beats
    assert sweep()["unseen"] == 1 and Seat.objects.get(pk=seat_id).connections == 0
    presence.beat()  # it wakes up: its socket is still open
    seat = Seat.objects.get(pk=seat_id)
    assert (seat.connections, seat.disconnected_at) == (1, None)
    assert not grace_ran_out(seat_id, long_ago)  # the grace timer finds the player back
    assert _fresh(match).status == MatchStatus.RUNNING
