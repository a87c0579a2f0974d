"""Every direct answer carries the `id` of the message it answers: each message type's
success and its refusals, `unknown_type` and `bad_message` included."""

import itertools

import pytest
from asgiref.sync import sync_to_async

from games.models import Match
from games.services.matches import load_state
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# An id may be any JSON value; each answer must give back exactly the one sent.
IDS = itertools.cycle([7, "seven", {"n": 7, "tag": ["x"]}, [1, 2.5], None, -3, True])
NO_SUCH = 2 ** 62


async def _answer(client, message) -> dict:
    """Send `message` with a fresh id; the direct answer (pushed states, which carry no id, are passed)."""
    ident = next(IDS)
    await client.send({**message, "id": ident})
    while True:
        received = await client.receive()
        if "id" in received:
            assert received["id"] == ident, received
            return received
        assert received["type"] in ("state", "table"), received  # a push, not an answer


async def _refused(client, message, code) -> dict:
    answer = await _answer(client, message)
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert answer["in_reply_to"] == message.get("type")
    return answer


@sync_to_async
def _to_act(match_id):
    match = Match.objects.select_related("table").get(pk=match_id)
    return match.version, load_state(match).to_act


async def test_every_message_types_answers_carry_the_id():
    (_a, a_token), (_b, b_token), (_c, c_token) = [await make_program_player(n) for n in ("id_a", "id_b", "id_c")]
    a, b, c = [await ProgramClient.connect(token) for token in (a_token, b_token, c_token)]

    assert (await _answer(a, {"type": "hello", "language": "en"}))["type"] == "welcome"
    await _refused(a, {"type": "hello", "language": "fr"}, "bad_message")
    assert (await _answer(a, {"type": "ping"}))["type"] == "pong"
    await _refused(a, {"type": "dance"}, "unknown_type")
    await _refused(a, {"type": ["act"]}, "unknown_type")
    answer = await _answer(a, {"no": "type"})
    assert answer["code"] == "unknown_type" and answer["in_reply_to"] is None

    # A waiting room: create, join, leave (a classic table waits for four).
    await _refused(a, {"type": "create_table", "variant": "poker"}, "invalid_option")
    room = await _answer(a, {"type": "create_table", "variant": "classic", "options": {"fill_with_bots": False}})
    assert room["type"] == "table" and room["seat"] == 0
    await _refused(b, {"type": "join_table", "table": NO_SUCH}, "no_such_table")
    await _refused(b, {"type": "join_table", "table": room["table"], "seat": "north"}, "bad_message")
    assert (await _answer(b, {"type": "join_table", "table": room["table"]}))["type"] == "table"
    assert (await _answer(b, {"type": "resync", "table": room["table"]}))["type"] == "table"
    await _refused(b, {"type": "leave_table", "table": NO_SUCH}, "no_such_table")
    await _refused(c, {"type": "leave_table", "table": room["table"]}, "not_seated")
    assert (await _answer(b, {"type": "leave_table", "table": room["table"]}))["type"] == "left"

    # A Japanese match: joining the second seat starts it, and the answer is the position.
    room = await _answer(a, {"type": "create_table", "variant": "japanese", "options": {"target": 11}})
    state = await _answer(b, {"type": "join_table", "table": room["table"]})
    assert state["type"] == "state"
    match_id = state["match"]
    await _refused(a, {"type": "resync", "match": NO_SUCH}, "no_such_match")
    await _refused(a, {"type": "resync"}, "bad_message")
    assert (await _answer(a, {"type": "resync", "match": match_id}))["type"] == "state"

    version, seat = await _to_act(match_id)
    mover, waiter = (a, b) if seat == 0 else (b, a)
    act = {"type": "act", "match": match_id, "version": version}
    await _refused(waiter, {**act, "action": {"trump": "S"}}, "not_your_turn")
    await _refused(mover, {**act, "action": "S"}, "bad_message")
    await _refused(mover, {**act, "version": 2 ** 70, "action": {"trump": "S"}}, "bad_message")
    await _refused(mover, {**act, "action": {"trump": "S", "seat": 0}}, "invalid_action")
    await _refused(mover, {**act, "action": {"dance": 1}}, "invalid_action")
    stale = await _refused(mover, {**act, "version": version - 1, "action": {"trump": "S"}}, "stale_version")
    assert stale["version"] == version
    await mover.receive_type("state")  # the current position follows a stale refusal
    moved = await _answer(mover, {**act, "action": {"trump": "S"}})
    assert moved["type"] == "state" and moved["version"] == version + 1

    await _refused(c, {"type": "resign", "match": match_id}, "not_seated")
    await _refused(a, {"type": "resign", "match": "this one"}, "bad_message")
    ended = await _answer(a, {"type": "resign", "match": match_id})
    assert ended["type"] == "state" and ended["status"] == "finished"
    await _refused(b, {"type": "resign", "match": match_id}, "match_over")  # a left by resigning

    await _refused(a, {"type": "rematch", "table": NO_SUCH}, "no_such_table")
    rematch = await _answer(a, {"type": "rematch", "table": room["table"]})
    assert rematch["type"] == "table" and rematch["table"] != room["table"]
    for client in (a, b, c):
        await client.close()


async def test_only_a_frame_that_is_no_readable_object_is_answered_without_id():
    (_player, token) = await make_program_player("id_unreadable")
    client = await ProgramClient.connect(token)
    for text in ('{"type": "ping", "id": 1', '[{"type": "ping", "id": 1}]', '{"type": "ping", "id": 1, "id": 2}',
                 '{"type": "ping", "id": NaN}'):
        await client.send_text(text)
        error = await client.receive()
        assert error["code"] == "bad_json" and "id" not in error and "in_reply_to" not in error
    await client.close()
