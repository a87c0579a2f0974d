"""A websocket connection may send only so many frames (joker_site/frame_budget.py): the
security review's 300 `resync` frames on one spectator socket got 300 full renders (2.8 MB in
2.1 s). Now the frames past the budget are not read, the client is told `rate_limited`, and a
connection that goes on is closed."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from joker_site.asgi import application
from joker_site.frame_budget import CLOSE_FLOODED, FrameBudget
from tests.factories import make_player
from tests.live_clients import connect
from tests.protocol_clients import ProgramClient, japanese_match, make_program_player

pytestmark = pytest.mark.asyncio


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.mark.asyncio(loop_scope="function")
async def test_a_budget_gives_a_burst_then_so_many_frames_a_second(settings):
    settings.SOCKET_FLOOD_CLOSE_AFTER = 5
    clock = Clock()
    budget = FrameBudget(rate=2, burst=3, clock=clock)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    assert budget.retry_after() == pytest.approx(0.5)
    clock.now = 0.5  # one more token
    assert budget.take() and not budget.take()
    clock.now = 10  # full again, never past the burst
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    assert not budget.overdrawn()
    for _ in range(4):
        budget.take()
    assert budget.overdrawn() and budget.refused_in_a_row == 5
    clock.now = 11
    assert budget.take() and budget.refused_in_a_row == 0  # a frame read ends the run
    while budget.take():
        pass
    budget.refund()  # a move the match took gives its token back
    assert budget.take() and not budget.take()


async def _spectated_table():
    players = [await sync_to_async(make_player)(name) for name in ("fb1", "fb2")]
    match, _to_act = await japanese_match(players)
    return match


@pytest.mark.django_db(transaction=True)
async def test_a_flood_of_resyncs_on_a_spectators_page_is_refused_then_closed(settings):
    settings.SOCKET_FRAMES_PER_SECOND = 1
    settings.SOCKET_FRAME_BURST = 5
    settings.SOCKET_FLOOD_CLOSE_AFTER = 20
    match = await _spectated_table()
    watcher = await sync_to_async(make_player)("fb_watcher")
    page = await connect(match.table_id, watcher)
    assert 'id="match"' in await page.receive_from()
    for _ in range(300):
        await page.send_to(text_data='{"type": "resync"}')
    positions = refusals = 0
    while True:
        output = await page.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            assert output["code"] == CLOSE_FLOODED
            break
        text = output["text"]
        if 'id="match"' in text:
            positions += 1
        elif "Too many messages at once" in text:
            refusals += 1
    assert positions <= 6  # the burst, and perhaps a token that came back meanwhile
    assert refusals >= 15  # told, until the connection went on too long and was closed


@pytest.mark.django_db(transaction=True)
async def test_a_program_past_its_budget_gets_rate_limited_and_is_closed_when_it_goes_on(settings):
    settings.SOCKET_FRAMES_PER_SECOND = 1
    settings.SOCKET_FRAME_BURST = 3
    settings.SOCKET_FLOOD_CLOSE_AFTER = 10
    _player, token = await make_program_player("fb_program")
    client = await ProgramClient.connect(token)
    for number in range(40):
        await client.send({"type": "ping", "id": number})
    answers, closed = [], None
    while True:
        output = await client.communicator.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            closed = output["code"]
            break
        answers.append(json.loads(output["text"]))
    assert [a["id"] for a in answers if a["type"] == "pong"] == [0, 1, 2]
    limited = [a for a in answers if a["type"] == "error"]
    assert limited and all(a["code"] == "rate_limited" and a["params"]["retry_after"] > 0 for a in limited)
    assert closed == CLOSE_FLOODED


@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_only_listens_is_closed_when_flooded(settings):
    settings.SOCKET_FRAME_BURST = 2
    settings.SOCKET_FRAMES_PER_SECOND = 1
    settings.SOCKET_FLOOD_CLOSE_AFTER = 5
    lobby = WebsocketCommunicator(application, "/ws/lobby/",
                                  headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    assert (await lobby.connect())[0]
    for _ in range(20):
        await lobby.send_to(text_data="anything")
    output = await lobby.receive_output(timeout=10)
    assert output == {"type": "websocket.close", "code": CLOSE_FLOODED}
