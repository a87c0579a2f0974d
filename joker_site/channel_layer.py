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

`CHANNEL_LAYER=lists` selects the old list-based layer (with a pool that waits
for a free connection instead of failing: under load the plain pool raised
"Too many connections", which closed the player's socket or dropped a notice).
"""

from channels_redis.core import RedisChannelLayer as _ListChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayer(RedisPubSubChannelLayer):
    """Pub/sub (the default); the settings pass it the hosts and the prefix only."""

    def __init__(self, hosts=None, prefix="joker", **_list_layer_options):
        # A connection's own options only: the pool here never waits (a process holds one
        # subscribed connection and publishes on one more, under the layer's lock).
        kept = ("address", "socket_timeout")
        hosts = [{k: v for k, v in host.items() if k in kept} if isinstance(host, dict) else host
                 for host in hosts or []] or None
        super().__init__(hosts=hosts, prefix=prefix)


class RedisListChannelLayer(_ListChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
