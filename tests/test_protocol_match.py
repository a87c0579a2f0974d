"""Whole matches played by programs over the JSON protocol.

Every frame any program receives is checked for cards its seat may not see,
and every position it receives is exactly `seat_view(match, seat)`: the dict
the browser's page is rendered from.
"""

import json
import random

import pytest
from asgiref.sync import sync_to_async

from games.models import Match, MatchStatus
from games.services.matches import load_state
from games.services.presenter import seat_view
from tests.live_clients import hidden_from
from tests.protocol_clients import (  # noqa: F401 (the fixture)
    ProgramClient,
    _close_protocol_thread_connections,
    cards_in_message,
    make_program_player,
    without_type,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@sync_to_async
def _current(match_id):
    match = Match.objects.select_related("table").get(pk=match_id)
    return match, load_state(match)


@sync_to_async
def _views(match_id, seats):
    match = Match.objects.select_related("table").get(pk=match_id)
    return [json.loads(json.dumps(seat_view(match, seat))) for seat in seats]


async def _start(variant, names, options):
    """The first program creates the table, the others join it; all get the first position."""
    players = [await make_program_player(n) for n in names]
    clients = [await ProgramClient.connect(token) for _player, token in players]
    await clients[0].send({"type": "hello", "id": 1})
    welcome = await clients[0].receive_type("welcome")
    assert welcome["id"] == 1 and welcome["protocol"] == 1 and welcome["tables"] == []
    await clients[0].send({"type": "create_table", "variant": variant, "options": options, "id": "new"})
    room = await clients[0].receive_type("table")
    assert room["id"] == "new" and room["seat"] == 0 and room["status"] == "open"
    for seat, client in enumerate(clients[1:], start=1):
        await client.send({"type": "join_table", "table": room["table"], "seat": seat})
    first = [await c.receive_type("state") for c in clients]
    assert len({s["match"] for s in first}) == 1
    assert [s["view"]["seat"] for s in first] == list(range(len(names)))
    return clients, first[0]["match"], first[0]["version"]


async def _play_whole_match(clients, match_id, version, rng, max_moves=5000):
    """Each step: every program receives the new position, each frame is checked
    against the cards its seat may not see at that position, and the seat to act
    sends one of the legal actions its state lists."""
    seats = list(range(len(clients)))
    moves = 0
    try:
        while True:
            latest = [await c.state_at(version) for c in clients]
            match, state = await _current(match_id)
            assert match.version == version
            for seat, client in enumerate(clients):
                hidden = hidden_from(state, seat)
                for message in client.received:
                    leaked = cards_in_message(message) & hidden
                    assert not leaked, (seat, version, message["type"], sorted(leaked))
                client.received.clear()
            # One view function, two renderings: the frame is the seat view itself.
            for frame, expected in zip(latest, await _views(match_id, seats)):
                _assert_same_view(without_type(frame), expected)
            if match.status != MatchStatus.RUNNING:
                return match, state, latest
            seat = state.to_act
            legal = latest[seat]["view"]["legal_actions"]
            assert sorted(map(_key, legal)) == sorted(_key(a.to_record()) for a in state.legal_actions(seat))
            assert all(latest[other]["view"]["legal_actions"] == [] for other in seats if other != seat)
            action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
            await clients[seat].send({"type": "act", "match": match_id, "version": version, "action": action})
            version += 1
            moves += 1
            assert moves < max_moves
    finally:
        for c in clients:
            await c.close()


PRESENCE_FIELDS = ("connected", "grace_until")


def _assert_same_view(frame, expected):
    """Equal, key by key; who is connected may have changed since the frame was sent."""
    assert frame.keys() == expected.keys()
    for key in expected:
        if key == "seats":
            strip = [{k: v for k, v in seat.items() if k not in PRESENCE_FIELDS} for seat in frame[key]]
            assert strip == [{k: v for k, v in seat.items() if k not in PRESENCE_FIELDS} for seat in expected[key]]
        else:
            assert frame[key] == expected[key], key


def _key(action: dict) -> str:
    return json.dumps({k: v for k, v in action.items() if k != "seat"}, sort_keys=True)


async def test_whole_japanese_match_over_the_protocol_leaks_no_hidden_card():
    clients, match_id, version = await _start("japanese", ["prog_tamar", "prog_levan"], {"target": 11})
    match, state, last = await _play_whole_match(clients, match_id, version, random.Random(5))
    assert match.status == MatchStatus.FINISHED
    assert max(state.totals) >= 11 and match.winners == state.winners()
    assert all(s["status"] == "finished" and s["view"]["finished"] for s in last)


async def test_whole_classic_short_match_over_the_protocol_leaks_no_hidden_card():
    clients, match_id, version = await _start(
        "classic", ["prog_ana", "prog_giorgi", "prog_nino", "prog_dato"], {"game_type": "short"})
    match, state, last = await _play_whole_match(clients, match_id, version, random.Random(13))
    assert match.status == MatchStatus.FINISHED
    assert len(state.scores()["deal_scores"]) == 12
    assert all(s["view"]["ranking"] is not None for s in last)
