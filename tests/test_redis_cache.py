"""Every socket of a web process shares one Redis client and pool for the cache
(joker_site/redis_cache.py): Django keeps a cache backend per asynchronous context."""

import asyncio
import contextvars

import pytest
from django.conf import settings
from django.core.cache import caches

from joker_site.db_threads import in_thread

pytestmark = pytest.mark.skipif("redis" not in settings.CACHES["default"]["BACKEND"],
                                reason="the cache is Redis only where REDIS_URL is set")


def test_the_sockets_of_a_process_share_one_redis_client_and_pool():
    seen = []

    def use_the_cache(n):
        backend = caches["default"]
        backend.set(f"probe-{n}", n)
        assert backend.get(f"probe-{n}") == n
        client = backend._cache.get_client(write=True)
        seen.append((backend, client, client.connection_pool))

    async def one_socket(n):  # a consumer: a context of its own, its work on database threads
        for i in range(3):
            await in_thread(use_the_cache)(n * 10 + i)

    async def sockets():  # each in a context of its own, as Daphne starts each consumer
        await asyncio.gather(*(asyncio.create_task(one_socket(n), context=contextvars.Context()) for n in range(8)))

    asyncio.run(sockets())
    backends, clients, pools = ({id(obj) for obj in column} for column in zip(*seen))
    assert len(backends) > 1  # Django's own: a backend per context
    assert len(clients) == 1 and len(pools) == 1
