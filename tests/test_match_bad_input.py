"""Bad input at the live table: a clear error, the state unchanged, the socket open."""

import json
import re

import pytest
from asgiref.sync import sync_to_async

from games.models import Match
from games.services import tables as table_service
from games.services.matches import load_state, perform
from games.services.tables import TableSettings
from tests.factories import make_player, player_at
from tests.live_clients import connect

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ERROR = re.compile(r'<div id="match-error"[^>]*>(.*?)</div>', re.DOTALL)


@sync_to_async
def _setup(variant, names, **options):
    players = [make_player(n) for n in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, **options))
    for p in players[1:]:
        table_service.sit(table.pk, p)
    match = Match.objects.get(table=table)
    return table, players, match


@sync_to_async
def _snapshot(match):
    fresh = Match.objects.get(pk=match.pk)
    return fresh.version, json.dumps(fresh.record, sort_keys=True)


@sync_to_async
def _state(match):
    return load_state(Match.objects.select_related("table").get(pk=match.pk))


async def _error_after(client, payload) -> str:
    await client.send_to(text_data=payload if isinstance(payload, str) else json.dumps(payload))
    for _ in range(10):
        frame = await client.receive_from(timeout=10)
        found = ERROR.search(frame)
        if found and found.group(1).strip():
            return found.group(1).strip()
    raise AssertionError("no error frame")


async def _still_open(client):
    await client.send_to(text_data=json.dumps({"type": "resync"}))
    frame = await client.receive_from(timeout=10)
    assert 'id="match"' in frame


async def _japanese_with_clients():
    table, players, match = await _setup("japanese", ["tamar", "levan"])
    state = await _state(match)
    clients = [await connect(table.pk, p) for p in players]
    for c in clients:
        await c.receive_from(timeout=10)
    return table, players, match, state, clients


async def _refused(client, match, payload, expected_words):
    before = await _snapshot(match)
    message = await _error_after(client, payload)
    assert expected_words in message, message
    assert await _snapshot(match) == before
    await _still_open(client)


async def test_malformed_frame_gets_an_error_and_changes_nothing():
    _table, _players, match, _state, clients = await _japanese_with_clients()
    await _refused(clients[0], match, "{not json", "could not be read")
    await _refused(clients[0], match, json.dumps([1, 2]), "could not be read")
    await _refused(clients[0], match, {"type": "act", "version": "x", "play": "AS"}, "which position")
    for c in clients:
        await c.disconnect()


async def test_unknown_message_type_is_refused():
    _table, _players, match, _state, clients = await _japanese_with_clients()
    await _refused(clients[0], match, {"type": "dance"}, "Unknown message type")
    for c in clients:
        await c.disconnect()


async def test_action_out_of_turn_is_refused():
    _table, _players, match, state, clients = await _japanese_with_clients()
    waiting = 1 - state.to_act
    await _refused(clients[waiting], match, {"type": "act", "version": 1, "trump": "H"}, "not your turn")
    for c in clients:
        await c.disconnect()


async def test_illegal_card_is_refused_with_the_engines_reason():
    _table, _players, match, state, clients = await _japanese_with_clients()
    seat = state.to_act
    await clients[seat].send_to(text_data=json.dumps({"type": "act", "version": 1, "trump": "S"}))
    await clients[seat].receive_from(timeout=10)
    state = await _state(match)
    missing = next(c for c in state.hand(1 - seat) if not c.startswith("X"))  # a card the opponent holds
    await _refused(clients[seat], match, {"type": "act", "version": 2, "play": missing}, "do not have that card")
    for c in clients:
        await c.disconnect()


async def test_stale_version_and_double_tap_change_nothing():
    _table, _players, match, state, clients = await _japanese_with_clients()
    seat = state.to_act
    move = {"type": "act", "version": 1, "trump": "D"}
    await clients[seat].send_to(text_data=json.dumps(move))
    await clients[seat].receive_from(timeout=10)
    await _refused(clients[seat], match, move, "moved on")  # the same tap again
    for c in clients:
        await c.disconnect()


async def test_a_refusal_shown_to_a_stale_tab_goes_away_with_the_next_position():
    _table, _players, match, state, clients = await _japanese_with_clients()
    seat = state.to_act
    move = {"type": "act", "version": 1, "trump": "D"}
    await clients[seat].send_to(text_data=json.dumps(move))
    assert "moved on" in await _error_after(clients[seat], move)  # the tap again, against the old position
    catch_up = await clients[seat].receive_from(timeout=10)
    assert 'id="match"' in catch_up and ERROR.search(catch_up) is None  # the refusal stays with its catch-up
    position = await _state(match)
    action = position.legal_actions(position.to_act)[0].to_record()
    await sync_to_async(lambda *a: perform(match.pk, player_at(match, position.to_act), *a))({k: v for k, v in action.items() if k != "seat"}, 2)
    next_position = ""
    while 'data-version="3"' not in next_position:
        next_position = await clients[seat].receive_from(timeout=10)
    assert ERROR.search(next_position).group(1).strip() == ""
    for c in clients:
        await c.disconnect()


async def test_acting_at_a_table_you_do_not_sit_at_is_refused():
    table, _players, match, _state, clients = await _japanese_with_clients()
    outsider = await sync_to_async(make_player)("outsider")
    watcher = await connect(table.pk, outsider)
    await watcher.receive_from(timeout=10)
    await _refused(watcher, match, {"type": "act", "version": 1, "trump": "H"}, "not sitting at this table")
    for c in clients + [watcher]:
        await c.disconnect()


async def test_dealer_forbidden_bid_is_refused():
    table, _players, match = await _setup("classic", ["ana", "giorgi", "nino", "dato"])
    state = await _state(match)
    version = 1
    while state.to_act != state.dealer:  # everyone before the dealer bids
        seat = state.to_act
        await sync_to_async(lambda: perform(match.pk, player_at(match, seat), state.legal_actions(seat)[0].to_record(),
                                            version))()
        version += 1
        state = await _state(match)
    seats = await sync_to_async(lambda: {s.index: s.player for s in table.seats.select_related("player")})()
    client = await connect(table.pk, seats[state.dealer])
    await client.receive_from(timeout=10)
    forbidden = state.forbidden_bid
    assert forbidden is not None
    await _refused(client, match, {"type": "act", "version": version, "bid": forbidden}, "dealer")
    await client.disconnect()
