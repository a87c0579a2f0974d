"""A notice sent from synchronous code reaches the sockets wherever that code runs."""

import asyncio

import pytest
from channels.layers import get_channel_layer

from games.services import broadcast


@pytest.mark.asyncio
async def test_a_notice_sent_by_synchronous_code_inside_another_event_loop_arrives():
    # Playwright's synchronous API (the browser tests' set-up) keeps a loop running in the
    # thread that calls the site's services: the notice must still go out, not fail there.
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.LOBBY_GROUP, channel)
    broadcast.lobby_changed()  # plain call, this thread's loop running
    received = await asyncio.wait_for(layer.receive(channel), 5)
    assert received == {"type": "lobby.changed"}
    await layer.group_discard(broadcast.LOBBY_GROUP, channel)
