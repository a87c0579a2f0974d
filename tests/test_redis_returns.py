"""Issue 36, the site's services restarting: a move made while Redis was away reaches the other
player's socket as soon as Redis is back, not at the sweeper's next round (a table stood still
for 7.6-13 s). The channel layer is the real one (joker_site/channel_layer.py) on a Redis of
the test's own (tests/private_services.py), killed and started again on its port; no sweeper
runs here, so the position can only come from the layer catching up."""

import os
import time

import pytest
from channels.layers import channel_layers

from tests import private_services
from tests.protocol_clients import ProgramClient, as_sent, japanese_match, make_program_player

pytestmark = [
    pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(private_services.missing() is not None, reason=str(private_services.missing())),
]


@pytest.fixture
def private_redis_layer(settings):
    redis = private_services.PrivateRedis().start()
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "joker_site.channel_layer.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": redis.url}], "prefix": f"joker-private-{os.getpid()}"},
    }}
    channel_layers.backends.clear()
    yield redis
    channel_layers.backends.clear()
    redis.stop()


async def _follow(client, match_id, language="en"):
    await client.send({"type": "hello", "language": language})
    await client.receive_type("welcome")
    await client.send({"type": "resync", "match": match_id})
    return await client.receive_type("state")


async def test_a_move_made_while_redis_was_down_reaches_the_other_seat_when_it_returns(private_redis_layer, caplog):
    redis = private_redis_layer
    (tamar, tamar_token), (giorgi, giorgi_token) = [await make_program_player(n) for n in ("tamar_r", "giorgi_r")]
    match, to_act = await japanese_match([tamar, giorgi])
    clients = [await ProgramClient.connect(token) for token in (tamar_token, giorgi_token)]
    state = [await _follow(client, match.pk) for client in clients][to_act]
    mover, waiter = clients[to_act], clients[1 - to_act]
    action = state["view"]["legal_actions"][0]

    redis.stop()
    await mover.send({"type": "act", "match": match.pk, "version": state["version"],
                      "action": as_sent(action)})
    moved = await mover.receive_type("state")  # the mover's own answer needs no Redis
    assert moved["version"] == state["version"] + 1
    await waiter.nothing_more()  # its notice was lost with Redis

    redis.start()
    back = time.monotonic()
    caught_up = await waiter.state_at(moved["version"])
    print(f"the position reached the other seat {time.monotonic() - back:.2f} s after Redis was back")
    assert caught_up["version"] == moved["version"]
    lost = [r for r in caplog.records if "lost Redis" in r.getMessage()]
    assert len(lost) == 1, [r.getMessage() for r in caplog.records]  # said once, not a traceback a second
    assert not [r.getMessage() for r in caplog.records if r.exc_info], "a traceback for Redis being away"
    for client in clients:
        await client.close()
