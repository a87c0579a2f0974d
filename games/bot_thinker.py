"""The master bot thinks in processes of its own, so that its thinking does not slow the other
tables of the web process that plays its table (or answers a lesson's hint).

A bot's moves at a live table are made inside the move that woke them (services/matches.py,
`_play_bot_seats`), on a move thread of the web process (joker_site/db_threads.py). Python runs
one thread at a time: a master's 20-400 ms of thinking there made every other table's move in
that process wait for its turn (`make bench`, scripts/bench_bot_beside.py, measures it). Here
the master's decision is made from the seat's view (the very dict a client receives, so nothing
hidden leaves the process) in a pool of worker processes; the move thread only waits for the
answer, and waiting lets the process's other threads run. Beginner and club moves (well under
40 ms) stay in the thread: a process hop would cost more than it saves.

The pool starts with the first master move ("spawn": a fresh interpreter that imports only
the engine, never a copy of a web process and its threads). Should a worker die, the pool is
made again and that one move is thought in the thread.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .engine.advice import advise
from .engine.bot import MASTER, choose_action, choose_from_view

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
# Worker processes: master moves of that many tables are thought at once per web process.
THINKERS = 2


def _thinkers() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=THINKERS, mp_context=multiprocessing.get_context("spawn"))
        return _pool


def _forget_broken_pool(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def bot_action(state, seat: int, level: str):
    """The bot's move for `seat` at `level` (what `engine.bot.choose_action` returns), a master's
    thought in a worker process."""
    if level != MASTER:
        return choose_action(state, seat, level=level)
    return think(choose_from_view, state.view(seat), None, 1.0, level)


def advice_for(view) -> dict:
    """The hint for the seat whose view this is (`engine.advice.advise`, as a dict): the live
    tables' and the lesson's, the master thinking in a worker process."""
    return think(advise, view).to_dict()


def think(engine_function, *args):
    """`engine_function(*args)` worked out in a worker process and waited for: a pure function of
    the engine (games/engine) on plain values, as the master's moves, its hints and the deal
    reviews are. Should the worker die, it is worked out here."""
    pool = _thinkers()
    try:
        return pool.submit(engine_function, *args).result()
    except BrokenProcessPool:
        _forget_broken_pool(pool)
        return engine_function(*args)
