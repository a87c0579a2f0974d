"""Hints and reviews beside a socket's queue (games/services/hints.py does the work).

A socket handles its frames and its table's notices one after another. A review takes a few
tenths of a second of a database thread: awaited there, it would hold up that tab's updates
and its next move. Worked out in a task of its own it holds up neither; one at a time per
connection (the frame budget counts the asks, joker_site/frame_budget.py).
"""

import asyncio

from django.utils.translation import gettext as _


class AdviceBesideTheQueue:
    """Put in a consumer's bases; `stop_advice()` when the socket closes."""

    _advice_task = None

    @staticmethod
    def busy_sentence() -> str:
        """What a connection asking for a hint or a review while its last one is being worked out is told."""
        return _("One moment: your last hint or review is still being worked out.")

    def advice_busy(self) -> bool:
        return self._advice_task is not None and not self._advice_task.done()

    def work_out_advice(self, coroutine) -> None:
        self._advice_task = asyncio.ensure_future(coroutine)

    def stop_advice(self) -> None:
        if self._advice_task is not None:
            self._advice_task.cancel()
