"""A plain move's notice carries what the move changed, and a process that holds the
previous version's read makes the new one from it without reading the database
(games/table_reads.py `take_move_notice`, games/services/matches.py `after_move`):
the views it gives are the ones a fresh read gives; a deal's notice carries no hand, and
the process reads the one log row the deal added instead."""

import json
import random
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import table_reads
from games.consumers import table_fragment
from games.models import Match, MatchAction
from games.services import broadcast, matches
from games.services.presenter import seat_view
from tests.replay_helpers import random_move, seated_match


def _notice(match, version, move):
    return {"type": "table.changed", "table": match.table_id, "version": version, "move": move}


def _make_move(match, rng, spend_bank=False):
    """A random legal move through `perform`; with `spend_bank`, after the move time ran out
    (the seat's bank pays for what it used past it)."""
    match = Match.objects.select_related("table").get(pk=match.pk)
    if spend_bank:
        late = timezone.now() - timedelta(seconds=match.table.clock_seconds + 3)
        Match.objects.filter(pk=match.pk).update(turn_started_at=late)
    return random_move(match, rng)


def _views(table_id, players, version):
    read = table_reads.shared_table_read(table_id, version)  # the one held, else read now
    assert read is not None and read.version == version
    json_views = [seat_view(read.match, index, seats=read.seats, public=read.public_seats())
                  for index in range(len(players))]
    html = [table_fragment(table_id, player, language, version)[0]
            for player in players for language in ("ka", "ru")]
    return json_views, html


def _read_the_previous_version(table_id, players, version):
    """This process as the other seats' one: it read the version before and drew it."""
    table_reads.forget_table_reads()
    assert table_reads.shared_table_read(table_id, version) is not None
    for player in players:
        for language in ("ka", "ru"):
            table_fragment(table_id, player, language, version)


@pytest.mark.django_db
@pytest.mark.parametrize("variant,names,options", [
    ("classic", ("ana", "giorgi", "nino", "dato"), {"game_type": "short", "bank_seconds": 60, "clock_seconds": 5}),
    ("japanese", ("tamar", "levan"), {"target": 11, "bank_seconds": 60, "clock_seconds": 5}),
])
def test_a_read_made_from_a_move_notice_draws_what_a_fresh_read_draws(variant, names, options):
    applied = dealt = 0
    # The deals are the OS's random ones, and a Japanese match to 11 can end within its first
    # deal, before any version that dealt: then the next match goes on (new players, one table each).
    for game in range(5):
        match, players = seated_match(variant, tuple(f"{name}{game}" for name in names), **options)
        applied, dealt = _follow_notices_against_fresh_reads(match, players, random.Random(7 + game), applied, dealt)
        if applied >= 20 and dealt >= 1:
            break
    assert applied >= 20 and dealt >= 1


def _follow_notices_against_fresh_reads(match, players, rng, applied, dealt):
    """Plays `match` until it ends or enough was seen, checking each version's read made from
    its notice against a fresh one: (versions applied from notices, versions that dealt)."""
    for step in range(200):
        _read_the_previous_version(match.table_id, players, match.version)
        outcome = _make_move(match, rng, spend_bank=step % 5 == 0)
        notice = outcome.match.move_notice
        if outcome.finished:
            break
        if notice is None:
            match = outcome.match
            continue
        event = _notice(match, outcome.version, notice)
        with CaptureQueriesContext(connection) as queries:
            if notice.get("dealt"):
                assert not table_reads.take_move_notice(event)  # a deal's hands come from its log row
                assert table_reads.take_dealt_notice(event)
                dealt += 1
            else:
                assert table_reads.take_move_notice(event)
            json.loads(json.dumps(notice))  # what the channel layer carries is plain data
        assert len(queries) == (1 if notice.get("dealt") else 0), [q["sql"] for q in queries]
        from_notice = _views(match.table_id, players, outcome.version)
        table_reads.forget_table_reads()
        matches.forget_states()
        fresh = _views(match.table_id, players, outcome.version)
        assert from_notice == fresh
        applied += 1
        match = outcome.match
        if applied >= 20 and dealt >= 1:
            break
    return applied, dealt


@pytest.mark.django_db
def test_a_version_that_dealt_carries_no_hand_and_one_that_ended_has_no_move_notice():
    match, _players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    rng = random.Random(3)
    dealt = plain = 0
    while True:
        outcome = _make_move(match, rng)
        entries = MatchAction.objects.get(match_id=match.pk, version=outcome.version).entries
        notice = outcome.match.move_notice
        if outcome.finished:
            assert notice is None
            break
        if any("deal" in entry for entry in entries):
            # Only what every seat's view shows: the clocks and the deals' public commitments,
            # with the salt of every deal but the one being played.
            assert notice.keys() == {"dealt", "commitments", "turn_started_at", "deadline_at", "seats"}
            assert [("salt" in entry) for entry in notice["commitments"]] == [True] * (len(notice["commitments"]) - 1) + [False]
            assert re.findall(r'"(?:[6-9TJQKA][SHDC]|X[12])"', json.dumps(notice)) == []  # no card at all
            dealt += 1
        else:
            assert notice["entries"] == entries
            assert all(entry.keys() == {"actions"} for entry in notice["entries"])
            plain += 1
        match = outcome.match
    assert dealt >= 1 and plain >= 20


@pytest.mark.django_db(transaction=True)
def test_the_connections_of_a_process_read_a_dealt_version_s_log_row_once(monkeypatch):
    import asyncio

    from games.models import Match as MatchModel

    match, _players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    rng = random.Random(11)
    while True:
        table_reads.forget_table_reads()
        table_reads.shared_table_read(match.table_id, match.version)
        outcome = _make_move(match, rng)
        if outcome.match.move_notice is not None and outcome.match.move_notice.get("dealt"):
            break
        match = outcome.match
    reads = []
    log_rows = MatchModel.log_rows
    monkeypatch.setattr(MatchModel, "log_rows", lambda self, *args, **kwargs: reads.append(args) or log_rows(self, *args, **kwargs))
    event = _notice(match, outcome.version, outcome.match.move_notice)

    async def four_connections():
        await asyncio.gather(*(table_reads.follow_move_notice(event) for _ in range(4)))

    asyncio.run(four_connections())
    assert reads == [(outcome.version,)]
    assert table_reads.read_at_least(match.table_id, outcome.version).version == outcome.version


@pytest.mark.django_db
def test_a_notice_that_does_not_follow_the_read_held_here_makes_no_read():
    match, players = seated_match("japanese", ("tamar", "levan"), target=11)
    rng = random.Random(4)
    table_reads.shared_table_read(match.table_id, match.version)
    skipped = _make_move(match, rng)
    outcome = _make_move(skipped.match, rng)
    assert outcome.match.move_notice is not None
    table_reads.take_move_notice(_notice(match, outcome.version, outcome.match.move_notice))
    assert table_reads.read_at_least(match.table_id, outcome.version) is None
    _html, shown = table_fragment(match.table_id, players[0], "ka", outcome.version)  # read from the database
    assert shown == outcome.version


@pytest.mark.django_db
def test_a_notice_that_does_not_fit_the_read_is_ignored_and_the_database_read():
    match, players = seated_match("japanese", ("tamar", "levan"), target=11)
    rng = random.Random(5)
    table_reads.shared_table_read(match.table_id, match.version)
    outcome = _make_move(match, rng)
    notice = {**outcome.match.move_notice, "seats": [[0, 0, 0]]}
    table_reads.take_move_notice(_notice(match, outcome.version, notice))
    assert table_reads.read_at_least(match.table_id, outcome.version) is None
    _html, shown = table_fragment(match.table_id, players[1], "ru", outcome.version)
    assert shown == outcome.version


@pytest.mark.django_db(transaction=True)
def test_the_move_s_broadcast_carries_its_notice(monkeypatch):
    sent = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, message: sent.append((group, message)))
    match, _players = seated_match("japanese", ("tamar", "levan"), target=11)
    rng = random.Random(6)
    for _ in range(6):
        sent.clear()
        outcome = _make_move(match, rng)
        changed = [message for _group, message in sent if message["type"] == "table.changed"]
        for message in changed:  # how pages lay its cards: tests/test_laying_pace.py
            message.pop("laying", None)
        assert changed == [{"type": "table.changed", "table": match.table_id, "version": outcome.version,
                            **({"move": outcome.match.move_notice} if outcome.match.move_notice else {})}]
        match = outcome.match


def _freed_without_the_collector(make_read):
    """Whether every model object of the read `make_read()` gives is freed as soon as the
    read is dropped, with the cyclic garbage collector off."""
    import gc
    import weakref

    gc.disable()
    try:
        read = make_read()
        objects = [read.match, read.match.table, *read.seats]
        objects += [seat.player for seat in read.seats if seat.player_id]
        objects += [seat.player.user for seat in read.seats if seat.player_id and seat.player.user_id]
        refs = [weakref.ref(obj) for obj in objects]
        del read, objects
        table_reads.forget_table_reads()
        return [ref() for ref in refs if ref() is not None]
    finally:
        gc.enable()


@pytest.mark.django_db
def test_no_read_of_a_table_is_a_reference_cycle():
    match, _players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    rng = random.Random(8)
    assert _freed_without_the_collector(lambda: table_reads.shared_table_read(match.table_id, match.version)) == []
    # The read a move leaves in its process (games/consumers.py and games/protocol.py keep it).
    assert _freed_without_the_collector(lambda: table_reads.remember_outcome(_make_move(match, rng), 0.0)) == []
    match = Match.objects.get(pk=match.pk)
    table_reads.shared_table_read(match.table_id, match.version)
    following = _make_move(match, rng)
    version, notice = following.version, following.match.move_notice
    assert notice is not None
    del following

    def from_the_notice():
        table_reads.take_move_notice(_notice(match, version, notice))
        return table_reads.read_at_least(match.table_id, version)

    assert _freed_without_the_collector(from_the_notice) == []


@pytest.mark.django_db
@pytest.mark.parametrize("variant,names,options", [
    ("classic", ("ana", "giorgi", "nino", "dato"), {"game_type": "short"}),
    ("japanese", ("tamar", "levan"), {"target": 11}),
])
def test_following_moves_on_the_table_leaves_nothing_for_the_garbage_collector(variant, names, options):
    """What a web process does for each move made elsewhere (the notice's read, each seat's
    page and JSON view) is freed by reference counting alone: cyclic garbage waits for a
    full collection, which stops every socket of the process (joker_site/heap.py)."""
    import gc

    match, players = seated_match(variant, names, **options)
    rng = random.Random(9)
    for player in players:  # the first draw of each piece and template is not what is measured
        table_fragment(match.table_id, player, "ka", match.version)
    found = []
    for _ in range(12):
        table_reads.shared_table_read(match.table_id, match.version)
        outcome = _make_move(match, rng)
        version, notice = outcome.version, outcome.match.move_notice
        del outcome
        gc.collect()
        gc.disable()
        try:
            if notice is not None:
                table_reads.take_move_notice(_notice(match, version, notice))
            for player in players:
                table_fragment(match.table_id, player, "ru", version)
                read = table_reads.read_at_least(match.table_id, version)
                seat_view(read.match, next(s.index for s in read.seats if s.player_id == player.pk),
                          seats=read.seats, public=read.public_seats())
                del read
            table_reads.forget_table_reads()
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            found.extend(obj for obj in gc.garbage if not _djangos_own_compiler_cycle(obj))
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
            gc.enable()
        match = Match.objects.get(pk=match.pk)
    assert found == []


COMPILER_CLOSURE = "SQLCompiler.get_select.<locals>.get_select_from_parent"


def _djangos_own_compiler_cycle(obj) -> bool:
    """Django's SQL compiler leaves one cycle per query with select_related (a nested function
    that calls itself), whoever reads: the function, its cell and the tuple of cells."""
    import types

    if isinstance(obj, types.FunctionType):
        return obj.__qualname__ == COMPILER_CLOSURE
    if isinstance(obj, types.CellType):
        return isinstance(obj.cell_contents, types.FunctionType) and obj.cell_contents.__qualname__ == COMPILER_CLOSURE
    if type(obj) is tuple:
        return bool(obj) and all(isinstance(item, types.CellType) and _djangos_own_compiler_cycle(item) for item in obj)
    return False


@pytest.mark.django_db
def test_the_seats_a_move_holds_are_read_once_and_asking_them_for_more_reads_that_table():
    """`hold_seats` leaves the seats as a prefetch would, with the filter for their table
    built only when the held list is asked for more than itself."""
    from django.db import transaction

    match, _players = seated_match("classic", ("h_a", "h_b", "h_c", "h_d"), game_type="short")
    seated_match("japanese", ("other_a", "other_b"))  # seats of another table, not to be found
    with transaction.atomic():
        locked = matches._locked_match(match.pk, with_seats=True)
        with CaptureQueriesContext(connection) as queries:
            held = list(locked.table.seats.all())
        assert len(queries) == 0
        assert sorted(seat.index for seat in held) == [0, 1, 2, 3]
        assert {seat.player.user.username for seat in held} == {"h_a", "h_b", "h_c", "h_d"}
        with CaptureQueriesContext(connection) as queries:
            second = locked.table.seats.all().filter(index=1).get()
        assert len(queries) == 1 and f"= {match.table_id}" in queries[0]["sql"]
        assert second.pk == next(seat.pk for seat in held if seat.index == 1)
        assert locked.table.seats.all().count() == 4


@pytest.mark.django_db
def test_a_berserk_version_read_from_its_notice_draws_the_mark_and_the_halved_bank_as_a_fresh_read():
    """Another process follows a berserk from its notice alone: the seat's ⚔ and its bank."""
    from games import live

    match, players = seated_match("japanese", ("tamar", "levan"), target=11, bank_seconds=60, berserk_allowed=True)
    _read_the_previous_version(match.table_id, players, match.version)
    outcome = live.submit(match.pk, players[1], live.Berserk())
    event = _notice(match, outcome.version, outcome.match.move_notice)
    with CaptureQueriesContext(connection) as queries:
        assert table_reads.take_move_notice(event)
    assert len(queries) == 0
    from_notice = _views(match.table_id, players, outcome.version)
    table_reads.forget_table_reads()
    matches.forget_states()
    assert from_notice == _views(match.table_id, players, outcome.version)
    json_views, html = from_notice
    assert [seat["berserk"] for seat in json_views[0]["seats"]] == [False, True]
    assert all(page.count('class="berserk-mark"') == 1 for page in html)
