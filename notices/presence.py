"""Who is on the site: a member is online while at least one page of theirs is open.

Every page of a member opens the site-wide socket (ws/notices/, notices/consumers.py).
Each web process counts its sockets per member in a row of its own
(`SiteConnection(user, process)`), so two processes never write the same counter and
one process's sockets closing cannot undo another's. A member is online while some
row of theirs counts a page and was seen within three heartbeats.

A web process that dies (`kill -9`, a lost machine) closes none of its sockets: its
rows would count pages for ever. So, on the process's one heartbeat
(joker_site/heartbeat.py, with the seats, spectators and quick play), every process
refreshes `seen_at` of the rows it holds each PRESENCE_BEAT_SECONDS; a row nobody
refreshed for three beats no longer counts,
and Celery beat's `notices.tasks.sweep_presence` deletes it and tells the member's
friends (`sweep_lapsed`).

Who is told: a member's friends, each time one of the member's pages opens or closes
(their pages then read afresh who is online; the notice carries no state).

Playing now: seated at a running match. Waiting: seated at a table that is still
taking players.
"""

import logging
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from joker_site import heartbeat

from .models import SiteConnection

log = logging.getLogger(__name__)

_process = {"pid": None, "name": None}


def this_process() -> str:
    """This web process's name in `SiteConnection.process` (a new one after a fork)."""
    if _process["pid"] != os.getpid():
        _process["pid"] = os.getpid()
        _process["name"] = f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    return _process["name"]


def friends_group(user_id: int) -> str:
    """The channel group of a member's open pages, told when a friend comes or goes."""
    return f"social-{user_id}"


# --- opening and closing pages ------------------------------------------------------

def page_opened(user_id: int, process: str | None = None) -> None:
    """One more page of this member is open in this process."""
    process = process or this_process()
    now = timezone.now()
    rows = SiteConnection.objects.filter(user_id=user_id, process=process)
    with transaction.atomic():
        if not rows.update(connections=F("connections") + 1, seen_at=now):
            try:
                with transaction.atomic():
                    SiteConnection.objects.create(user_id=user_id, process=process, connections=1, seen_at=now)
            except IntegrityError:  # another page of theirs made the row at the same moment
                rows.update(connections=F("connections") + 1, seen_at=now)
        transaction.on_commit(lambda: tell_friends(user_id))
    if process == this_process():
        _hold(user_id)


def page_closed(user_id: int, process: str | None = None) -> None:
    """One page of this member closed in this process; the last one takes its row away."""
    process = process or this_process()
    if process == this_process():
        _release(user_id)
    with transaction.atomic():
        SiteConnection.objects.filter(user_id=user_id, process=process, connections__gt=0).update(
            connections=F("connections") - 1)
        SiteConnection.objects.filter(user_id=user_id, process=process, connections=0).delete()
        transaction.on_commit(lambda: tell_friends(user_id))


def _fresh(now=None):
    now = now or timezone.now()
    return SiteConnection.objects.filter(connections__gt=0,
                                         seen_at__gte=now - timedelta(seconds=heartbeat.stale_seconds()))


def is_online(user_id: int) -> bool:
    return _fresh().filter(user_id=user_id).exists()


def online_ids(user_ids) -> set[int]:
    """Which of these members have a page open now."""
    ids = list(user_ids)
    if not ids:
        return set()
    return set(_fresh().filter(user_id__in=ids).values_list("user_id", flat=True).distinct())


def tell_friends(user_id: int) -> None:
    """Tell the pages of this member's friends that the member came or went."""
    from accounts.friends import friend_ids
    from joker_site.events import group_send

    for friend in sorted(friend_ids(user_id)):
        group_send(friends_group(friend), {"type": "friends.changed"})


def tell_friends_of_seated(table_id: int) -> None:
    """A table's members started or stopped playing: their friends' lists change."""
    from games.models import Seat

    members = Seat.objects.filter(table_id=table_id, player__user__isnull=False).values_list(
        "player__user_id", flat=True)
    for user_id in set(members):
        tell_friends(user_id)


def sweep_lapsed(now=None) -> int:
    """Delete rows whose web process stopped beating (it died with the pages still
    counted) and tell those members' friends. Returns how many rows went."""
    now = now or timezone.now()
    lapsed = SiteConnection.objects.filter(seen_at__lt=now - timedelta(seconds=heartbeat.stale_seconds()))
    gone = 0
    for pk, user_id, seen_at in lapsed.values_list("pk", "user_id", "seen_at"):
        # Only if still unseen: a beat that came meanwhile keeps the row.
        if SiteConnection.objects.filter(pk=pk, seen_at=seen_at).delete()[0]:
            gone += 1
            log.warning("member %s's pages in a web process last seen %s lapsed: the process is gone",
                        user_id, seen_at)
            tell_friends(user_id)
    return gone


# --- what a friend is doing -------------------------------------------------------

PLAYING, WAITING, ONLINE = "playing", "waiting", "online"


@dataclass(frozen=True)
class FriendStatus:
    user: object
    state: str  # PLAYING, WAITING or ONLINE
    table_url: str = ""  # the match to watch, or the table to join
    variant: str = ""


def friends_online(viewer_id: int) -> list[FriendStatus]:
    """The viewer's friends with a page open now, playing first, then waiting, then the rest."""
    from accounts.friends import friend_ids

    ids = online_ids(friend_ids(viewer_id))
    if not ids:
        return []
    users = get_user_model().objects.filter(pk__in=ids, is_active=True).select_related("player")
    tables = _tables_of(ids)
    order = {PLAYING: 0, WAITING: 1, ONLINE: 2}
    found = []
    for user in users:
        table = tables.get(user.pk)
        if table is None:
            found.append(FriendStatus(user, ONLINE))
        else:
            state = PLAYING if table.status == "playing" else WAITING
            found.append(FriendStatus(user, state, reverse("table", kwargs={"table_id": table.pk}),
                                      table.get_variant_display()))
    return sorted(found, key=lambda status: (order[status.state], status.user.get_username().lower()))


def _tables_of(user_ids) -> dict:
    """Each member's table: a running match if they play one, else an open table they sit at."""
    from games.models import MatchStatus, Seat, TableStatus

    seats = (Seat.objects.filter(player__user_id__in=user_ids, left_at__isnull=True,
                                 table__status__in=(TableStatus.OPEN, TableStatus.PLAYING))
             .select_related("table", "table__match", "player").order_by("-table__created_at"))
    tables = {}
    for seat in seats:
        table = seat.table
        if table.status == TableStatus.PLAYING:
            match = getattr(table, "match", None)
            if match is None or match.status != MatchStatus.RUNNING:
                continue
            if tables.get(seat.player.user_id) is None or tables[seat.player.user_id].status != TableStatus.PLAYING:
                tables[seat.player.user_id] = table
        else:
            tables.setdefault(seat.player.user_id, table)
    return tables


# --- this process's beat -----------------------------------------------------------

def forget_holds() -> None:
    """Forget this process's counted pages (tests whose sockets never closed)."""
    _holds.forget()


def _hold(user_id: int) -> None:
    _holds.hold(user_id)


def _release(user_id: int) -> None:
    _holds.release(user_id)


def beat() -> None:
    """Tell the database this process still holds its members' pages. A row the sweeper
    deleted while this process stalled is made again with this process's count."""
    held = _holds.snapshot()
    if not held:
        return
    process, now = this_process(), timezone.now()
    SiteConnection.objects.filter(process=process, user_id__in=list(held)).update(seen_at=now)
    present = set(SiteConnection.objects.filter(process=process, user_id__in=list(held))
                  .values_list("user_id", flat=True))
    for user_id in set(held) - present:
        count = _holds.count(user_id)
        if count and SiteConnection.objects.get_or_create(
                user_id=user_id, process=process, defaults={"connections": count, "seen_at": now})[1]:
            log.warning("member %s's pages were swept while this process held them; counted again", user_id)
            tell_friends(user_id)


_holds = heartbeat.Holds("site pages", beat)  # member's user id -> this process's open pages
