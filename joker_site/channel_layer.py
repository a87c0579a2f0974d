"""The Redis channel layer, with a connection pool that waits instead of failing.

channels_redis gives each web process a plain redis-py pool (100 connections
by default) that raises "Too many connections" the moment one more command is
in flight. Under load (hundreds of sockets joining tables and notices going
out on a busy event loop) that happened, and the exception closed the
player's socket (1011) or silently dropped a "table moved" notice. With a
blocking pool a command waits for a free connection (up to `timeout`
seconds), so a busy process gets slower, never wrong.
"""

from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayer(_RedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
