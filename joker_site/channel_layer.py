"""The Redis channel layer: Redis pub/sub, so that a notice costs one PUBLISH and is pushed.

channels_redis's default layer keeps a list per consumer: a group send costs a
round trip for the group's members and a script per member, and each web
process's receive loop pops its consumers' messages with one BZPOPMIN round
trip after another; at 200 matches about 400 notices queued in front of it.
With pub/sub (channels_redis.pubsub) a group is a Redis channel: a move's notice
is one PUBLISH, Redis pushes it once to every web process that has a member of
the group, and the process hands it to its members from memory.

What it gives up is what the site never relied on: messages are delivered at
most once and not kept for a process that is not subscribed at that moment
(the sweeper's `table.check` re-announces every running table's version, and
a tab resyncs when it reconnects), and there is no per-channel capacity.

When Redis goes away and comes back, the notices published meanwhile are gone. Each web
process's receiving loop notices the connection is lost (one warning, not a traceback a
second) and, the moment it reads from Redis again (its subscriptions renewed), hands every
group it holds the message the app that named the group registered (`after_reconnect`:
games asks each followed table to check its version, the lobby to refetch), so the
positions made while Redis was away reach the sockets at once, not at the sweeper's next
round (docs/deploy.md).

`CHANNEL_LAYER=lists` selects the old list-based layer (with a pool that waits
for a free connection instead of failing: under load the plain pool raised
"Too many connections", which closed the player's socket or dropped a notice).
"""

import asyncio
import logging
import time
from collections.abc import Callable

from channels_redis.core import RedisChannelLayer as _ListChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.2  # how often a process whose Redis went away tries it again

# group name prefix -> function(group name) giving the message its members get after Redis came
# back (None: nothing); the apps register theirs from AppConfig.ready() (`after_reconnect`).
_after_reconnect: dict[str, Callable[[str], dict | None]] = {}


def after_reconnect(prefix: str, message_for: Callable[[str], dict | None]) -> None:
    """After Redis comes back, each group of this process whose name starts with `prefix` is
    handed `message_for(group)` (the notices of the time it was away were lost)."""
    _after_reconnect[prefix] = message_for


def _message_after_reconnect(group: str) -> dict | None:
    for prefix, message_for in _after_reconnect.items():
        if group.startswith(prefix):
            return message_for(group)
    return None


class RedisChannelLayer(RedisPubSubChannelLayer):
    """Pub/sub (the default); the settings pass it the hosts and the prefix only."""

    def __init__(self, hosts=None, prefix="joker", **_list_layer_options):
        # A connection's own options only: the pool here never waits (a process holds one
        # subscribed connection and publishes on one more, under the layer's lock).
        kept = ("address", "socket_timeout")
        hosts = [{k: v for k, v in host.items() if k in kept} if isinstance(host, dict) else host
                 for host in hosts or []] or None
        super().__init__(hosts=hosts, prefix=prefix)

    def _get_layer(self):
        layer = super()._get_layer()
        if not getattr(layer, "catches_up_after_reconnect", False):
            layer._shards = [_CatchingUpShard(shard.host, layer) for shard in layer._shards]
            layer.catches_up_after_reconnect = True
        return layer


class _CatchingUpShard(RedisSingleShardConnection):
    """channels_redis's connection to one Redis, whose receiving loop notices Redis going away
    and coming back (redis-py renews the subscriptions when it reconnects)."""

    lost_since = None  # time.monotonic() when the connection was lost, while it is

    async def _do_receiving(self):
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    if self.lost_since is not None:
                        self._caught_up()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                if self.lost_since is None:
                    self.lost_since = time.monotonic()
                    log.warning("the channel layer lost Redis (%s); notices wait until it is back", exc)
                await asyncio.sleep(RETRY_SECONDS)
            except Exception:
                log.exception("the channel layer's receiving loop failed")
                await asyncio.sleep(1)

    def _caught_up(self):
        away, self.lost_since = time.monotonic() - self.lost_since, None
        layer = self.channel_layer
        group_prefix = layer._get_group_channel_name("")
        handed = 0
        for group_channel, channel_names in list(layer.groups.items()):
            if not group_channel.startswith(group_prefix) or layer._get_shard(group_channel) is not self:
                continue
            message = _message_after_reconnect(group_channel[len(group_prefix):])
            if message is None:
                continue
            data = layer.channel_layer.serialize(message)
            for channel_name in channel_names:
                if channel_name in layer.channels:
                    layer.channels[channel_name].put_nowait(data)
                    handed += 1
        log.warning("the channel layer has Redis again after %.1f s; %d sockets check what they missed", away, handed)


class RedisListChannelLayer(_ListChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
