"""The rated/casual table option over the JSON protocol, and the rating in its seat list."""

import pytest
from asgiref.sync import sync_to_async

from games.models import Table
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_program_creates_a_casual_or_a_rated_table_and_sees_the_seat_ratings():
    _player, token = await make_program_player("botmaker")
    client = await ProgramClient.connect(token)
    await client.send({"type": "create_table", "variant": "japanese", "options": {"rated": False}})
    casual = await client.receive_type("table")
    assert casual["rated"] is False
    assert casual["seats"][0]["rating"]["provisional"] is True
    await client.send({"type": "leave_table", "table": casual["table"]})
    await client.receive_type("left")
    await client.send({"type": "create_table", "variant": "classic", "options": {}})
    rated = await client.receive_type("table")
    assert rated["rated"] is True
    assert await sync_to_async(lambda: Table.objects.get(pk=rated["table"]).rated)() is True
    await client.close()
