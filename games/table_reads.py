"""One read of a live table per version for all of this process's connections.

A move is announced to every connection of its table, and several of them may be
in one web process: the JSON protocol's (games/protocol.py) and the match pages'
(games/consumers.py). The first to render reads the match and its seats; the
others render their own view from that read. A move made in this process leaves
its read here (`remember_outcome`); a move made in another one is applied to the
previous version's read from what its notice carries (`take_move_notice`), and a
version that dealt from its one log row (`take_dealt_notice`).
"""

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from joker_site.db_outage import log_failure
from joker_site.db_threads import in_thread

log = logging.getLogger(__name__)


def match_for_view(**lookup):
    """The match with its table and seats (with players) in two queries. The record is not
    read: the cached position and the log rows since it are (load_state)."""
    from django.db.models import Prefetch

    from .models import Match
    from .services.matches import seats_with_players

    seats = Prefetch("table__seats", queryset=seats_with_players())
    found = list(Match.objects.select_related("table").prefetch_related(seats).defer("document").filter(**lookup)[:1])
    return found[0] if found else None


# --- one read per table and version for all of this process's connections ----------------
#
# A move is announced to every seat's connection, and several of them may be in
# this process: the first to render reads the match and its seats, the others
# render their own seat's view from that read. An entry only ever holds what was
# read after its version was committed (the seats too), so it is never older than
# what a presence notice (which always reads afresh) already showed.

TABLE_READS_KEPT = 512


@dataclass(frozen=True)
class TableRead:
    version: int
    started: float  # time.monotonic() when the read began: of two reads of one version, the later wins
    match: object
    seats: list
    # What every seat's view of this read shares, made by the first view: the public seats
    # (their ratings come through the cache, a Redis round trip per view otherwise).
    shared: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        _cut_back_references(self.match, self.seats)

    def public_seats(self, made_here=True):
        """The seats' public facts in the active language (a guest's name is translated);
        None when `made_here` is False and no view of this read has made them yet."""
        from django.utils.translation import get_language

        from .services.presenter import public_seats

        key = ("public_seats", get_language())
        public = self.shared.get(key)
        if public is None and made_here:
            public = self.shared[key] = public_seats(self.match.table, self.seats, ratings=self.ratings())
        return public

    def ratings(self) -> dict:
        """The seats' shown ratings (presenter.seat_ratings, a Redis round trip), read once per
        read, or carried from the table's read before (`remember_read`)."""
        from .services.presenter import seat_ratings

        carried = self.shared.get("ratings")
        if carried is None:
            carried = self.shared["ratings"] = (_players_of(self.seats), time.monotonic(),
                                                seat_ratings(self.match.table, self.seats))
        return carried[2]


# A rating changes only when a match ends: a running match's next read carries its seats'
# ratings for this long (a player who finishes a match at another table meanwhile shows
# the new figure after it).
RATINGS_CARRIED_SECONDS = 60


def _players_of(seats) -> tuple:
    return tuple(sorted((seat.index, seat.player_id) for seat in seats))


def note_spectators(event) -> None:
    """A `spectators.changed` notice (the new count) reached this process: the read it holds of
    the table carries that count to the reads made from it, so the next move's position shows
    it (the count is read afresh only when a read starts from nothing)."""
    read = _held_read(event.get("table"))
    if read is not None and isinstance(event.get("count"), int):
        read.shared["spectators"] = event["count"]


def _carry_spectators(known: TableRead, read: TableRead) -> None:
    if "spectators" in known.shared:
        read.shared.setdefault("spectators", known.shared["spectators"])


def _carry_ratings(known: TableRead, read: TableRead) -> None:
    """Let `read` use the ratings `known` (the table's read before it) read, when they are
    still its seats' and recent enough, and the match runs (its end shows new ratings)."""
    from .models import MatchStatus

    carried = known.shared.get("ratings")
    if (carried is None or "ratings" in read.shared or read.match.status != MatchStatus.RUNNING
            or carried[0] != _players_of(read.seats) or time.monotonic() - carried[1] > RATINGS_CARRIED_SECONDS):
        return
    read.shared.setdefault("ratings", carried)


def _cut_back_references(match, seats) -> None:
    """Drop the caches that point back up the read (a table's match, a seat's table, a user's
    player, the table's prefetched seats' query; the ORM fills them in both directions), so
    that no read is a reference cycle.
    A read freed by its last reference is then gone at once; as cycles, every read replaced
    by the next move's lived on until a full collection, which then stopped the process for
    100-300 ms every few seconds of play (joker_site/heap.py logs such pauses). Nothing
    drawn from a read follows these links: the match and the seats are passed down."""
    from .services.matches import hold_seats

    match.table._state.fields_cache.pop("match", None)
    hold_seats(match.table, seats)  # the prefetch's query names the table it was made for
    for seat in seats:
        seat._state.fields_cache.pop("table", None)
        player = seat._state.fields_cache.get("player")
        user = player._state.fields_cache.get("user") if player is not None else None
        if user is not None:
            user._state.fields_cache.pop("player", None)


_table_reads: OrderedDict = OrderedDict()  # table id -> TableRead
_table_reads_lock = threading.Lock()


def remember_read(table_id, read: TableRead) -> None:
    with _table_reads_lock:
        known = _table_reads.get(table_id)
        if known is None or (read.version, read.started) > (known.version, known.started):
            if known is not None:
                _carry_ratings(known, read)
                _carry_spectators(known, read)
            _table_reads[table_id] = read
            _table_reads.move_to_end(table_id)
            while len(_table_reads) > TABLE_READS_KEPT:
                _table_reads.popitem(last=False)


def read_at_least(table_id, version):
    """This process's read of the table at `version` or later, if it has one."""
    read = _held_read(table_id)
    return read if read is not None and read.version >= version else None


def shared_table_read(table_id, version):
    """This process's read of a running match's table at `version` or later (the match with
    its table and seats), made now when there is none; None before the match."""
    read = read_at_least(table_id, version)
    if read is not None:
        return read
    read = read_table_now(table_id)
    return read if read is not None and read.version >= version else None


def read_table_now(table_id):
    """A fresh read of the table's match (None before the match), kept for this process."""
    started = time.monotonic()
    match = match_for_view(table_id=table_id)
    if match is None:
        return None
    read = TableRead(match.version, started, match, list(match.table.seats.all()))
    remember_read(table_id, read)
    return read


def forget_table_reads() -> None:
    """Tests that rewrite a match by hand."""
    with _table_reads_lock:
        _table_reads.clear()


_reads_in_flight: dict = {}  # table id -> (version, task) of the read a notice started (event loop only)


async def read_once(table_id, version):
    """Read the table at `version` for this process's connections, once: a notice reaches
    every connection of the table in the same instant, and each used to make the same read
    on a database thread of its own."""
    flight = _reads_in_flight.get(table_id)
    if flight is None or flight[0] < version:
        task = asyncio.ensure_future(in_thread(_read_for_views)(table_id, version))
        _reads_in_flight[table_id] = (version, task)

        def landed(done, table_id=table_id):
            if _reads_in_flight.get(table_id, (None, None))[1] is done:
                del _reads_in_flight[table_id]

        task.add_done_callback(landed)
    else:
        task = flight[1]
    try:
        await asyncio.shield(task)
    except Exception:  # noqa: BLE001 (log_failure logs it) the connection's own read, in its thread, will say what is wrong
        log_failure(log, "table %s: the shared read failed", table_id)


def _read_for_views(table_id, version) -> None:
    """The shared read, its public seats and its position, in this process's memory."""
    from .services.matches import load_state

    read = shared_table_read(table_id, version)
    if read is not None:
        read.public_seats()
        load_state(read.match)


def take_move_notice(event, dealt_entries=None) -> bool:
    """A move's notice that carries what the move changed (games/services/matches.py,
    `after_move`): when this process holds its read of the table at the version before,
    the read of the new version is made from it, with no query. Called on the event loop
    by each connection the notice reaches: the first makes the read, the others find it.
    A version that dealt also needs its log row's entries (`take_dealt_notice` reads them).
    Whether this process now holds a read of that version or a later one."""
    from .services.matches import after_move, cached_state, remember_position
    from .services.presenter import public_seats_after_move

    move, table_id, version = event.get("move"), event.get("table"), event.get("version")
    if move is None or version is None:
        return False
    read = _held_read(table_id)
    if read is None or read.version != version - 1:
        return read is not None and read.version >= version  # made here already, or a version missed
    if move.get("dealt") and dealt_entries is None:
        return False
    state = cached_state(read.match)
    if state is None:
        return False
    try:
        match, seats, state = after_move(read.match, read.seats, state, move, dealt_entries)
    except Exception:  # never trust a shortcut over a read
        log.exception("table %s: the notice of version %s did not fit; reading it", table_id, version)
        return False
    remember_position(match, state)
    shared = {}
    for key, value in list(read.shared.items()):  # the spectators' count comes by remember_read
        if key[0] == "public_seats":
            shared[key] = public_seats_after_move(value, match.table, seats)
    # The seats are the earlier read's with the move's clock fields: as old as that read.
    # Its ratings and its spectators' count come along by remember_read's rules.
    remember_read(table_id, TableRead(version, read.started, match, seats, shared))
    return True


def _held_read(table_id):
    """The latest read of the table this process holds, or None."""
    with _table_reads_lock:
        return _table_reads.get(table_id)


def take_dealt_notice(event) -> bool:
    """`take_move_notice` for a version that dealt, on a database thread: the one log row
    the version added is read (it holds the hands, which no notice carries), not the match
    and its seats."""
    read = _held_read(event["table"])
    if read is None or read.version != event["version"] - 1:
        return read is not None and read.version >= event["version"]
    rows = read.match.log_rows(event["version"], after=read.version)
    return len(rows) == 1 and take_move_notice(event, rows[0])


_dealt_in_flight: dict = {}  # (table id, version) -> the task reading that version's log row (event loop only)


async def follow_move_notice(event) -> None:
    """`take_move_notice`, once the read of the version before has landed when this process
    is reading it now (a deal's version, read from the database, and the next move's notice
    often arrive close together); for a version that dealt, with its log row, read once for
    all of this process's connections."""
    move = event.get("move")
    if take_move_notice(event) or move is None:
        return
    flight = _reads_in_flight.get(event.get("table"))
    if flight is not None and flight[0] == event["version"] - 1:
        try:
            await asyncio.shield(flight[1])
        except Exception:  # noqa: BLE001 (log_failure logs it) the connection reads for itself
            log_failure(log, "table %s: the read a notice waited for failed", event.get("table"))
            return
        if take_move_notice(event):
            return
    if move.get("dealt"):
        held = _held_read(event.get("table"))
        if held is not None and held.version == event["version"] - 1:
            await _follow_dealt_notice(event)  # else the connection's own read makes it


async def _follow_dealt_notice(event) -> None:
    key = (event["table"], event["version"])
    task = _dealt_in_flight.get(key)
    if task is None:
        task = _dealt_in_flight[key] = asyncio.ensure_future(in_thread(take_dealt_notice)(event))
        task.add_done_callback(lambda done: _dealt_in_flight.pop(key, None))
    try:
        await asyncio.shield(task)
    except Exception:  # noqa: BLE001 (log_failure logs it) the connection reads for itself
        log_failure(log, "table %s: reading the log row of version %s failed", *key)


def remember_outcome(outcome, started) -> TableRead:
    """The committed match, position and seats `perform` read under the match's lock (an
    Outcome) serve this process's other connections to the table too. `started`: when the
    seats were read; a presence change's fresh read made after it wins."""
    read = TableRead(outcome.version, started, outcome.match, list(outcome.match.table.seats.all()))
    remember_read(outcome.match.table_id, read)
    return read


def match_of_table(table_id) -> int | None:
    """The id of the table's match, from this process's read when it has one."""
    from .models import Match

    read = read_at_least(table_id, 0)
    if read is not None:
        return read.match.pk
    return Match.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
