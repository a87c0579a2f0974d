"""The updates a web process draws for other seats wait for a turn (games/notice_turns.py);
the answer to a move, and the mover's own page, never do."""

import asyncio
import contextlib
import json
import re

import pytest
from django.conf import settings
from django.test import override_settings

from games.notice_turns import notice_turn
from tests.live_clients import connect, legal_moves
from tests.protocol_clients import ProgramClient, japanese_match, make_program_player

MATCH_VERSION = re.compile(r'<div id="match"[^>]*\bdata-version="(\d+)"')


@contextlib.asynccontextmanager
async def _every_turn_held():
    """The process as an overload leaves it: every turn taken by other updates."""
    turns = notice_turn()
    for _turn in range(settings.NOTICE_TURNS):
        await turns.acquire()
    try:
        yield
    finally:
        for _turn in range(settings.NOTICE_TURNS):
            turns.release()


@pytest.mark.asyncio
async def test_each_event_loop_has_its_own_turns_as_many_as_the_setting_says():
    with override_settings(NOTICE_TURNS=3):
        turns = notice_turn()
        assert notice_turn() is turns
        for _turn in range(3):
            await turns.acquire()
        assert turns.locked(), "a fourth update waits"
        for _turn in range(3):
            turns.release()

    def in_another_loop():
        async def other():
            return notice_turn()

        return asyncio.run(other())

    assert await asyncio.to_thread(in_another_loop) is not turns


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(NOTICE_TURNS=2)
async def test_a_program_gets_its_moves_answer_while_the_other_seats_update_waits_for_a_turn():
    players = [await make_program_player(name) for name in ("turn_alice", "turn_bob")]
    match, to_act = await japanese_match([player for player, _token in players])
    clients = [await ProgramClient.connect(token) for _player, token in players]
    for client in clients:
        await client.send({"type": "resync", "match": match.pk})
        await client.state_at(match.version)
    mover, waiter = clients[to_act], clients[1 - to_act]
    async with _every_turn_held():
        action = {k: v for k, v in mover.latest_state["view"]["legal_actions"][0].items() if k != "seat"}
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
