"""Who is at the table right now, counted by open websocket connections.

A seat is "connected" while at least one tab of its player has the table open.
When the last one closes, `disconnected_at` starts the grace time (the clocks
act on it); coming back in any tab or device clears it.
"""

from django.db.models import F
from django.utils import timezone

from ..models import Seat


def connected(table_id: int, player) -> int | None:
    """Count a new connection of this player's seat; returns the seat id (None for a spectator)."""
    if player is None:
        return None
    seat = Seat.objects.filter(table_id=table_id, player=player, left_at__isnull=True).first()
    if seat is None:
        return None
    Seat.objects.filter(pk=seat.pk).update(connections=F("connections") + 1, disconnected_at=None)
    return seat.pk


def disconnected(seat_id: int) -> None:
    """One connection closed; the last one starts the grace time."""
    Seat.objects.filter(pk=seat_id, connections__gt=0).update(connections=F("connections") - 1)
    Seat.objects.filter(pk=seat_id, connections=0, disconnected_at__isnull=True).update(
        disconnected_at=timezone.now()
    )
