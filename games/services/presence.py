"""Who is at the table right now, counted by open websocket connections.

A seat is "connected" while at least one tab of its player has the table open.
When the last one closes, `disconnected_at` starts the grace time (the clocks'
tick each second acts on it when it ends, games/services/clocks.py); coming back
in any tab or device clears it, so the tick finds nothing to do.

A web process that is killed (`kill -9`, a crash, a machine lost) closes none of
its sockets, so its connections would stay counted for ever and the grace time
of a player who does not come back would never start. So every web process
tells the database, every PRESENCE_BEAT_SECONDS, which seats its sockets still
hold (`Seat.seen_at`); the sweeper counts a seat nobody has seen for
PRESENCE_STALE_SECONDS as disconnected since it was last seen
(`release_unseen_seats`), which starts its grace time from then.
"""

import logging
import threading
import time
from collections import Counter
from datetime import timedelta

from django.db import close_old_connections, connections, transaction
from django.db.models import F
from django.utils import timezone

from ..models import Seat, TableStatus
from . import broadcast

log = logging.getLogger(__name__)

PRESENCE_BEAT_SECONDS = 5
PRESENCE_STALE_SECONDS = 3 * PRESENCE_BEAT_SECONDS  # three beats missed: the process is gone

_held = Counter()  # seat id -> this process's open connections of it
_held_lock = threading.Lock()
_beat = None  # the thread telling the database about _held
_beat_hooks = []  # what else each beat does (games/services/spectators.py registers its own)


def connected(table_id: int, player) -> int | None:
    """Count a new connection of this player's seat; returns the seat id (None for a spectator)."""
    if player is None:
        return None
    seat = Seat.objects.filter(table_id=table_id, player=player, left_at__isnull=True).first()
    if seat is None:
        return None
    came_back = seat.disconnected_at is not None
    Seat.objects.filter(pk=seat.pk).update(connections=F("connections") + 1, disconnected_at=None,
                                           seen_at=timezone.now())
    _hold(seat.pk)
    # Coming back, or another connection of a seat already counted (a second tab, or a program
    # reconnecting after its web process died, which may have taken a notice with it): everyone
    # renders the table again.
    if came_back or seat.connections > 0:
        broadcast.table_changed(table_id)
    return seat.pk


def disconnected(seat_id: int) -> None:
    """One connection closed; the last one starts the grace time."""
    _release(seat_id)
    with transaction.atomic():
        Seat.objects.filter(pk=seat_id, connections__gt=0).update(connections=F("connections") - 1)
        now = timezone.now()
        started = Seat.objects.filter(
            pk=seat_id, connections=0, disconnected_at__isnull=True, left_at__isnull=True
        ).update(disconnected_at=now)
        if started:
            table_id = Seat.objects.values_list("table_id", flat=True).get(pk=seat_id)
            transaction.on_commit(lambda: broadcast.table_changed(table_id))


def release_unseen_seats(now) -> int:
    """Seats counted as connected that no web process has seen for PRESENCE_STALE_SECONDS
    (their process died): disconnected since they were last seen. Returns how many."""
    unseen = Seat.objects.filter(
        connections__gt=0, left_at__isnull=True, table__status=TableStatus.PLAYING,
        seen_at__lt=now - timedelta(seconds=PRESENCE_STALE_SECONDS),
    )
    released = 0
    for seat_id, table_id, seen_at in unseen.values_list("pk", "table_id", "seen_at"):
        with transaction.atomic():
            # Only if still unseen: a connection made meanwhile keeps the seat.
            if not Seat.objects.filter(pk=seat_id, connections__gt=0, seen_at=seen_at).update(
                    connections=0, disconnected_at=seen_at):
                continue
            released += 1
            log.warning("seat %s was last seen %s: its web process is gone; the grace time runs from then",
                        seat_id, seen_at)
            transaction.on_commit(lambda t=table_id: broadcast.table_changed(t))
    return released



# --- this process's beat -----------------------------------------------------------

def forget_holds() -> None:
    """Forget this process's counted connections (tests whose sockets never closed)."""
    with _held_lock:
        _held.clear()


def _hold(seat_id: int) -> None:
    with _held_lock:
        _held[seat_id] += 1
    keep_beating()


def holds_any() -> bool:
    """Whether this process's sockets hold any seat now."""
    with _held_lock:
        return bool(_held)


def on_every_beat(hook) -> None:
    """Run `hook()` on each beat of this process, after the seats' (once per hook)."""
    if hook not in _beat_hooks:
        _beat_hooks.append(hook)


def keep_beating() -> None:
    """Start this process's beat if it is not running (seats and spectators alike)."""
    global _beat
    with _held_lock:
        if _beat is None or not _beat.is_alive():
            _beat = threading.Thread(target=_beat_forever, name="presence-beat", daemon=True)
            _beat.start()


def _release(seat_id: int) -> None:
    with _held_lock:
        _held[seat_id] -= 1
        if _held[seat_id] <= 0:
            del _held[seat_id]


def _beat_forever() -> None:
    while True:
        time.sleep(PRESENCE_BEAT_SECONDS)
        try:
            close_old_connections()
            beat()
            for hook in _beat_hooks:
                hook()
        except Exception:  # a database hiccup: the next beat tries again
            log.exception("could not tell the database which seats this process holds")
        finally:
            connections.close_all()  # hold no connection between beats


def beat() -> None:
    """Tell the database that this process's sockets still hold their seats. A seat the
    sweeper released while this process was too slow to beat (a long stall) is counted
    as connected again: its grace timer then finds it back and does nothing."""
    with _held_lock:
        seat_ids = sorted(_held)
    if not seat_ids:
        return
    Seat.objects.filter(pk__in=seat_ids).update(seen_at=timezone.now())
    released = Seat.objects.filter(pk__in=seat_ids, connections=0, left_at__isnull=True)
    for seat_id, table_id in released.values_list("pk", "table_id"):
        with _held_lock:
            count = _held.get(seat_id, 0)  # read after the row: a socket closed meanwhile is not counted
        if count and Seat.objects.filter(pk=seat_id, connections=0).update(connections=count, disconnected_at=None):
            log.warning("seat %s was released while this process held it; counted as connected again", seat_id)
            broadcast.table_changed(table_id)
