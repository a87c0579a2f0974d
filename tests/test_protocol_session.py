"""Who may connect to the JSON protocol, and picking a match up again after a reconnect."""

import pytest
from asgiref.sync import sync_to_async

from accounts.tokens import revoke_token
from games.models import Match
from games.services import tables as table_service
from games.services.matches import load_state
from games.services.tables import TableSettings
from tests.factories import make_guest, make_player
from tests.live_clients import session_cookie_for
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
    without_type,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SAME_SITE = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def _refused_connection(client, code):
    error = await client.receive()
    assert error["type"] == "error" and error["code"] == code and error["message"]
    assert await client.communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_a_connection_without_token_or_session_is_refused():
    client = await ProgramClient.connect(headers=SAME_SITE)
    await _refused_connection(client, "not_authenticated")


async def test_an_unknown_malformed_or_revoked_token_is_refused():
    player, raw = await make_program_player("revoked_owner")
    for header in (b"Bearer jkr_not-a-real-token", b"Basic dXNlcjpwYXNz", b"Bearer "):
        client = await ProgramClient.connect(headers=[(b"authorization", header)])
        await _refused_connection(client, "invalid_token")
    token_id = await sync_to_async(lambda: player.user.access_tokens.get().pk)()
    assert await sync_to_async(revoke_token)(player.user, token_id)
    client = await ProgramClient.connect(raw)
    await _refused_connection(client, "invalid_token")


async def test_a_valid_token_is_accepted_from_any_origin():
    _player, raw = await make_program_player("token_owner")
    client = await ProgramClient.connect(raw, headers=[(b"origin", b"https://elsewhere.example")])
    await client.send({"type": "hello"})
    welcome = await client.receive()
    assert welcome["type"] == "welcome" and welcome["player"]["name"] == "token_owner"
    assert welcome["player"]["guest"] is False
    await client.close()


async def test_the_browser_session_works_from_our_own_pages_only():
    member = await sync_to_async(make_player)("session_member")
    guest = await sync_to_async(make_guest)()
    for player, is_guest in ((member, False), (guest, True)):
        cookie = (b"cookie", (await sync_to_async(session_cookie_for)(player)).encode())
        client = await ProgramClient.connect(headers=SAME_SITE + [cookie])
        await client.send({"type": "hello", "language": "ru"})
        welcome = await client.receive()
        assert welcome["player"]["id"] == player.pk and welcome["player"]["guest"] is is_guest
        assert welcome["language"] == "ru"
        await client.close()
        # Another site's page cannot ride on the visitor's cookie.
        await ProgramClient.connect(headers=[(b"origin", b"https://evil.example"), cookie], expect_open=False)


@sync_to_async
def _japanese_match(players):
    table = table_service.create_table(players[0], TableSettings(variant="japanese", target=11))
    table_service.sit(table.pk, players[1])
    return Match.objects.get(table=table)


@sync_to_async
def _to_act(match_id):
    match = Match.objects.select_related("table").get(pk=match_id)
    return match.version, load_state(match).to_act


async def _move(clients, match_id):
    version, seat = await _to_act(match_id)
    state = await clients[seat].state_at(version)
    action = {k: v for k, v in state["view"]["legal_actions"][0].items() if k != "seat"}
    await clients[seat].send({"type": "act", "match": match_id, "version": version, "action": action})
    return version + 1


async def test_after_a_reconnect_hello_and_resync_give_the_same_position():
    players = [await make_program_player(n) for n in ("re_alice", "re_bob")]
    match = await _japanese_match([p for p, _ in players])
    clients = [await ProgramClient.connect(token) for _, token in players]
    for client in clients:
        await client.send({"type": "resync", "match": match.pk})
        await client.state_at(match.version)
    version = await _move(clients, match.pk)
    for client in clients:
        await client.state_at(version)
    before = without_type(clients[0].latest_state)

    await clients[0].close()  # alice drops; bob moves while she is away
    if (await _to_act(match.pk))[1] == 1:
        version = await _move([None, clients[1]], match.pk)
        await clients[1].state_at(version)
        before = without_type(clients[1].latest_state)

    again = await ProgramClient.connect(players[0][1])
    await again.send({"type": "hello"})
    welcome = await again.receive()
    assert welcome["tables"] == [{"table": match.table_id, "seat": 0, "variant": "japanese", "status": "playing",
                                  "match": match.pk, "version": version}]
    await again.send({"type": "resync", "match": match.pk})
    state = await again.state_at(version)
    assert state["view"]["seat"] == 0
    if before["view"]["seat"] == 0:
        assert {k: v for k, v in without_type(state).items() if k != "seats"} == {
            k: v for k, v in before.items() if k != "seats"}
    else:
        assert state["view"]["trick"] == before["view"]["trick"] and state["view"]["to_act"] == before["view"]["to_act"]
    # Play goes on over the new connection.
    clients[0] = again
    version = await _move(clients, match.pk)
    for client in clients:
        assert (await client.state_at(version))["version"] == version
    for client in clients:
        await client.close()


async def test_after_a_match_both_programs_ask_for_a_rematch_and_meet_at_one_new_table():
    players = [await make_program_player(n) for n in ("rm_alice", "rm_bob")]
    match = await _japanese_match([p for p, _ in players])
    alice, bob = [await ProgramClient.connect(token) for _, token in players]
    await alice.send({"type": "rematch", "table": match.table_id, "id": 1})
    early = await alice.receive_type("error")
    assert (early["code"], early["id"]) == ("not_finished", 1)

    await bob.send({"type": "resign", "match": match.pk})
    assert (await bob.receive_type("state"))["view"]["finished"]
    await alice.send({"type": "rematch", "table": 999999})
    assert (await alice.receive_type("error"))["code"] == "no_such_table"
    await alice.send({"type": "rematch", "table": match.table_id, "id": 2})
    waiting = await alice.receive_type("table")
    assert waiting["id"] == 2 and waiting["table"] != match.table_id and waiting["status"] == "open"
    assert waiting["seat"] == 0 and waiting["options"]["target"] == 11

    await bob.send({"type": "rematch", "table": match.table_id})
    started = await bob.receive_type("state")
    assert started["table"] == waiting["table"] and started["version"] == 1
    assert (await alice.receive_type("state"))["table"] == waiting["table"]
    await alice.close()
    await bob.close()


@sync_to_async
def _casual_match_with_a_guest(host):
    guest = make_guest()
    table = table_service.create_table(host, TableSettings(variant="japanese", target=11, rated=False))
    table_service.sit(table.pk, guest)
    return Match.objects.get(table=table), guest


@sync_to_async
def _guest_moves(match_id, guest):
    from games.services.matches import perform

    match = Match.objects.select_related("table").get(pk=match_id)
    state = load_state(match)
    action = {k: v for k, v in state.legal_actions(state.to_act)[0].to_record().items() if k != "seat"}
    perform(match_id, guest, action, match.version)
    return match.version + 1


async def test_a_pushed_position_is_in_the_language_the_program_chose():
    (player, token), = [await make_program_player("lang_alice")]
    match, guest = await _casual_match_with_a_guest(player)
    client = await ProgramClient.connect(token)
    await client.send({"type": "hello", "language": "ru"})
    await client.receive_type("welcome")
    await client.send({"type": "resync", "match": match.pk})
    version = match.version
    await client.state_at(version)
    for _ in range(6):  # whoever is to act moves: the program over its socket, the guest on the server
        _version, seat = await _to_act(match.pk)
        if seat == 0:
            version = await _move([client, None], match.pk)
        else:
            version = await _guest_moves(match.pk, guest)
            pushed = await client.state_at(version)  # a push, not an answer
            names = [s["name"] for s in pushed["seats"]]
            assert f"Гость {guest.guest_number}" in names, names
        await client.state_at(version)
    await client.close()
