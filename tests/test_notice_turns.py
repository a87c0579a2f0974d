"""The updates a web process draws for other seats wait for a turn (games/notice_turns.py);
the answer to a move, and the mover's own page, never do: not even a move sent by a socket
whose own update is still waiting. A turn also waits while the process's moves hold their
threads, a seat that fell behind is sent only the newest position, and updates drawn in a row
pause after a burst until one of the moves they prompt begins."""

import asyncio
import contextlib
import json
import re

import pytest
from django.conf import settings
from django.test import override_settings

from games import notice_turns
from games.notice_turns import LaterUpdates, notice_turn, turns_of_this_loop
from joker_site.db_threads import move_in_thread
from tests.live_clients import connect, legal_moves
from tests.protocol_clients import ProgramClient, _current, as_sent, japanese_match, make_program_player

MATCH_VERSION = re.compile(r'<div id="match"[^>]*\bdata-version="(\d+)"')


@contextlib.asynccontextmanager
async def _every_turn_held():
    """The process as an overload leaves it: every turn taken by other updates."""
    turns = turns_of_this_loop()
    for _turn in range(settings.NOTICE_TURNS):
        await turns.acquire()
    try:
        yield
    finally:
        for _turn in range(settings.NOTICE_TURNS):
            turns.release()


async def _programs_at_a_match(*names):
    """Two programs at a Japanese match, each shown its first position: (match, seat to act, clients)."""
    players = [await make_program_player(name) for name in names]
    match, to_act = await japanese_match([player for player, _token in players])
    clients = [await ProgramClient.connect(token) for _player, token in players]
    for client in clients:
        await client.send({"type": "resync", "match": match.pk})
        await client.state_at(match.version)
    return match, to_act, clients


@pytest.mark.asyncio
async def test_each_event_loop_has_its_own_turns_as_many_as_the_setting_says():
    with override_settings(NOTICE_TURNS=3):
        turns = turns_of_this_loop()
        assert turns_of_this_loop() is turns
        for _turn in range(3):
            await turns.acquire()
        assert turns.locked(), "a fourth update waits"
        for _turn in range(3):
            turns.release()

    def in_another_loop():
        async def other():
            return turns_of_this_loop()

        return asyncio.run(other())

    assert await asyncio.to_thread(in_another_loop) is not turns


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(NOTICE_TURNS=2)
async def test_a_program_gets_its_moves_answer_while_the_other_seats_update_waits_for_a_turn():
    match, to_act, clients = await _programs_at_a_match("turn_alice", "turn_bob")
    mover, waiter = clients[to_act], clients[1 - to_act]
    async with _every_turn_held():
        action = as_sent(mover.latest_state["view"]["legal_actions"][0])
        await mover.send({"type": "act", "match": match.pk, "version": match.version, "action": action})
        answer = await mover.receive_type("state")
        assert answer["version"] == match.version + 1
        await asyncio.sleep(0.3)  # the move's notice reaches both sockets meanwhile
        await mover.send({"type": "ping", "id": "after-my-move"})
        assert (await mover.receive_type("pong"))["id"] == "after-my-move", \
            "the notice of its own move holds no turn: the mover's socket still answers"
        await waiter.nothing_more()  # its update waits for a turn
    assert (await waiter.state_at(match.version + 1))["version"] == match.version + 1
    for client in clients:
        await client.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(NOTICE_TURNS=2)
async def test_a_page_sees_its_own_move_at_once_while_the_other_page_waits_for_a_turn():
    players = [await make_program_player(name) for name in ("page_alice", "page_bob")]
    match, to_act = await japanese_match([player for player, _token in players])
    pages = [await connect(match.table_id, player) for player, _token in players]
    frames = [await page.receive_from() for page in pages]
    mover, waiter = pages[to_act], pages[1 - to_act]
    async with _every_turn_held():
        move = legal_moves(frames[to_act])[0]
        await mover.send_to(text_data=json.dumps(move))
        shown = MATCH_VERSION.search(await mover.receive_from(timeout=10))
        assert shown and int(shown.group(1)) == match.version + 1
        assert await waiter.receive_nothing(timeout=0.3)
    shown = MATCH_VERSION.search(await waiter.receive_from(timeout=10))
    assert shown and int(shown.group(1)) == match.version + 1
    for page in pages:
        await page.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(NOTICE_TURNS=2)
async def test_a_program_whose_update_waits_for_a_turn_still_gets_its_own_moves_answer():
    match, to_act, clients = await _programs_at_a_match("later_alice", "later_bob")
    mover, waiter = clients[to_act], clients[1 - to_act]
    async with _every_turn_held():
        version, state = match.version, None
        while state is None or state.to_act == to_act:  # the mover acts until the other seat is to
            action = as_sent(mover.latest_state["view"]["legal_actions"][0])
            await mover.send({"type": "act", "match": match.pk, "version": version, "action": action})
            version = (await mover.receive_type("state"))["version"]
            _match, state = await _current(match.pk)
        reply = as_sent(state.legal_actions(1 - to_act)[0].to_record())
        await asyncio.sleep(0.2)  # the mover's update now waits for a turn on the waiter's socket
        await waiter.send({"type": "act", "match": match.pk, "version": version, "action": reply})
        answer = await waiter.state_at(version + 1)
        assert answer["version"] == version + 1, "its move did not wait behind its own update"
    await waiter.nothing_more()  # the waiting update had nothing newer to draw
    for client in clients:
        await client.close()


@pytest.mark.asyncio
async def test_updates_asked_for_while_one_waits_draw_once_the_newest_version():
    drawn = []

    async def draw(version):
        drawn.append(version)

    later = LaterUpdates()
    async with _every_turn_held():
        later.want(7, 5, draw)
        later.want(7, 6, draw)
        later.want(8, 2, draw)
        await asyncio.sleep(0.05)
        assert drawn == []
    await asyncio.sleep(0.05)
    assert sorted(drawn) == [2, 6]
    later.want(7, 7, draw)
    later.want(7, None, draw)  # a change without a version (a seat came or went): read afresh
    await asyncio.sleep(0.05)
    assert drawn[2:] == [None]


@pytest.mark.asyncio
async def test_a_connection_draws_one_update_of_a_table_at_a_time():
    drawing, drawn, release = [], [], asyncio.Event()

    async def draw(version):
        drawing.append(version)
        assert len(drawing) == 1, "two updates of one table drawn at once"
        await release.wait()
        drawing.remove(version)
        drawn.append(version)

    later = LaterUpdates()
    later.want(7, 5, draw)
    await asyncio.sleep(0.05)
    assert drawing == [5]
    later.want(7, 6, draw)  # a notice while the table's update is being drawn
    later.want(7, 7, draw)
    await asyncio.sleep(0.05)
    assert drawing == [5], "the next waits for the one being drawn"
    release.set()
    await asyncio.sleep(0.05)
    assert drawn == [5, 7]
    later.want(7, 8, draw)  # the table's task ended: a new notice starts another
    await asyncio.sleep(0.05)
    assert drawn == [5, 7, 8]


@pytest.mark.asyncio
@override_settings(NOTICE_GATE_MOVES=1)
async def test_a_turn_waits_while_a_move_of_the_process_holds_its_thread(monkeypatch):
    import threading

    release = threading.Event()
    move = asyncio.ensure_future(move_in_thread(release.wait)(10))
    await asyncio.sleep(0.05)
    entered = asyncio.Event()

    async def update():
        async with notice_turn():
            entered.set()

    waiting = asyncio.ensure_future(update())
    await asyncio.sleep(0.2)
    assert not entered.is_set(), "the update waits for the move"
    release.set()
    await asyncio.wait_for(entered.wait(), 2)
    await move
    await waiting

    monkeypatch.setattr(notice_turns, "GATE_LONGEST_SECONDS", 0.2)
    stuck = threading.Event()
    move = asyncio.ensure_future(move_in_thread(stuck.wait)(10))
    await asyncio.sleep(0.05)
    entered.clear()
    waiting = asyncio.ensure_future(update())
    await asyncio.wait_for(entered.wait(), 2)  # a move stuck behind a lock holds the updates 0.2 s at most
    assert not move.done()
    stuck.set()
    await move
    await waiting


async def _time_to_enter_a_turn() -> float:
    loop = asyncio.get_running_loop()
    asked = loop.time()
    async with notice_turn():
        return loop.time() - asked


@pytest.mark.asyncio
async def test_updates_drawn_in_a_row_pause_after_the_burst_until_a_move_begins():
    with override_settings(NOTICE_BURST=3, NOTICE_BURST_PAUSE_MS=60_000):
        for _update in range(3):
            assert await _time_to_enter_a_turn() < 0.5, "the burst's updates do not wait"
        fourth = asyncio.ensure_future(_time_to_enter_a_turn())
        await asyncio.sleep(0.3)
        assert not fourth.done(), "the fourth in a row waits for a move to begin"
        await move_in_thread(lambda: None)()
        waited = await asyncio.wait_for(fourth, 2)
        assert waited >= 0.3
        for _update in range(2):  # the count starts again after the pause
            assert await _time_to_enter_a_turn() < 0.5


@pytest.mark.asyncio
async def test_a_pause_after_a_burst_lasts_the_setting_at_most():
    with override_settings(NOTICE_BURST=2, NOTICE_BURST_PAUSE_MS=200):
        await _time_to_enter_a_turn()
        await _time_to_enter_a_turn()
        waited = await asyncio.wait_for(_time_to_enter_a_turn(), 2)
        assert 0.15 <= waited < 2, "no move began: the pause ran its length"


@pytest.mark.asyncio
async def test_updates_between_moves_never_pause():
    """Where moves keep beginning (players thinking between them), the count never reaches the burst."""
    with override_settings(NOTICE_BURST=2, NOTICE_BURST_PAUSE_MS=60_000):
        for _move in range(5):
            await move_in_thread(lambda: None)()
            for _update in range(2):
                assert await _time_to_enter_a_turn() < 0.5
