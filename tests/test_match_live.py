"""Whole matches played through the websocket consumers, as browsers play them.

Every frame any client receives is checked for cards its seat may not see.
"""

import random

import pytest
from asgiref.sync import sync_to_async

from games.models import MatchStatus
from games.services import tables as table_service
from games.services.tables import TableSettings
from tests.factories import make_player
from tests.live_clients import play_whole_match_in_browsers

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@sync_to_async
def _setup(variant, names, **options):
    players = [make_player(n) for n in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, **options))
    for p in players[1:]:
        table_service.sit(table.pk, p)
    return table, players


async def test_whole_japanese_match_through_the_consumers_leaks_no_hidden_card():
    table, players = await _setup("japanese", ["tamar", "levan"], target=11)
    match, state, frames = await play_whole_match_in_browsers(table, players, random.Random(7))
    assert match.status == MatchStatus.FINISHED
    assert max(state.totals) >= 11 and match.winners == state.winners()
    assert all("The match is over" in f for f in frames)


async def test_whole_classic_short_match_through_the_consumers_leaks_no_hidden_card():
    table, players = await _setup("classic", ["ana", "giorgi", "nino", "dato"], game_type="short")
    match, state, _frames = await play_whole_match_in_browsers(table, players, random.Random(11))
    assert match.status == MatchStatus.FINISHED
    assert len(state.scores()["deal_scores"]) == 12
    assert match.record["deals"] and len(match.record["deals"]) == 12
