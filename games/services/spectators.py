"""Spectators: who may watch a match being played, and how many are watching.

Who may watch is decided here alone (`watch_refusal`, and `watchable` for the lobby's list of
the matches being played); what a spectator sees is the engine's `view(None)`, like any
other seat's view (games/services/presenter.py).

While a match is played, someone without a seat at it may watch:
- an open table: anyone, unless its creator turned spectators off (`Table.allow_spectators`);
- a friends-only table: the creator's friends (the rule that lets them sit, `tables.can_see`);
- a password table: the friends of a member seated at it. Its password only lets people sit;
  a stranger who is not told it should not follow the match either, so it is not enough to
  know the table's address.
A player of the table (also one who left it) always may. The waiting room before the match
and a finished match are shown as before (the friends-only rule only): people must be able
to find a seat at a password table or a table without spectators, and a finished match's
record and replay are public.

How many are watching: each open connection of someone without a seat (a page's socket, a
program's `watch`) is a `Spectator` row while it is open. Each web process refreshes
`seen_at` of its rows on its heartbeat (joker_site/heartbeat.py), so the
count is shared by every web process and the worker, under PostgreSQL and under `make run`'s
SQLite alike; a row whose process died stops counting after three beats, and the
next beat of any live web process removes it. A person with two tabs open counts once (a visitor who is neither a
member nor a guest has no player: each of their connections counts). Every change is
announced to the table (`spectators.changed`, with the new count: the players' pages and
programs show it) and to the lobby.
"""

import logging
from datetime import timedelta

from django.db import IntegrityError
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.friends import friend_ids
from joker_site import heartbeat
from joker_site.refusals import Refusal

from ..models import Seat, Spectator, Table, TableStatus, Visibility
from . import broadcast

log = logging.getLogger(__name__)


class WatchRefused(Refusal):
    """Someone without a seat may not watch this match (its code says why)."""


def refusal_to_follow(table_id: int, player) -> Refusal | None:
    """Why `player` may not follow the table `table_id` (a socket that opens on it, a program's
    `watch` or `resync`): `no_such_table`, a `WatchRefused`, or None when they may."""
    table = Table.objects.select_related("creator__user").filter(pk=table_id).first()
    if table is None:
        return Refusal("no_such_table", _("There is no such table."))
    return watch_refusal(table, player)


def watch_refusal(table: Table, player, seats=None) -> WatchRefused | None:
    """Why `player` may not follow `table` without a seat, or None when they may (`seats`:
    the table's seats, when the caller has read them)."""
    from .tables import can_see, played_at

    if table.status != TableStatus.PLAYING:
        if can_see(table, player):
            return None
        return WatchRefused("friends_only", _("This table is for the creator's friends only."))
    if seats is not None:
        if player is not None and any(seat.player_id == player.pk for seat in seats):
            return None
    elif played_at(table.pk, player):
        return None
    if not table.allow_spectators:
        return WatchRefused("spectators_off", _("The players of this table asked to play without spectators."))
    if table.visibility == Visibility.FRIENDS and not can_see(table, player):
        return WatchRefused("friends_only", _("Only the friends of this table's creator may watch this match."))
    if table.visibility == Visibility.PASSWORD and not _friend_of_a_player(table, player):
        return WatchRefused("password_table", _("This table has a password: only the players' friends may watch."))
    return None


def _friend_of_a_player(table: Table, player) -> bool:
    if player is None or player.is_guest:
        return False
    friends = friend_ids(player.user)
    return bool(friends) and table.seats.filter(player__user_id__in=friends).exists()


def watchable(player):
    """The running matches `player` may watch (or plays in): `watch_refusal`'s rules as one
    query filter, for the lobby (one query for the player's friends first)."""
    mine = Exists(Seat.objects.filter(table_id=OuterRef("pk"), player=player)) if player is not None else Q(pk=None)
    allowed = Q(visibility=Visibility.OPEN)
    if player is not None and not player.is_guest:
        friends = list(friend_ids(player.user))
        allowed |= Q(visibility=Visibility.FRIENDS) & (Q(creator=player) | Q(creator__user_id__in=friends))
        allowed |= Q(visibility=Visibility.PASSWORD) & Q(Exists(
            Seat.objects.filter(table_id=OuterRef("pk"), player__user_id__in=friends)))
    return Table.objects.filter(status=TableStatus.PLAYING).filter(Q(mine) | (Q(allow_spectators=True) & allowed))


# --- how many are watching ------------------------------------------------------------------

def _stale_before(now):
    return now - timedelta(seconds=heartbeat.stale_seconds())


def came(table_id: int, player) -> int:
    """Count a new spectator connection of `table_id`; returns its row id (for `went`)."""
    player_id = player.pk if player is not None else None
    row = Spectator.objects.create(table_id=table_id, player_id=player_id, seen_at=timezone.now())
    _rows.hold(row.pk, (table_id, player_id))
    announce(table_id)
    return row.pk


def went(row_id: int) -> None:
    """A spectator connection closed."""
    held = _rows.about(row_id)
    if held is not None:
        _rows.release(row_id)
    table_id = held[0] if held else Spectator.objects.filter(pk=row_id).values_list("table_id", flat=True).first()
    deleted, _by_model = Spectator.objects.filter(pk=row_id).delete()
    if deleted and table_id is not None:
        announce(table_id)


def counts(table_ids) -> dict[int, int]:
    """{table id: how many are watching} (0 when nobody is): one query."""
    table_ids = list(table_ids)
    if not table_ids:
        return {}
    rows = (Spectator.objects.filter(table_id__in=table_ids, seen_at__gte=_stale_before(timezone.now()))
            .values("table_id")
            .annotate(members=Count("player", distinct=True), visitors=Count("pk", filter=Q(player__isnull=True))))
    found = {row["table_id"]: row["members"] + row["visitors"] for row in rows}
    return {table_id: found.get(table_id, 0) for table_id in table_ids}


def count(table_id: int) -> int:
    return counts([table_id])[table_id]


def announce(table_id: int) -> None:
    """Tell the table (its players' pages and programs) and the lobby how many watch now."""
    broadcast.group_send(broadcast.table_group(table_id),
                         {"type": "spectators.changed", "table": table_id, "count": count(table_id)})
    broadcast.lobby_changed()


def beat() -> None:
    """Refresh this process's spectator rows (on the process's heartbeat). A row the sweeper
    removed while this process was stalled is written again: its connection is open."""
    held = {row_id: _rows.about(row_id) for row_id in _rows.snapshot()}
    if not held:
        return
    now = timezone.now()
    Spectator.objects.filter(pk__in=list(held)).update(seen_at=now)
    present = set(Spectator.objects.filter(pk__in=list(held)).values_list("pk", flat=True))
    for row_id in set(held) - present:
        if not _rows.count(row_id):  # closed meanwhile
            continue
        table_id, player_id = held[row_id]
        try:
            Spectator.objects.create(pk=row_id, table_id=table_id, player_id=player_id, seen_at=now)
        except IntegrityError:  # the table is gone
            continue
        log.warning("spectator %s was released while this process held it; counted again", row_id)
        announce(table_id)


def release_unseen(now) -> int:
    """Remove the rows no web process has refreshed for three beats (their process
    died) and tell their tables; returns how many went. Every web process does it on each beat
    (so a process that dies is cleaned up by the others, within a beat of going stale)."""
    stale = Spectator.objects.filter(seen_at__lt=_stale_before(now))
    table_ids = set(stale.values_list("table_id", flat=True))
    if not table_ids:
        return 0
    released, _by_model = stale.delete()
    for table_id in table_ids:
        announce(table_id)
    return released


def forget_holds() -> None:
    """Forget this process's spectator connections (tests whose sockets never closed)."""
    _rows.forget()


def _remove_rows_of_dead_processes() -> None:
    """After each beat of a process that holds any connection (a seat's or a spectator's): the
    rows of processes that died go (so one that dies is cleaned up by the others)."""
    release_unseen(timezone.now())


_rows = heartbeat.Holds("spectators", beat)  # Spectator row id -> (table id, player id)
heartbeat.after_each_beat(_remove_rows_of_dead_processes)
