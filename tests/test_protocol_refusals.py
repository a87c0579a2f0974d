"""Bad input over the JSON protocol: each gets an error with a code and a readable
message, changes nothing, and leaves the socket open."""

import json

import pytest
from asgiref.sync import sync_to_async

from games.models import Match, Visibility
from games.services import tables as table_service
from games.services.matches import load_state
from games.services.tables import TableSettings
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@sync_to_async
def _japanese_match(players):
    table = table_service.create_table(players[0], TableSettings(variant="japanese", target=11))
    table_service.sit(table.pk, players[1])
    return Match.objects.get(table=table)


@sync_to_async
def _snapshot(match_id):
    match = Match.objects.get(pk=match_id)
    return match.version, json.dumps(match.record, sort_keys=True)


@sync_to_async
def _state(match_id):
    return load_state(Match.objects.select_related("table").get(pk=match_id))


async def _seated_pair():
    (alice, alice_token), (bob, bob_token) = [await make_program_player(n) for n in ("ref_alice", "ref_bob")]
    match = await _japanese_match([alice, bob])
    clients = [await ProgramClient.connect(alice_token), await ProgramClient.connect(bob_token)]
    for client in clients:
        await client.send({"type": "resync", "match": match.pk})
        await client.state_at(match.version)
    return clients, match.pk


async def _refused(client, message, code, match_id=None, raw=None):
    """Send; expect exactly an error with `code`, nothing changed, the socket still answering."""
    before = await _snapshot(match_id) if match_id else None
    if raw is not None:
        await client.send_text(raw)
    else:
        await client.send(message)
    error = await client.receive_type("error")
    assert error["code"] == code, error
    assert error["message"] and error["code"] not in error["message"]
    if match_id:
        assert await _snapshot(match_id) == before
    await client.send({"type": "ping", "id": code})
    assert (await client.receive_type("pong"))["id"] == code
    return error


async def test_every_bad_message_is_refused_with_a_reason_and_changes_nothing(settings):
    # Dozens of refused messages on one socket as fast as they are answered: past the frame
    # budget (tests/test_frame_budget.py), which would refuse them before they are read.
    settings.SOCKET_FRAMES_PER_SECOND = 100_000
    settings.SOCKET_FRAME_BURST = 100_000
    clients, match_id = await _seated_pair()
    state = await _state(match_id)
    actor, waiter = clients[state.to_act], clients[1 - state.to_act]
    version = (await _snapshot(match_id))[0]
    trump = {"trump": "S"}
    act = {"type": "act", "match": match_id, "version": version}

    await _refused(actor, None, "bad_json", match_id, raw="{not json")
    await _refused(actor, None, "bad_json", match_id, raw="[1, 2]")
    await _refused(actor, None, "bad_json", match_id, raw='"act"')
    await _refused(actor, None, "bad_json", match_id, raw=json.dumps({"type": "ping", "pad": "x" * 5000}))
    await _refused(actor, {"type": "dance"}, "unknown_type", match_id)
    await _refused(actor, {"version": version}, "unknown_type", match_id)
    await _refused(actor, {"type": "act", "match": match_id, "action": trump}, "bad_message", match_id)
    await _refused(actor, {**act, "version": "7"}, "bad_message", match_id)
    await _refused(actor, {**act, "action": "S"}, "bad_message", match_id)
    await _refused(actor, {**act, "action": {**trump, "seat": 1}}, "invalid_action", match_id)
    await _refused(actor, {**act, "action": {"trump": "X"}}, "invalid_trump", match_id)
    await _refused(actor, {**act, "action": {"bid": 2}}, "wrong_phase", match_id)
    await _refused(actor, {**act, "action": {"dance": 1}}, "invalid_action", match_id)
    await _refused(waiter, {**act, "action": trump}, "not_your_turn", match_id)
    await _refused(actor, {**act, "match": 999999, "action": trump}, "no_such_match", match_id)

    before = len(actor.received)
    stale = await _refused(actor, {**act, "version": version - 1, "action": trump}, "stale_version", match_id)
    assert stale["version"] == version and stale["in_reply_to"] == "act"
    after = [m["type"] for m in actor.received[before:]]
    assert after == ["error", "state", "pong"]  # a stale client is brought up to date at once
    assert actor.latest_state["version"] == version

    (_outsider, outsider_token) = await make_program_player("ref_outsider")
    outsider = await ProgramClient.connect(outsider_token)
    await _refused(outsider, {**act, "action": trump}, "not_seated", match_id)
    await _refused(outsider, {"type": "resign", "match": match_id}, "not_seated", match_id)
    await _refused(outsider, {"type": "join_table", "table": 999999}, "no_such_table", match_id)

    # A legal trump moves the match on; then a card the seat does not hold is refused.
    await actor.send({**act, "action": trump})
    assert (await actor.receive_type("state"))["version"] == version + 1
    state = await _state(match_id)
    mover = clients[state.to_act]
    not_held = next(c for c in state.hand(1 - state.to_act) if not c.startswith("X"))  # the opponent's card
    move = {"type": "act", "match": match_id, "version": version + 1}
    await _refused(mover, {**move, "action": {"play": not_held}}, "card_not_available", match_id)
    await _refused(mover, {**move, "action": {"play": "ZZ"}}, "unknown_card", match_id)
    for c in clients + [outsider]:
        await c.close()


async def test_table_refusals_carry_the_tables_code():
    (_host, host_token), (_guest, guest_token) = [await make_program_player(n) for n in ("tbl_host", "tbl_guest")]
    host_client = await ProgramClient.connect(host_token)
    guest_client = await ProgramClient.connect(guest_token)
    await _refused(host_client, {"type": "create_table", "variant": "poker"}, "invalid_option")
    await _refused(host_client, {"type": "create_table", "variant": "japanese", "options": {"target": 12}},
                   "invalid_option")
    await _refused(host_client, {"type": "create_table", "variant": "japanese", "options": {"colour": "red"}},
                   "invalid_option")
    await _refused(host_client, {"type": "create_table", "variant": "japanese", "options": []}, "invalid_option")
    await _refused(host_client, {"type": "create_table", "variant": "classic",
                                 "options": {"visibility": "password", "password": "ab"}}, "invalid_option")

    await host_client.send({"type": "create_table", "variant": "japanese",
                            "options": {"visibility": Visibility.PASSWORD, "password": "secret"}})
    room = await host_client.receive_type("table")
    assert room["visibility"] == "password" and room["seat"] == 0
    await _refused(guest_client, {"type": "join_table", "table": room["table"], "password": "wrong"}, "wrong_password")
    await _refused(guest_client, {"type": "join_table", "table": room["table"], "seat": 0, "password": "secret"},
                   "seat_taken")
    await _refused(guest_client, {"type": "join_table", "table": "one"}, "bad_message")
    await _refused(guest_client, {"type": "leave_table", "table": room["table"]}, "not_seated")

    # The host leaves before anyone joined: the table closes; joining it is refused.
    await host_client.send({"type": "leave_table", "table": room["table"], "id": 9})
    assert (await host_client.receive_type("left")) == {"type": "left", "table": room["table"], "id": 9}
    await _refused(guest_client, {"type": "join_table", "table": room["table"], "password": "secret"}, "not_open")
    await host_client.close()
    await guest_client.close()


async def test_ping_is_answered_with_pong_and_the_same_id():
    (_player, token) = await make_program_player("pinger")
    client = await ProgramClient.connect(token)
    for ident in (1, "a", {"t": 1.5}, None):
        await client.send({"type": "ping", "id": ident})
        assert await client.receive() == {"type": "pong", "id": ident}
    await client.send({"type": "ping"})
    assert await client.receive() == {"type": "pong"}
    await client.close()
