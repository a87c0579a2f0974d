"""How many frames one websocket connection may send: a token bucket per connection.

Every socket that reads frames (the table page's, the program's, and the ones that only
listen) takes one token per frame from its own bucket, which refills at
`SOCKET_FRAMES_PER_SECOND` up to `SOCKET_FRAME_BURST` (as lichess's socket server keeps one
per connection). A frame that finds the bucket empty is not read at all: the socket answers
`rate_limited` (with when to try again) where it answers anything, and a connection that
goes on sending — `SOCKET_FLOOD_CLOSE_AFTER` frames refused in a row — is closed with
`CLOSE_FLOODED`. A move the match took gives its token back (`refund`): a program may play
as fast as its opponent answers, and what a flood costs — a refused act, a position drawn
again — is what the budget counts. An honest client never meets it.
"""

import time

from django.conf import settings
from django.utils.translation import gettext as _

CLOSE_FLOODED = 4429  # the socket sent far more frames than any client needs: do not reconnect at once


class FrameBudget:
    def __init__(self, rate: float | None = None, burst: int | None = None, clock=time.monotonic):
        self.rate = settings.SOCKET_FRAMES_PER_SECOND if rate is None else rate
        self.burst = settings.SOCKET_FRAME_BURST if burst is None else burst
        self.close_after = settings.SOCKET_FLOOD_CLOSE_AFTER
        self._clock = clock
        self._tokens = float(self.burst)
        self._at = clock()
        self.refused_in_a_row = 0

    def take(self) -> bool:
        """Spend one frame's token; False (and the frame must not be read) when there is none."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    def refund(self) -> None:
        """Give back the token of a frame that was a real move (moves are paced by the turns)."""
        self._tokens = min(self.burst, self._tokens + 1)

    def retry_after(self) -> float:
        """Seconds until the next frame would be read."""
        return max(0.0, (1 - self._tokens) / self.rate) if self.rate > 0 else float("inf")

    def refusal_sentence(self) -> str:
        """What a client whose frame was not read is told, in the active language."""
        return _("Too many messages at once: wait %(seconds)d s before the next.") % {
            "seconds": max(1, round(self.retry_after()))}

    def overdrawn(self) -> bool:
        """The connection went on sending after being told: it is to be closed."""
        return self.refused_in_a_row >= self.close_after


class BudgetedFrames:
    """Put before `AsyncWebsocketConsumer` in a consumer's bases: every frame the client sends
    spends from the connection's `frame_budget`. A frame refused is not read; the consumer's
    `frames_refused(budget)` tells the client (a socket that only listens says nothing), and a
    connection still sending once `budget.overdrawn()` is closed (`CLOSE_FLOODED`)."""

    frame_budget: FrameBudget | None = None

    async def websocket_receive(self, message):
        if self.frame_budget is None:
            self.frame_budget = FrameBudget()
        if self.frame_budget.take():
            await super().websocket_receive(message)
            return
        if self.frame_budget.overdrawn():
            await self.close(code=CLOSE_FLOODED)
            return
        await self.frames_refused(self.frame_budget)

    async def frames_refused(self, budget: FrameBudget) -> None:
        """Tell the client its frame was not read (the default: a socket that only listens says nothing)."""
