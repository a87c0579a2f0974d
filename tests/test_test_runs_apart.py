"""`make test`'s runs side by side keep their notices apart (tests/conftest.py).

Redis pub/sub channels are named, not kept per database number: each run has its own Redis
database, yet a PUBLISH of one run's GROUP reached every other run's followers of their own
table 1. Each run's channel layer now publishes under a prefix of its own."""

import asyncio
import os

import pytest
from django.conf import settings

from joker_site.channel_layer import RedisChannelLayer

GROUP = "table-runs-apart"  # not a real table: another run on this machine may follow those
pytestmark = pytest.mark.skipif(not settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(".RedisChannelLayer"),
                                reason="the Redis pub/sub layer only (REDIS_URL)")


@pytest.mark.asyncio
async def test_a_notice_under_the_site_s_default_prefix_does_not_reach_this_run_s_table():
    from channels.layers import get_channel_layer

    ours = get_channel_layer()
    assert ours.prefix == os.environ["CHANNEL_PREFIX"] != "joker"  # its servers inherit it
    hosts = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    another_run = RedisChannelLayer(hosts=hosts, prefix="joker")  # what every run published under
    follower = await ours.new_channel()
    await ours.group_add(GROUP, follower)
    try:
        await another_run.group_send(GROUP, {"type": "table.update", "version": 9})
        await ours.group_send(GROUP, {"type": "table.update", "version": 10})
        assert (await asyncio.wait_for(ours.receive(follower), 5))["version"] == 10
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ours.receive(follower), 0.5)
    finally:
        await ours.group_discard(GROUP, follower)
        await ours.flush()
        await another_run.flush()
