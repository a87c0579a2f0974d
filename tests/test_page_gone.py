"""A page that closes while its socket is still answering is counted as gone
(joker_site/page_gone.py): the frame meant for it is dropped, and the disconnect that
follows runs as for any other page. Once, a table page closed while its first frame was
being drawn; Daphne refused the frame, the consumer died with it, and the seat stayed
"connected" for good: the others never saw the player go and no bot took the seat. A fault of
ours while a table page opens closes its socket (the page opens it again) rather than end the
consumer the same way."""

import inspect
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from games.models import Seat
from joker_site.asgi import application
from joker_site.page_gone import DropFramesToAPageGone
from tests.live_clients import handshake_headers
from tests.replay_helpers import seated_match


async def closed_before_its_first_frame(scope, receive, send):
    """The site, served to a page that closed before the first frame reached it: the
    server refuses every frame as Daphne does on a closed connection."""

    async def refusing_frames(message):
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")
        await send(message)

    await application(scope, receive, refusing_frames)


async def table_page(served_by, match, player) -> WebsocketCommunicator:
    """The player's table page, its socket opened on the site as `served_by` serves it."""
    page = WebsocketCommunicator(served_by, f"/ws/table/{match.table_id}/?lang=en",
                                 headers=await handshake_headers(player))
    connected, _ = await page.connect(timeout=10)
    assert connected
    return page


async def assert_counted_as_gone(match, player):
    seat = await sync_to_async(Seat.objects.get)(table_id=match.table_id, player=player)
    assert seat.connections == 0
    assert seat.disconnected_at is not None  # the grace has begun: the others see the player gone


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_seat_whose_page_closes_while_the_table_is_drawn_is_counted_as_gone():
    match, players = await sync_to_async(seated_match)("japanese", ("tamar", "levan"), target=11)
    page = await table_page(closed_before_its_first_frame, match, players[1])
    await page.disconnect(timeout=10)  # the server's websocket.disconnect, which Daphne queues after
    await assert_counted_as_gone(match, players[1])


def _consumers_of_ours(cls=AsyncWebsocketConsumer):
    """The site's consumers: defined in the project, not in a test."""
    from django.conf import settings

    for sub in cls.__subclasses__():
        where, site = Path(inspect.getfile(sub)).resolve(), Path(settings.BASE_DIR).resolve()
        if where.is_relative_to(site) and where.relative_to(site).parts[0] not in (".venv", "tests"):
            yield sub
        yield from _consumers_of_ours(sub)


def test_every_socket_of_the_site_drops_frames_to_a_page_gone():
    import joker_site.asgi  # noqa: F401  (every consumer is imported with the routes)

    consumers = set(_consumers_of_ours())
    assert len(consumers) >= 7, consumers
    missing = [f"{inspect.getmodule(c).__name__}.{c.__name__}" for c in consumers
               if not issubclass(c, DropFramesToAPageGone)]
    assert missing == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_seat_whose_page_fails_to_open_by_a_fault_of_ours_is_closed_and_counted_as_gone(monkeypatch):
    from games.consumers import CLOSE_TRY_AGAIN_LATER, TableConsumer

    async def drawing_fails(self):
        raise RuntimeError("a fault while the table is drawn")

    monkeypatch.setattr(TableConsumer, "send_state", drawing_fails)
    match, players = await sync_to_async(seated_match)("japanese", ("tamar", "levan"), target=11)
    page = await table_page(application, match, players[1])
    closed = await page.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER}  # the page opens it again
    await page.disconnect(timeout=10)
    await assert_counted_as_gone(match, players[1])
