"""Whole matches played through the websocket consumers, as browsers play them.

Every frame any client receives is checked for cards its seat may not see.
"""

import json
import random
import re

import pytest
from asgiref.sync import sync_to_async

from games.models import Match, MatchStatus
from games.services import tables as table_service
from games.services.matches import load_state
from games.services.tables import TableSettings
from tests.factories import make_player
from tests.live_clients import cards_in, connect, hidden_from, legal_moves

VERSION = re.compile(r'id="match"[^>]*data-version="(\d+)"')

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@sync_to_async
def _setup(variant, names, **options):
    players = [make_player(n) for n in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, **options))
    for p in players[1:]:
        table_service.sit(table.pk, p)
    return table, players


@sync_to_async
def _current(table_id):
    match = Match.objects.select_related("table").get(table_id=table_id)
    return match, load_state(match)


async def _frames_until(client, version):
    """Every frame up to and including the one showing `version`."""
    frames = []
    while True:
        frame = await client.receive_from(timeout=10)
        frames.append(frame)
        found = VERSION.search(frame)
        if found and int(found.group(1)) >= version:
            assert int(found.group(1)) == version, "the client missed a version"
            return frames


async def _play_whole_match(table, players, rng, max_moves=5000):
    """Each step: every client receives the new position; each frame is checked
    against the cards its seat may not see at that position; the seat to act
    clicks one of its marked legal moves."""
    clients = [await connect(table.pk, p) for p in players]
    match, _ = await _current(table.pk)
    version = match.version
    moves = 0
    try:
        while True:
            received = [await _frames_until(c, version) for c in clients]
            match, state = await _current(table.pk)
            assert match.version == version
            for seat, frames in enumerate(received):
                for frame in frames:
                    leaked = cards_in(frame) & hidden_from(state, seat)
                    assert not leaked, (seat, version, sorted(leaked))
            latest = [frames[-1] for frames in received]
            if match.status != MatchStatus.RUNNING:
                return match, state, latest
            seat = state.to_act
            marked = legal_moves(latest[seat])
            assert sorted(map(_key, marked)) == sorted(_key(a.to_record()) for a in state.legal_actions(seat))
            for other, frame in enumerate(latest):
                if other != seat:
                    assert legal_moves(frame) == []
            await clients[seat].send_to(text_data=json.dumps(rng.choice(marked)))
            version += 1
            moves += 1
            assert moves < max_moves
    finally:
        for c in clients:
            await c.disconnect()


def _key(action: dict) -> str:
    action = {k: v for k, v in action.items() if k not in ("type", "version", "seat")}
    return json.dumps(action, sort_keys=True)


async def test_whole_japanese_match_through_the_consumers_leaks_no_hidden_card():
    table, players = await _setup("japanese", ["tamar", "levan"], target=11)
    match, state, frames = await _play_whole_match(table, players, random.Random(7))
    assert match.status == MatchStatus.FINISHED
    assert max(state.totals) >= 11 and match.winners == state.winners()
    assert all("The match is over" in f for f in frames)


async def test_whole_classic_short_match_through_the_consumers_leaks_no_hidden_card():
    table, players = await _setup("classic", ["ana", "giorgi", "nino", "dato"], game_type="short")
    match, state, _frames = await _play_whole_match(table, players, random.Random(11))
    assert match.status == MatchStatus.FINISHED
    assert len(state.scores()["deal_scores"]) == 12
    assert match.record["deals"] and len(match.record["deals"]) == 12
