"""A match aborted in the admin is shown at the table at once, through the
players' live websocket connections."""

import re

import pytest
from asgiref.sync import sync_to_async

from games.models import Match, MatchStatus
from tests.live_clients import connect
from tests.moderation_support import balance, confirm, moderator_client, running_match

VERSION = re.compile(r'id="match"[^>]*data-version="(\d+)"')

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@sync_to_async
def _abort_in_the_admin(match):
    client, _moderator = moderator_client()
    return confirm(client, "games", "match", "abort_match", [match.pk], reason="Reported as a cheating pair.")


async def _frame_at_version(client, version):
    while True:
        frame = await client.receive_from(timeout=10)
        found = VERSION.search(frame)
        if found and int(found.group(1)) >= version:
            return frame


async def test_players_at_the_table_see_the_abort_live_and_get_their_stakes_back():
    match, players = await sync_to_async(running_match)(("tamar", "levan"), "japanese", 100)
    clients = [await connect(match.table_id, p) for p in players]
    try:
        for client in clients:  # each first gets the current position
            await _frame_at_version(client, match.version)
        response = await _abort_in_the_admin(match)
        assert response.status_code == 302
        aborted = await sync_to_async(Match.objects.get)(pk=match.pk)
        assert aborted.status == MatchStatus.ABORTED
        for client in clients:
            frame = await _frame_at_version(client, aborted.version)
            assert "The match is over" in frame
            assert "nobody wins, and every stake has been returned" in frame
        assert [await sync_to_async(balance)(p) for p in players] == [1000, 1000]
    finally:
        for client in clients:
            await client.disconnect()
