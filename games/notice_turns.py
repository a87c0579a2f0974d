"""The updates a web process draws for other seats take turns, so that a move never waits behind them.

One event loop runs every socket of a web process. A move makes an update for every
other connection to its table, and each update is CPU work: a program's view is
computed on the loop itself, a page's HTML on a database thread that shares the
interpreter with the loop. Under load hundreds of updates are ready at the same
moment, and a turn of the loop runs every callback that is ready before it looks
at anything new. A move goes through the loop four or five times (its frame read,
its consumer, its thread's result, its answer) and waited behind all of them each
time: at 200 closed-loop matches the answer to a move came about a second late.

So each update first takes one of `settings.NOTICE_TURNS` turns: a turn of the loop
runs that many updates at most, and the steps of a move go in between. When the
process is overloaded, the updates wait instead of the moves (the one who acted sees
the card land at once; the others see it when their turn comes, in the order the
notices arrived: asyncio's semaphore wakes its waiters first come, first served).
A turn also waits while `settings.NOTICE_GATE_MOVES` or more of the process's moves
are waiting for a move thread or running on one: the moves' threads share the
interpreter with the updates too.

When the moves settle, the updates that waited are all ready at once, and drawn one
after another they make a burst, and then the moves they prompt arrive as a burst: so
after `settings.NOTICE_BURST` updates in a row with no move begun, the next waits for a
move to begin, `settings.NOTICE_BURST_PAUSE_MS` at most (`_paced`).

An update waits in a task of the connection's own (`LaterUpdates`), not in the
consumer's handler: Channels hands a consumer its messages one after another, and a
player's next move, arriving while an update for their socket waited for its turn,
waited behind it (up to two seconds at 200 closed-loop matches). While it waits, a
newer notice for the same table only raises the version it will draw: a seat that
fell behind is sent the latest position, once.
"""

import asyncio
import contextlib
import logging
import weakref

from django.conf import settings

from joker_site.db_outage import DatabaseUnavailable
from joker_site.db_threads import move_began, moves_begun, moves_settled

log = logging.getLogger(__name__)

class _Turns:
    """One event loop's turns, and how many updates it drew since a move of its process began."""

    def __init__(self):
        self.semaphore = asyncio.Semaphore(settings.NOTICE_TURNS)
        self.drawn = 0
        self.moves_begun = 0  # `moves_begun()` when `drawn` was last set back to 0


# One per event loop: asyncio's semaphore belongs to the loop that first waited on it (the
# tests run each case in a loop of its own).
_turns_of_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Turns]" = weakref.WeakKeyDictionary()

# A move stuck behind a lock must not hold every update of the process for long.
GATE_LONGEST_SECONDS = 1.0
_GONE = object()  # no update wanted any more
# An update the database's absence stopped is drawn again this often until it goes out.
RETRY_WHILE_AWAY_SECONDS = 0.5


def _this_loops_turns() -> _Turns:
    loop = asyncio.get_running_loop()
    turns = _turns_of_loop.get(loop)
    if turns is None:
        turns = _turns_of_loop[loop] = _Turns()
    return turns


def turns_of_this_loop() -> asyncio.Semaphore:
    """This event loop's turns (one semaphore per loop)."""
    return _this_loops_turns().semaphore


async def _paced(pace: _Turns) -> None:
    """At most `settings.NOTICE_BURST` updates in a row while no move begins, then a pause
    until one does, of `settings.NOTICE_BURST_PAUSE_MS` at most.

    The updates of a process that waited behind its moves all became ready at once when the
    moves settled, and a loop draws several a millisecond: at 200 closed-loop matches 70 of
    them went out within 20 ms, the seats they told to act all answered together some 20 ms
    later, and the last of those 40 moves waited over 150 ms for a move thread. A pause
    ends as soon as a move begins (the gate then holds the updates until it is done); where
    the players think between moves, one begins every few updates and the count seldom
    reaches the burst."""
    begun = moves_begun()
    if begun != pace.moves_begun:
        pace.drawn, pace.moves_begun = 0, begun
    if pace.drawn >= settings.NOTICE_BURST:
        await move_began(after=begun, longest=settings.NOTICE_BURST_PAUSE_MS / 1000)
        pace.drawn, pace.moves_begun = 0, moves_begun()
    pace.drawn += 1


@contextlib.asynccontextmanager
async def notice_turn():
    """`async with notice_turn():` around the work an update for another seat costs."""
    turns = _this_loops_turns()
    async with turns.semaphore:
        await _paced(turns)
        await moves_settled(below=settings.NOTICE_GATE_MOVES, longest=GATE_LONGEST_SECONDS)
        yield


def newest(wanted, version):
    """The version an update should draw for both: None (read the table afresh) wins."""
    if wanted is None or version is None:
        return None
    return max(wanted, version)


class LaterUpdates:
    """One connection's updates, one table's at a time: at most one waits for its turn and one
    is drawn (two drawn at once could each act on what the other is about to change)."""

    def __init__(self):
        self._wanted = {}  # table id -> the version its next update will draw (None: afresh)
        self._tasks = {}  # table id -> the task waiting for the table's turns or drawing in one

    def want(self, table_id, version, draw) -> None:
        """Have `draw(version)` (a coroutine function) run in a turn, with the newest version
        asked for by the time the turn comes, and after the table's update being drawn, if any."""
        self._wanted[table_id] = newest(self._wanted[table_id], version) if table_id in self._wanted else version
        if table_id not in self._tasks:
            self._tasks[table_id] = asyncio.ensure_future(self._draw_in_turns(table_id, draw))

    async def _draw_in_turns(self, table_id, draw):
        try:
            while table_id in self._wanted:
                away = False
                async with notice_turn():
                    version = self._wanted.pop(table_id, _GONE)  # a notice from now on asks for the next one
                    if version is _GONE:
                        # The connection closed while this waited for its turn (`cancel`; Python
                        # 3.11's wait_for can swallow the cancellation: the load test met a KeyError).
                        break
                    try:
                        await draw(version)
                    except DatabaseUnavailable:  # said once per outage (joker_site/db_outage.py)
                        away = True
                        self._wanted[table_id] = newest(self._wanted[table_id], version) \
                            if table_id in self._wanted else version
                    except Exception:  # the socket stays open: its next notice or resync draws it again
                        log.exception("table %s: an update failed", table_id)
                if away:  # the same update again soon, out of the turns: no other notice may come to ask for it
                    await asyncio.sleep(RETRY_WHILE_AWAY_SECONDS)
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]  # no await since the loop's test: a new want starts a new task

    def cancel(self) -> None:
        """The connection closed: its waiting updates are dropped."""
        for task in list(self._tasks.values()):
            task.cancel()
        self._wanted.clear()
