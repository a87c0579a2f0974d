"""A page told "something changed" refetches its part, at most once every REFETCH_SECONDS:
a burst of notices (spectators coming and going, matches moving on, an arena's standings)
makes one refetch at the end of that second, not one each. The one copy of that rule for
the sockets that say "refetch" (the lobby's, an arena's)."""

import asyncio

REFETCH_SECONDS = 1.0


class RefetchAtMostEverySecond:
    """A consumer mixin: call `refetch_soon()` on each notice, `stop_refetching()` when the
    socket closes; the consumer's `send_refetch_signal()` sends what makes the page refetch."""

    refetch_due = None  # the timer of a refetch on its way
    last_refetch = -REFETCH_SECONDS

    async def refetch_soon(self) -> None:
        """Refetch at once, or, within REFETCH_SECONDS of the last refetch, once at its end."""
        if self.refetch_due is not None:
            return  # a refetch is already on its way
        loop = asyncio.get_running_loop()
        wait = self.last_refetch + REFETCH_SECONDS - loop.time()
        if wait <= 0:
            await self._refetch()
            return
        self.refetch_due = loop.call_later(wait, self._refetch_later)

    def _refetch_later(self) -> None:
        self.refetch_task = asyncio.ensure_future(self._refetch())  # kept: a task needs a reference

    async def _refetch(self) -> None:
        self.refetch_due = None
        self.last_refetch = asyncio.get_running_loop().time()
        await self.send_refetch_signal()

    def stop_refetching(self) -> None:
        if self.refetch_due is not None:
            self.refetch_due.cancel()
            self.refetch_due = None

    async def send_refetch_signal(self) -> None:
        raise NotImplementedError
