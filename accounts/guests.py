"""Retiring guests nobody has used for long (Celery beat, hourly: accounts/tasks.py).

A guest who never sat at a table nor made one leaves nothing anyone else reads: the row
goes (with its lesson progress and queue entries), and its number is free again. A guest
who played stays: tables and seats keep their Player (`on_delete=PROTECT`), and the finished
matches, their score sheets and replays go on naming "Guest 4821". Their session has long
expired by then (SESSION_COOKIE_AGE is two weeks), so nobody can play as them again.
"""

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from .models import Player

RETIRED_PER_RUN = 5000  # one run deletes at most this many; the next run goes on


def idle_guests(now=None):
    """Guests not seen for GUEST_IDLE_DAYS who never sat at or made a table."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.GUEST_IDLE_DAYS)
    seen_long_ago = Q(last_seen_at__lt=cutoff) | Q(last_seen_at__isnull=True, created_at__lt=cutoff)
    return Player.objects.filter(seen_long_ago, is_guest=True, seats__isnull=True, created_tables__isnull=True)


def retire_idle_guests(now=None) -> int:
    """Delete idle guests who never played (in batches); returns how many went."""
    ids = list(idle_guests(now).values_list("pk", flat=True).distinct()[:RETIRED_PER_RUN])
    deleted, _by_model = Player.objects.filter(pk__in=ids).delete()
    return len(ids) if deleted else 0
