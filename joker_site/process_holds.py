"""What this web process's open sockets hold, told to the database on a beat.

A web process that dies closes none of its sockets, so what they held would stay
counted for ever. So a process keeps, per key (a seat, a member), how many of its
sockets hold it, and a daemon thread calls `beat()` every `interval()` seconds while
anything is held, to say so in the database; a row nobody refreshed for a few beats
belongs to a process that is gone. Used by the site presence (notices/presence.py);
the tables' presence (games/services/presence.py) keeps its own of the same shape.
"""

import logging
import threading
import time
from collections import Counter

from django.db import close_old_connections, connections

log = logging.getLogger(__name__)


class ProcessHolds:
    def __init__(self, name: str, beat, interval):
        self.name = name
        self._beat = beat  # called with no argument from the beat thread
        self._interval = interval  # a callable: seconds between beats (tests shorten it)
        self._held = Counter()
        self._lock = threading.Lock()
        self._thread = None

    def hold(self, key) -> None:
        with self._lock:
            self._held[key] += 1
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()

    def release(self, key) -> None:
        with self._lock:
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]

    def count(self, key) -> int:
        with self._lock:
            return self._held.get(key, 0)

    def snapshot(self) -> dict:
        with self._lock:
            return dict(self._held)

    def forget(self) -> None:
        """Forget everything held (tests whose sockets never closed)."""
        with self._lock:
            self._held.clear()

    def _run(self) -> None:
        while True:
            time.sleep(self._interval())
            if not self.snapshot():
                continue  # nothing held: no database work at all
            try:
                close_old_connections()
                self._beat()
            except Exception:  # a database hiccup: the next beat tries again
                log.exception("%s: could not tell the database what this process holds", self.name)
            finally:
                connections.close_all()  # hold no connection between beats
