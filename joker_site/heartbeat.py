"""This web process's one heartbeat: what its open sockets hold, told to the database.

A web process that dies (`kill -9`, a crash, a lost machine) closes none of its sockets,
so whatever they held would stay counted for ever: a seat as connected (its player's
grace time would never start), a spectator as watching, a member as online, a quick-play
player as still waiting. So each kind of thing a socket holds is a `Holds` (how many of
this process's sockets hold each key), and one daemon thread per process beats every
`PRESENCE_BEAT_SECONDS` (a setting): each `Holds` that holds anything tells the database
so (its `beat`, which refreshes a `seen_at`). A row nobody refreshed for
`stale_seconds()` (three beats) belongs to a process that is gone, and the sweeps count
it so (games/services/presence.py, games/services/spectators.py, notices/presence.py,
quickplay/services.py).

Used by: the seats (games/services/presence.py), the spectators
(games/services/spectators.py), the members' pages (notices/presence.py) and the players
waiting in quick play (quickplay/consumers.py). `after_each_beat(hook)` runs a hook after
every beat while this process holds anything (the spectators' sweep of dead processes).
"""

import logging
import threading
import time
from collections import Counter

from django.conf import settings
from django.db import close_old_connections, connections

from .db_outage import is_database_away, log_failure, outage

log = logging.getLogger(__name__)


def beat_seconds() -> float:
    """Seconds between two beats (read at each beat: tests shorten it)."""
    return settings.PRESENCE_BEAT_SECONDS


def stale_seconds() -> float:
    """A row unseen for three beats belongs to a process that is gone."""
    return 3 * beat_seconds()


class Holds:
    """How many of this process's sockets hold each key of one kind, with what each key is
    about (`hold(key, about)`), told to the database by `beat()` on every heartbeat."""

    def __init__(self, name: str, beat):
        self.name = name
        self._beat = beat  # called with no argument from the heartbeat's thread
        self._held = Counter()
        self._about = {}
        self._lock = threading.Lock()
        self._beating = threading.Lock()  # held while this kind's beat writes
        _kinds.append(self)

    def hold(self, key, about=None) -> None:
        with self._lock:
            self._held[key] += 1
            if about is not None:
                self._about[key] = about
        _keep_beating()

    def release(self, key) -> None:
        with self._lock:
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]
                self._about.pop(key, None)

    def release_after_beat(self, key) -> None:
        """Release `key` once a beat that is writing now has finished: nothing says the key is
        held after this returns (blocking: call it from a database thread). A beat stuck longer
        than a few seconds (waiting on a row lock) is not waited for: the key goes at once."""
        waited = self._beating.acquire(timeout=5)
        try:
            self.release(key)
        finally:
            if waited:
                self._beating.release()

    def count(self, key) -> int:
        with self._lock:
            return self._held.get(key, 0)

    def about(self, key):
        with self._lock:
            return self._about.get(key)

    def snapshot(self) -> dict:
        """{key: count} of what is held now."""
        with self._lock:
            return dict(self._held)

    def holds_any(self) -> bool:
        with self._lock:
            return bool(self._held)

    def forget(self) -> None:
        """Forget everything held (tests whose sockets never closed)."""
        with self._lock:
            self._held.clear()
            self._about.clear()

    def beat_now(self, guarded: bool = False) -> None:
        """Tell the database what is held (the heartbeat's work for this kind). `guarded`: the
        heartbeat's own beat, which `release_after_beat` waits for. A beat called directly (a
        test's, on a thread that may hold row locks the heartbeat's beat waits for) takes no
        guard, so the two never wait for each other."""
        if not self.holds_any():
            return
        if not guarded:
            self._beat()
            return
        with self._beating:
            self._beat()


_kinds: list[Holds] = []
_hooks: list = []
_thread = None
_thread_lock = threading.Lock()


def after_each_beat(hook) -> None:
    """Run `hook()` after every beat while this process holds anything (once per hook)."""
    if hook not in _hooks:
        _hooks.append(hook)


def holds_anything() -> bool:
    return any(kind.holds_any() for kind in _kinds)


def _keep_beating() -> None:
    """Start this process's heartbeat if it is not running."""
    global _thread
    with _thread_lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_beat_forever, name="presence-heartbeat", daemon=True)
            _thread.start()


def _beat_forever() -> None:
    last = time.monotonic()
    while True:
        # In short naps, so that a shorter PRESENCE_BEAT_SECONDS (a test's) counts at once.
        time.sleep(min(beat_seconds(), 0.25))
        if time.monotonic() - last < beat_seconds():
            continue
        last = time.monotonic()
        if not holds_anything():
            continue  # nothing held: no database work at all
        try:
            close_old_connections()
            beat_once(guarded=True)
        except Exception as exc:  # closing a connection the database dropped: the thread beats on
            if not is_database_away(exc):
                log.exception("a heartbeat failed")
        finally:
            connections.close_all()  # hold no connection between beats


def beat_once(guarded: bool = False) -> None:
    """One heartbeat: every kind tells the database what it holds, then the hooks run (on the
    calling thread's database connection: the heartbeat's thread, `guarded`, or a test's)."""
    for kind in _kinds:
        try:
            kind.beat_now(guarded)
        except Exception as exc:  # a database hiccup: the next beat tries again
            if is_database_away(exc):
                outage.noted(exc, f"the heartbeat's {kind.name}")  # said once per outage
            else:
                log.exception("%s: could not tell the database what this process holds", kind.name)
    for hook in _hooks:
        try:
            hook()
        except Exception:  # noqa: BLE001 (log_failure logs it)
            log_failure(log, "a heartbeat hook failed")
