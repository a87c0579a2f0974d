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
"""

import asyncio
import weakref

from django.conf import settings

# One semaphore per event loop: asyncio's semaphore belongs to the loop that first
# waited on it (the tests run each case in a loop of its own).
_turns_of_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]" = (
    weakref.WeakKeyDictionary())


def notice_turn() -> asyncio.Semaphore:
    """`async with notice_turn():` around the work an update for another seat costs."""
    loop = asyncio.get_running_loop()
    turns = _turns_of_loop.get(loop)
    if turns is None:
        turns = _turns_of_loop[loop] = asyncio.Semaphore(settings.NOTICE_TURNS)
    return turns
