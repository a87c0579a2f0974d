"""Who is at the table right now, counted by open websocket connections.

A seat is "connected" while at least one tab of its player has the table open.
When the last one closes, `disconnected_at` starts the grace time and a timer
is set for its end; coming back in any tab or device clears it, which makes
that timer do nothing when it fires.
"""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..models import Seat
from . import broadcast, clocks


def connected(table_id: int, player) -> int | None:
    """Count a new connection of this player's seat; returns the seat id (None for a spectator)."""
    if player is None:
        return None
    seat = Seat.objects.filter(table_id=table_id, player=player, left_at__isnull=True).first()
    if seat is None:
        return None
    came_back = seat.disconnected_at is not None
    Seat.objects.filter(pk=seat.pk).update(connections=F("connections") + 1, disconnected_at=None)
    if came_back:
        broadcast.table_changed(table_id)
    return seat.pk


def disconnected(seat_id: int) -> None:
    """One connection closed; the last one starts the grace time."""
    with transaction.atomic():
        Seat.objects.filter(pk=seat_id, connections__gt=0).update(connections=F("connections") - 1)
        now = timezone.now()
        started = Seat.objects.filter(
            pk=seat_id, connections=0, disconnected_at__isnull=True, left_at__isnull=True
        ).update(disconnected_at=now)
        if started:
            table_id = Seat.objects.values_list("table_id", flat=True).get(pk=seat_id)
            transaction.on_commit(lambda: clocks.grace_started(seat_id, now))
            transaction.on_commit(lambda: broadcast.table_changed(table_id))
