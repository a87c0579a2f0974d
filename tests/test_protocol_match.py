"""Whole matches played by programs over the JSON protocol.

Every frame any program receives is checked for cards its seat may not see,
and every position it receives is exactly `seat_view(match, seat)`: the dict
the browser's page is rendered from.
"""

import random

import pytest

from games.models import MatchStatus
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
    play_whole_match,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


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


async def test_whole_japanese_match_over_the_protocol_leaks_no_hidden_card():
    clients, match_id, version = await _start("japanese", ["prog_tamar", "prog_levan"], {"target": 11})
    match, state, last = await play_whole_match(clients, match_id, version, random.Random(5))
    assert match.status == MatchStatus.FINISHED
    assert max(state.totals) >= 11 and match.winners == state.winners()
    assert all(s["status"] == "finished" and s["view"]["finished"] for s in last)


async def test_whole_classic_short_match_over_the_protocol_leaks_no_hidden_card():
    clients, match_id, version = await _start(
        "classic", ["prog_ana", "prog_giorgi", "prog_nino", "prog_dato"], {"game_type": "short"})
    match, state, last = await play_whole_match(clients, match_id, version, random.Random(13))
    assert match.status == MatchStatus.FINISHED
    assert len(state.scores()["deal_scores"]) == 12
    assert all(s["view"]["ranking"] is not None for s in last)


async def test_a_players_move_runs_on_the_moves_own_threads_not_behind_the_others_updates(monkeypatch):
    import threading

    from asgiref.sync import sync_to_async

    from games.models import Match
    from games.services import matches
    from games.services.matches import load_state

    made_on = []
    perform = matches.perform

    def recorded(*args, **kwargs):
        made_on.append(threading.current_thread().name)
        return perform(*args, **kwargs)

    monkeypatch.setattr(matches, "perform", recorded)
    clients, match_id, version = await _start("japanese", ["prog_nino", "prog_gio"], {"target": 11})
    state = await sync_to_async(lambda: load_state(Match.objects.get(pk=match_id)))()
    seat = state.to_act
    action = {k: v for k, v in state.legal_actions(seat)[0].to_record().items() if k != "seat"}
    await clients[seat].send({"type": "act", "match": match_id, "version": version, "action": action, "id": 7})
    answer = await clients[seat].receive_type("state")
    while answer["version"] == version:  # a position sent before the move was made
        answer = await clients[seat].receive_type("state")
    assert answer["version"] == version + 1
    assert made_on and all(name.startswith("move-db") for name in made_on)
