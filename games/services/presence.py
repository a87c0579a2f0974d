"""Who is at the table right now, counted by open websocket connections.

A seat is "connected" while at least one tab of its player has the table open.
When the last one closes, `disconnected_at` starts the grace time (the clocks'
tick each second acts on it when it ends, games/services/clocks.py); coming back
in any tab or device clears it, so the tick finds nothing to do.

A web process that is killed (`kill -9`, a crash, a machine lost) closes none of
its sockets, so its connections would stay counted for ever and the grace time
of a player who does not come back would never start. So every web process
tells the database, on its heartbeat (joker_site/heartbeat.py, every
PRESENCE_BEAT_SECONDS), which seats its sockets still hold (`Seat.seen_at`); the
sweeper counts a seat nobody has seen for three beats as disconnected since it was
last seen (`release_unseen_seats`), which starts its grace time from then.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from redis.exceptions import RedisError

from joker_site import heartbeat

from ..models import Seat, TableStatus
from . import broadcast

log = logging.getLogger(__name__)


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
    """Seats counted as connected that no web process has seen for three beats
    (their process died): disconnected since they were last seen. Returns how many."""
    unseen = Seat.objects.filter(
        connections__gt=0, left_at__isnull=True, table__status=TableStatus.PLAYING,
        seen_at__lt=now - timedelta(seconds=heartbeat.stale_seconds()),
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
    _seats.forget()


def _hold(seat_id: int) -> None:
    _seats.hold(seat_id)


def _release(seat_id: int) -> None:
    _seats.release(seat_id)


def beat() -> None:
    """Tell the database that this process's sockets still hold their seats. A seat the
    sweeper released while this process was too slow to beat (a long stall) is counted
    as connected again: its grace timer then finds it back and does nothing."""
    seat_ids = sorted(_seats.snapshot())
    if not seat_ids:
        return
    Seat.objects.filter(pk__in=seat_ids).update(seen_at=timezone.now())
    released = Seat.objects.filter(pk__in=seat_ids, connections=0, left_at__isnull=True)
    for seat_id, table_id in released.values_list("pk", "table_id"):
        count = _seats.count(seat_id)  # read after the row: a socket closed meanwhile is not counted
        if count and Seat.objects.filter(pk=seat_id, connections=0).update(connections=count, disconnected_at=None):
            log.warning("seat %s was released while this process held it; counted as connected again", seat_id)
            broadcast.table_changed(table_id)


_seats = heartbeat.Holds("seats", beat)  # seat id -> this process's open connections of it


# --- A seat's match pages in sight -----------------------------------------------------
# Each match page tells its socket whether it is in sight (the browser's visibility, sent by
# static/js/match.js); push tells a member "your move" only when no page of theirs is
# (games.events.TurnBegan, push/receivers.py). The count lives in the cache (Redis in
# production, shared by every web process), not in the database: a page coming into or out
# of sight writes one key, and a move reads one. A count a dead web process left behind
# goes after SIGHT_SECONDS (until then that member gets no "your move" push).
SIGHT_SECONDS = 6 * 3600


def _sight_key(seat_id: int) -> str:
    return f"seat-pages-in-sight:{seat_id}"


def page_in_sight(seat_id: int, in_sight: bool) -> None:
    """One of the seat's match pages came into sight (True) or went out of it (False)."""
    from django.core.cache import cache

    key = _sight_key(seat_id)
    try:
        cache.add(key, 0, SIGHT_SECONDS)
        try:
            count = cache.incr(key) if in_sight else cache.decr(key)
        except ValueError:  # the key expired in between
            cache.set(key, 1 if in_sight else 0, SIGHT_SECONDS)
            return
        if count < 0:
            cache.set(key, 0, SIGHT_SECONDS)
        else:
            cache.touch(key, SIGHT_SECONDS)
    except (RedisError, OSError):  # Redis away: a push may be missed or sent, the page works on
        log.warning("pages in sight of seat %s: the cache is unavailable", seat_id)


def pages_in_sight(seat_id: int) -> int | None:
    """How many of the seat's match pages are in sight; None when the cache cannot be asked
    (Redis away: nobody is told anything rather than told wrongly)."""
    from django.core.cache import cache

    try:
        return max(0, cache.get(_sight_key(seat_id), 0))
    except (RedisError, OSError):  # Redis away
        log.warning("pages in sight of seat %s: the cache is unavailable", seat_id)
        return None
