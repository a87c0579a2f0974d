"""Berserk over the JSON protocol (docs/protocol.md): a program halves its own bank before an
arena match's first move with `berserk`, as the page's ⚔ button does, through the live match's
one way in. The answer is its state at the new version, the opponent is sent the same news,
and every refusal (twice, after the first move, someone not seated, a table without berserk)
is an error that changes nothing."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.models import Match
from games.services.matches import held_seat, load_state
from tests.protocol_clients import ProgramClient, japanese_match, make_program_player
from tournaments import services
from tournaments.models import Participant, Status, Tournament

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

BANK = 60


@sync_to_async
def _arena_match(players):
    tournament = Tournament.objects.create(
        name="Night arena", variant="japanese", minutes=60, rated=False, bank_seconds=BANK,
        starts_at=timezone.now() - timedelta(minutes=1), status=Status.RUNNING)
    for player in players:
        services.join(player, tournament)
    game = Participant.objects.get(tournament=tournament, player=players[0]).game
    match = Match.objects.select_related("table").get(table_id=game.table_id)
    return match.pk, [held_seat(match.table.seats.all(), player) for player in players]


@sync_to_async
def _snapshot(match_id):
    match = Match.objects.select_related("table").get(pk=match_id)
    seats = sorted((s.index, s.berserk, s.bank_spent_ms) for s in match.table.seats.all())
    return match.version, json.dumps(match.record, sort_keys=True), seats


@sync_to_async
def _to_act(match_id):
    return load_state(Match.objects.select_related("table").get(pk=match_id)).to_act


async def _refused(client, message, code, match_id):
    before = await _snapshot(match_id)
    await client.send(message)
    error = await client.receive_type("error")
    assert error["code"] == code and error["message"] and error["in_reply_to"] == "berserk", error
    assert await _snapshot(match_id) == before


async def test_a_program_halves_its_bank_before_the_first_move_and_is_refused_after_it():
    (alice, alice_token), (bob, bob_token) = [await make_program_player(n) for n in ("brs_alice", "brs_bob")]
    match_id, (alice_seat, bob_seat) = await _arena_match([alice, bob])
    alice_client, bob_client = [await ProgramClient.connect(t) for t in (alice_token, bob_token)]
    for client in (alice_client, bob_client):
        await client.send({"type": "resync", "match": match_id})
    version = (await alice_client.receive_type("state"))["version"]
    first = await bob_client.receive_type("state")
    assert first["berserk_open"] and not any(seat["berserk"] for seat in first["seats"])

    await alice_client.send({"type": "berserk", "match": match_id, "id": 7})
    answer = await alice_client.state_at(version + 1)
    assert answer["id"] == 7
    mine = answer["seats"][alice_seat]
    assert mine["berserk"] and not answer["seats"][bob_seat]["berserk"]
    assert mine["bank"] <= BANK / 2
    assert (await bob_client.state_at(version + 1))["seats"][alice_seat]["berserk"]  # the news reaches the opponent
    assert (await _snapshot(match_id))[2][alice_seat][1:] == (True, BANK * 1000 // 2)

    await _refused(alice_client, {"type": "berserk", "match": match_id}, "berserk_already", match_id)
    (_outsider, outsider_token) = await make_program_player("brs_outsider")
    outsider = await ProgramClient.connect(outsider_token)
    await _refused(outsider, {"type": "berserk", "match": match_id}, "not_seated", match_id)

    # The first move closes the offer: Bob is refused, his bank whole.
    actor = alice_client if await _to_act(match_id) == alice_seat else bob_client
    await actor.send({"type": "act", "match": match_id, "version": version + 1, "action": {"trump": "S"}})
    assert (await bob_client.state_at(version + 2))["berserk_open"] is False
    await _refused(bob_client, {"type": "berserk", "match": match_id}, "berserk_too_late", match_id)
    for client in (alice_client, bob_client, outsider):
        await client.close()


async def test_a_program_at_a_table_without_berserk_is_refused_and_nothing_changes():
    (carol, carol_token), (dan, _dan_token) = [await make_program_player(n) for n in ("brs_carol", "brs_dan")]
    match, _to_act_seat = await japanese_match([carol, dan])
    client = await ProgramClient.connect(carol_token)
    await _refused(client, {"type": "berserk", "match": match.pk}, "no_berserk", match.pk)
    await _refused(client, {"type": "berserk", "match": "this one"}, "bad_message", match.pk)
    await client.close()
