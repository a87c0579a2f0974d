"""Database work of every socket runs on a pool of threads, not on the one thread Channels shares.

Channels' default (`database_sync_to_async`, `thread_sensitive=True`) runs all the
database work of a process, every consumer's, one call after another on a single
thread: a browser seat's move waited there behind every other tab's rendering.
Nothing here relies on thread affinity, and the row lock in
`matches.perform` keeps each match's moves in order. Each pool thread keeps its
own database connection.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings

_db_executor = ThreadPoolExecutor(max_workers=settings.PROTOCOL_DB_THREADS, thread_name_prefix="socket-db")
# A player's own move has threads of its own: in the shared pool it waited behind every
# other seat's update the process was drawing (a first-in, first-out queue), and under load
# the answer to a move came seconds late.
_move_executor = ThreadPoolExecutor(max_workers=settings.MOVE_DB_THREADS, thread_name_prefix="move-db")
_thread_connections = set()  # each worker thread's Django connection, to close them on demand
_thread_connections_lock = threading.Lock()


def in_thread(func):
    """`func` as a coroutine that runs on the pool (closing stale connections around it, as
    `database_sync_to_async` does)."""
    return _on(_db_executor, func)


def move_in_thread(func):
    """The same for a player's move (or resignation): on the moves' own threads."""
    return _on(_move_executor, func)


def _on(executor, func):
    def call(*args, **kwargs):
        from django.db import DEFAULT_DB_ALIAS, connections

        with _thread_connections_lock:
            _thread_connections.add(connections[DEFAULT_DB_ALIAS])
        return func(*args, **kwargs)

    return database_sync_to_async(call, thread_sensitive=False, executor=executor)


def close_thread_connections():
    """Close the pool threads' database connections (tests, before their database goes)."""
    with _thread_connections_lock:
        wrappers = list(_thread_connections)
        _thread_connections.clear()
    for wrapper in wrappers:
        wrapper.inc_thread_sharing()
        try:
            wrapper.close()
        finally:
            wrapper.dec_thread_sharing()
