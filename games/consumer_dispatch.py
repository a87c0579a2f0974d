"""Consumers that hand each event straight to its handler.

Channels' `AsyncConsumer.dispatch` first awaits `aclose_old_connections()`, a
hop to the process's one shared sync thread, for every event of every
consumer: each "table moved" notice to each socket waited in that thread's
queue (behind every page's HTML rendering) before its handler ran, just to
close database connections the event loop's thread does not use. Here the
database work runs on the sockets' thread pool (joker_site/db_threads.py), whose
calls close old connections themselves
around each call, so the hop only cost time.
"""

from channels.consumer import get_handler_name

from .socket_parts import part_for


class DispatchWithoutHop:
    """Put first in a consumer's bases. A message the consumer has no handler for goes to the
    first of its `parts` (games/socket_parts.py) that has one: the table chat's messages."""

    async def dispatch(self, message):
        name = get_handler_name(message)
        handler = getattr(self, name, None) or part_for(getattr(self, "parts", ()), name)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
