"""Database work of every socket runs on a pool of threads, not on the one thread Channels shares.

Channels' default (`database_sync_to_async`, `thread_sensitive=True`) runs all the
database work of a process, every consumer's, one call after another on a single
thread: a browser seat's move waited there behind every other tab's rendering.
Nothing here relies on thread affinity, and the row lock in
`matches.perform` keeps each match's moves in order. Each pool thread keeps its
own database connection.

The hop itself is ours, not asgiref's `sync_to_async`. That one carries the caller's
context variables into the thread and, when the call returns, every one of them back: a
new copy of each `asgiref.local.Local`'s storage, set in the consumer's context, where
it lived until the socket's next call. At 200 closed-loop tables some 20,000 of them (and
their contexts' nodes) were alive at any moment, all young, and every young collection
walked them: up to 86 ms of CPU, with the process stopped. Our calls need one thing
from the caller, the language it speaks. Each call runs in an empty context with that
language, and nothing comes back but the result. In a minute of play at 200 tables the
two web processes' collections then took 0.7 s of CPU instead of 1.6 s, and the pauses
over 20 ms were 8-11 instead of 23-24 (docs/protocol.md).
"""

import asyncio
import contextvars
import functools
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections
from django.utils import translation

from .db_outage import DatabaseUnavailable, is_database_away, outage

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
    """The same for a player's move (or resignation): on the moves' own threads, counted
    while it waits for one or runs there (`moves_settled`)."""
    hop = _on(_move_executor, func)

    @functools.wraps(func)
    async def counted(*args, **kwargs):
        moves = _moves_of_this_loop()
        moves.began()
        try:
            return await hop(*args, **kwargs)
        finally:
            moves.ended()

    return counted


class _MovesInFlight:
    """The moves of one event loop that are waiting for a move thread or running on one."""

    def __init__(self):
        self.count = 0
        self.begun = 0  # how many ever began
        self.waiters = []  # (condition, future): resolved once condition() holds (`_until`)

    def began(self):
        self.count += 1
        self.begun += 1
        self._wake()

    def ended(self):
        self.count -= 1
        self._wake()

    def _wake(self):
        for condition, waiter in self.waiters:  # each waiter takes itself off the list (`_until`)
            if not waiter.done() and condition():
                waiter.set_result(None)

    async def _until(self, condition, longest: float) -> None:
        """Return once `condition()` holds, checked as moves begin and end, or after `longest` s."""
        if condition():
            return
        waiter = asyncio.get_running_loop().create_future()
        self.waiters.append((condition, waiter))
        try:
            await asyncio.wait_for(waiter, longest)
        except TimeoutError:
            pass
        finally:
            self.waiters = [entry for entry in self.waiters if entry[1] is not waiter]


# One per event loop: a future belongs to the loop it is awaited on (the tests run each case
# in a loop of its own).
_moves_of_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _MovesInFlight]" = weakref.WeakKeyDictionary()


def _moves_of_this_loop() -> _MovesInFlight:
    loop = asyncio.get_running_loop()
    moves = _moves_of_loop.get(loop)
    if moves is None:
        moves = _moves_of_loop[loop] = _MovesInFlight()
    return moves


async def moves_settled(below: int, longest: float) -> None:
    """Return once fewer than `below` moves of this process are in flight, or after `longest`
    seconds (a move stuck behind a lock must not hold the caller for ever)."""
    moves = _moves_of_this_loop()
    await moves._until(lambda: moves.count < below, longest)


def moves_begun() -> int:
    """How many moves of this process have begun so far (a count that only grows)."""
    return _moves_of_this_loop().begun


async def move_began(after: int, longest: float) -> None:
    """Return once more than `after` moves of this process have begun (`moves_begun`), or
    after `longest` seconds."""
    moves = _moves_of_this_loop()
    await moves._until(lambda: moves.begun > after, longest)


def _on(executor, func):
    @functools.wraps(func)
    async def hop(*args, **kwargs):
        loop = asyncio.get_running_loop()
        call = functools.partial(_call_in_thread, loop, func, translation.get_language(), args, kwargs)
        return await loop.run_in_executor(executor, contextvars.Context().run, call)

    return hop


def _call_in_thread(loop, func, language, args, kwargs):
    # What asgiref's own hop sets, and what says which event loop serves this call: a move's
    # notices are handed to it (games/services/broadcast.py), and an `async_to_sync` runs
    # there, not on a new loop in a new thread.
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
    with _thread_connections_lock:
        _thread_connections.add(connections[DEFAULT_DB_ALIAS])
    try:
        _drop_connection_older_than_the_outage()
        close_old_connections()
        with translation.override(language):
            result = func(*args, **kwargs)
        outage.check_back()
    except Exception as exc:
        if not is_database_away(exc):
            raise
        # PostgreSQL away: a clear refusal the client may retry, and one log line per outage
        # (joker_site/db_outage.py), not a traceback per call.
        outage.noted(exc, getattr(func, "__qualname__", "a socket call"))
        raise DatabaseUnavailable() from exc
    finally:
        _close_old_connections_quietly()
    return result


_thread_generation = threading.local()


def _drop_connection_older_than_the_outage() -> None:
    """A connection this thread opened before the database went away may have been ended by it
    (a restart, pg_terminate_backend): close it, so the call opens a new one."""
    if getattr(_thread_generation, "value", 0) != outage.generation:
        _thread_generation.value = outage.generation
        try:
            connections[DEFAULT_DB_ALIAS].close()
        except Exception as exc:
            if not is_database_away(exc):
                raise


async def unless_database_away(call) -> None:
    """Await `call` (a coroutine of `in_thread`), giving up if the database is away: for what a
    closing socket tells the database, which the heartbeat and the sweeper set right once it is
    back (a seat no process holds is released when it goes unseen). Said once per outage."""
    try:
        await call
    except DatabaseUnavailable:
        pass


def _close_old_connections_quietly():
    try:
        close_old_connections()
    except Exception as exc:  # closing a connection the database already dropped
        if not is_database_away(exc):
            raise


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
