"""Django's Redis cache with one client and one connection pool per process.

Django keeps a cache backend per asynchronous context (`django.core.cache.caches` is an
asgiref Local), and each Redis backend makes its own connection pool; every websocket's
consumer is a context of its own. So each socket of a web process opened its own Redis
connections for the cache, and every cache operation built a new `redis.Redis` around the
pool (about 0.1 ms, and a knot of objects that only a full garbage collection frees).
redis-py's clients and pools are safe to share between threads; here every backend of a
process shares them.
"""

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict = {}  # (servers, options) -> the process's ProcessRedisCacheClient
_clients_lock = threading.Lock()


class ProcessRedisCacheClient(RedisCacheClient):
    """A RedisCacheClient that keeps one `redis.Redis` per connection pool."""

    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._redis_clients: dict = {}
        self._lock = threading.RLock()

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._redis_clients.get(id(pool))
        if client is None:
            with self._lock:
                client = self._redis_clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client

    def _get_connection_pool(self, write):
        with self._lock:  # two threads' first calls make one pool
            return super()._get_connection_pool(write)


class ProcessRedisCache(RedisCache):
    """settings.CACHES' backend for Redis: the same as Django's, sharing one client per process."""

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _clients_lock:
                client = _clients.get(key)
                if client is None:
                    client = _clients[key] = ProcessRedisCacheClient(self._servers, **self._options)
        return client
