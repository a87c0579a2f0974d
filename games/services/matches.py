"""The live match, and every change to it.

A match changes in a few named ways, each a function here that locks the match
row (`select_for_update`), checks, applies, stores the new record as the next
version (`_save`, which also broadcasts after commit and starts the move clock):

- `perform`: a player's move (the browser's consumer and the JSON protocol);
- `clock_ran_out`, `grace_ran_out`: the clocks (games/services/clocks.py);
- `resign`: a player leaves; `abort`: staff or the system stops the match;
- `berserk`: a player halves their own bank before the first move (a table that allows it);
- `start_match`: the table filled (called by the table service under its lock).

A client's action carries the version it was made against; a stale or repeated
one (a double tap, a message the websocket resent after reconnecting) changes
nothing. Every refusal is a `MatchError` (a `joker_site.refusals.Refusal`).
"""

import copy
import json
import logging
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models.query import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from coins import memos
from coins import services as coins
from games import engine, events, fairness, pacing
from joker_site.refusals import Refusal

from ..models import BotLevel, Match, MatchAction, MatchStatus, Seat, Table, TableStatus, Variant
from . import broadcast, clocks, match_log
from .results import EVERYONE_LEFT, TIMEOUTS_BEFORE_GONE, standings

log = logging.getLogger(__name__)


class MatchError(Refusal):
    """A refused action at a match; refused under the match's lock, it carries the
    match's `version` in `params`."""


@dataclass
class Outcome:
    """What a command submitted to a match did (games/live.py). A move's carries the committed
    match (table and seats with players loaded) and its position: enough to render any seat's
    view without reading the database again. A resignation's carries the seat left, a berserk's the
    match and the seat that halved its bank; a clock's or staff's command only whether it
    `changed` anything (a late tick changes nothing)."""

    version: int | None
    finished: bool | None
    match: Match | None = None
    state: object = None
    seat: int | None = None
    changed: bool = True


# --- Loading and saving -----------------------------------------------------------

# Replaying a record costs one engine step per action ever made (hundreds in a
# classic game), and every move and every rendered view needs the position. A
# committed (match, version) never changes, so each process keeps the latest
# positions it has seen; `created_at` tells apart a match that reuses the id of
# one from an earlier, dropped database. A process that holds an earlier
# position of a match (its players' moves were made in another process) brings
# a copy of it up to the record with just the new actions: records only grow.
STATE_CACHE_SIZE = 2048
_states: OrderedDict = OrderedDict()
_newest_version: dict = {}  # (match id, created_at) -> the newest version in _states
_states_lock = threading.Lock()


def _state_key(match: Match):
    return (match.pk, match.created_at, match.version)


def load_state(match: Match):
    """The engine state of `match` at its version: a copy the caller may change.

    The record is the action log up to the row's version (games/services/match_log.py),
    so a position is never shown, or remembered, under another version's number. The
    match remembers where the loaded position's record ends: `_save` logs what a change
    adds after it."""
    key = _state_key(match)
    with _states_lock:
        cached = _states.get(key)
        if cached is not None:
            _states.move_to_end(key)
    if cached is None:
        cached = _caught_up(match) or engine.state_from_record(match.record)
        _remember_state(key, cached)
    match._log_mark = cached.record_mark()
    return cached.copy()


def cached_state(match: Match):
    """A copy of the position of `match` at its version if this process holds it, else None
    (never reads the database: safe on the event loop)."""
    key = _state_key(match)
    with _states_lock:
        cached = _states.get(key)
    return cached.copy() if cached is not None else None


def _caught_up(match: Match):
    """The position at `match.version` from an earlier cached one and the log rows written
    since (only those are read), or None when this process holds no earlier position."""
    match_key = _state_key(match)[:2]
    with _states_lock:
        version = _newest_version.get(match_key)
        earlier = _states.get((*match_key, version)) if version is not None and version < match.version else None
    if earlier is None:
        return None
    state = earlier.copy()
    try:
        rows = match.log_rows(match.version, after=version)
        if len(rows) != match.version - version:
            raise ValueError(f"{len(rows)} log rows for versions {version + 1}-{match.version}")
        match_log.catch_up(state, rows)
    except Exception:  # never trust a shortcut over the full replay
        log.exception("catching match %s up from version %s failed; replaying it whole", match.pk, version)
        return None
    return state


def _remember_state(key, state) -> None:
    match_key, version = key[:2], key[2]
    with _states_lock:
        _states[key] = state
        _states.move_to_end(key)
        if _newest_version.get(match_key, -1) < version:
            _newest_version[match_key] = version
        while len(_states) > STATE_CACHE_SIZE:
            (old_id, old_created, old_version), _ = _states.popitem(last=False)
            if _newest_version.get((old_id, old_created)) == old_version:
                del _newest_version[(old_id, old_created)]


def forget_states() -> None:
    """Empty this process's position cache (tests that rewrite a record by hand)."""
    with _states_lock:
        _states.clear()
        _newest_version.clear()


def _players(table: Table):
    names = []
    for seat in table.seats.select_related("player__user").order_by("index"):
        names.append(seat.player.display_name_text if seat.player_id else _("Bot"))
    return names


def start_match(table: Table, seated_together: bool = False) -> Match:
    """All seats taken: create the match and deal the first deal (caller holds the table lock).
    `seated_together`: quick play seated its players at once (nobody waited at the table)."""
    options = table.record_options()
    if table.variant == Variant.CLASSIC:
        # rules.md 2.1: the first dealer is drawn at random
        options["first_dealer"] = fairness.dealing_rng("first-dealer").randrange(4)
    state = engine.new_state(table.variant, options)
    match_secrets = []
    fairness.deal_next(state, match_secrets)
    match = Match.objects.create(table=table, document=match_log.head_of(engine.to_record(state, _players(table))),
                                 version=0, deal_commitments=match_secrets)
    match._log_mark = (0, 0, False)  # version 0 is the head alone: version 1 logs the first deal
    if table.is_coin_table:
        coins.seal(table.escrow_key)  # from now on stakes only leave by payout or refund
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    table.save(update_fields=["status", "started_at"])
    _play_bot_seats(match, state)  # a practice bot may be first to act
    _save(match, state)  # version 1: the first position everyone sees
    events.announce(events.MatchStarted(match.pk, table.pk, with_bots=table.fill_with_bots,
                                        seated_together=seated_together), match=match)
    return match


def seats_with_players():
    """Seats with their players and users, in no order: compiling Seat's default ordering
    costs more than sorting four seats (presenter.public_seats sorts them)."""
    return Seat.objects.select_related("player__user").order_by()


def held_seat(seats, player) -> int | None:
    """The index of the seat `player` holds among `seats` (a seat they left is no longer theirs)."""
    if player is None:
        return None
    return next((seat.index for seat in seats if seat.player_id == player.pk and seat.left_at is None), None)


_MATCH_COLUMNS = [f.column for f in Match._meta.concrete_fields]
_TABLE_COLUMNS = [f.column for f in Table._meta.concrete_fields]
# Plain SQL: compiling the ORM's select_for_update with its join cost five times the
# statement's own client time on every move (the profile).
_LOCK_SQL = (
    "SELECT " + ", ".join([f'm."{c}"' for c in _MATCH_COLUMNS] + [f't."{c}"' for c in _TABLE_COLUMNS])
    + f' FROM "{Match._meta.db_table}" m JOIN "{Table._meta.db_table}" t ON t."id" = m."table_id"'
    + ' WHERE m."id" = %s FOR UPDATE OF m'
)


def _locked_match(match_id: int, with_seats: bool = False) -> Match:
    """The match row, locked until the transaction ends, with its table.

    `with_seats` also loads the seats with their players (one query, not
    locked): for a caller that changes no seat's presence, so that the list it
    keeps stays true and the view after the move needs no further query."""
    from django.db import connection

    if connection.vendor != "postgresql":  # SQLite (`make run`): the ORM's statements
        return _locked_match_orm(match_id, with_seats)
    if with_seats:
        row, seat_rows = _lock_with_seat_rows(match_id, connection)
    else:
        with connection.cursor() as cursor:
            cursor.execute(_LOCK_SQL, [match_id])
            row = cursor.fetchone()
    if row is None:
        raise MatchError("no_such_match", _("There is no such match."))
    match = Match.from_db(connection.alias, None, _converted(Match, row[:len(_MATCH_COLUMNS)], connection))
    match.table = Table.from_db(connection.alias, None, _converted(Table, row[len(_MATCH_COLUMNS):], connection))
    match.table._state.fields_cache["match"] = match  # table.match, as select_related would leave it
    if with_seats:
        hold_seats(match.table, _seats_from_rows(match.table, seat_rows, connection))
    return match


def _lock_with_seat_rows(match_id: int, connection):
    """The locked match's row and its table's seat rows in one round trip to PostgreSQL:
    the transaction's BEGIN, the lock and the seats' statement go out together in
    psycopg's pipeline mode (three round trips a move before, each a wait for the
    database and then for Python's lock, which the event loop holds under load). The
    seats' statement runs after the lock is granted, on a snapshot of its own (READ
    COMMITTED), so it sees every seat change committed before the lock was ours."""
    connection.ensure_connection()
    # Django's cursors over the one psycopg connection: its query counters and logs see both.
    with connection.connection.pipeline(), connection.cursor() as lock_cursor, connection.cursor() as seats_cursor:
        lock_cursor.execute(_LOCK_SQL, [match_id])
        seats_cursor.execute(_seats_query()[0], [match_id])
        row = lock_cursor.fetchone()
        seat_rows = seats_cursor.fetchall()
    return row, seat_rows


def hold_seats(table: Table, seats: list) -> None:
    """Make `seats` the table's seats as a prefetch leaves them (`table.seats.all()` reads nothing);
    unlike the ORM's prefetch, the query that holds them does not refer back to the table."""
    # The queryset Django's related manager would hold, with its filter left unbuilt as the
    # manager leaves it (`_deferred_filter`): building it (a three-table select_related and a
    # filter) cost 0.3 ms, two or three times a move in each process, for a query that is only
    # compiled if someone asks the held list for more (it then reads the seats again).
    held = QuerySet(model=Seat)
    held._deferred_filter = (False, (), {"table_id": table.pk})
    held._result_cache = seats
    held._prefetch_done = True
    table._prefetched_objects_cache = {"seats": held}


def _locked_match_orm(match_id: int, with_seats: bool) -> Match:
    matches = Match.objects.select_for_update(of=("self",)).select_related("table")
    if with_seats:
        from django.db.models import Prefetch

        matches = matches.prefetch_related(Prefetch("table__seats", queryset=seats_with_players()))
    try:
        return matches.get(pk=match_id)
    except Match.DoesNotExist:
        raise MatchError("no_such_match", _("There is no such match.")) from None


def _seats_sql():
    from django.contrib.auth import get_user_model

    from accounts.models import Player

    models = (Seat, Player, get_user_model())
    columns = [[f.column for f in model._meta.concrete_fields] for model in models]
    seat, player, user = (model._meta.db_table for model in models)
    select = ", ".join([f's."{c}"' for c in columns[0]] + [f'p."{c}"' for c in columns[1]]
                       + [f'u."{c}"' for c in columns[2]])
    sql = (f'SELECT {select} FROM "{seat}" s LEFT JOIN "{player}" p ON p."id" = s."player_id" '
           f'LEFT JOIN "{user}" u ON u."id" = p."user_id" '
           f'WHERE s."table_id" = (SELECT "table_id" FROM "{Match._meta.db_table}" WHERE "id" = %s)')
    return sql, models, [len(c) for c in columns]


_SEATS_SQL = None  # the seats of a match's table, by the match's id


def _seats_query():
    global _SEATS_SQL
    if _SEATS_SQL is None:
        _SEATS_SQL = _seats_sql()
    return _SEATS_SQL


def _seats_from_rows(table: Table, rows, connection) -> list:
    """The table's seats with their players and users, as `seats_with_players` reads them,
    from the rows of one plain statement (the ORM's compilation of that three-table join
    cost more than the statement itself on every move)."""
    _sql, (Seat, Player, User), (n_seat, n_player, _n_user) = _seats_query()
    seats = []
    for row in rows:
        seat = Seat.from_db(connection.alias, None, _converted(Seat, row[:n_seat], connection))
        seat._state.fields_cache["table"] = table
        player = None
        if seat.player_id is not None:
            player = Player.from_db(connection.alias, None,
                                    _converted(Player, row[n_seat:n_seat + n_player], connection))
            user = None
            if player.user_id is not None:
                user = User.from_db(connection.alias, None, _converted(User, row[n_seat + n_player:], connection))
            player._state.fields_cache["user"] = user
        seat._state.fields_cache["player"] = player
        seats.append(seat)
    return seats


_converters: dict = {}  # model -> [(column index, field, its converters)] (the fields that have any)


def _converted(model, values, connection):
    """A raw row's values as the ORM would hand them to `from_db` (JSON parsed, and so on)."""
    converters = _converters.get(model)
    if converters is None:
        converters = [(i, field, field.get_db_converters(connection))
                      for i, field in enumerate(model._meta.concrete_fields)]
        converters = _converters[model] = [entry for entry in converters if entry[2]]
    out = list(values)
    for i, field, functions in converters:
        for function in functions:
            out[i] = function(out[i], field, connection)
    return out


def perform(match_id: int, player, action: dict, expected_version: int) -> Outcome:
    """Apply `player`'s action at the seat they hold in the match, or refuse it and change
    nothing. The one way a player's move enters a match (the browser's consumer and the
    protocol both call it): the seat is found under the match's lock, from the seats read
    with it, so it cannot change between the check and the move."""
    with transaction.atomic():
        match = _locked_match(match_id, with_seats=True)
        with _refusals_carry_version(match):
            seat = held_seat(match.table.seats.all(), player)
            if seat is None:
                raise MatchError("not_seated", _("You are not sitting at this table."))
            state = _perform_locked(match, seat, action, expected_version)
    return Outcome(version=match.version, finished=match.status != MatchStatus.RUNNING, match=match, state=state,
                   seat=seat)


@contextmanager
def _refusals_carry_version(match: Match):
    """A refusal made under the lock tells the client which version the match is at."""
    try:
        yield
    except MatchError as refusal:
        refusal.params.setdefault("version", match.version)
        raise


def _perform_locked(match: Match, seat: int, action: dict, expected_version: int):
    """The move itself, on the locked match (with its seats): the new position, or a refusal."""
    if match.status != MatchStatus.RUNNING:
        raise MatchError("match_over", _("This match is over."))
    if expected_version != match.version:
        raise MatchError("stale_version", _("The table has moved on; your view has been refreshed."))
    state = load_state(match)
    _apply(state, seat, action)
    _reset_timeouts(match, seat)
    clocks.spend_bank(match, next(s for s in match.table.seats.all() if s.index == seat), timezone.now())
    _after_move(match, state)
    return state


def _reset_timeouts(match: Match, seat_index: int) -> None:
    """A player's own move ends their run of timeouts (the seats were read under the match lock,
    and only moves, made under that lock, change the count)."""
    for seat in match.table.seats.all():
        if seat.index == seat_index and seat.timeouts_in_row > 0:
            seat.timeouts_in_row = 0
            seat.save(update_fields=["timeouts_in_row"])


def _apply(state, seat: int, action: dict) -> None:
    try:
        engine_action = engine.action_from_record({**action, "seat": seat})
        state.apply(engine_action)
    except engine.IllegalAction as exc:
        raise MatchError(exc.code, engine_error_message(exc), exc.params) from exc
    except (ValueError, KeyError, TypeError) as exc:
        raise MatchError("malformed_action", _("That action is not understood."), {}) from exc


def _after_move(match: Match, state) -> None:
    """Deal on, let bot seats move, finish or save (which starts the next move's clock)."""
    _advance(match, state)
    _play_bot_seats(match, state)
    _save(match, state)


def _advance(match: Match, state) -> None:
    """After a move: deal the next deal when one ended, finish the match when it is over."""
    if state.phase == engine.Phase.DEAL:
        fairness.deal_next(state, match.deal_commitments)
    if state.phase == engine.Phase.GAME_OVER and match.status == MatchStatus.RUNNING:
        _finish(match, state, reason=(state.end or {}).get("reason", ""), seat=(state.end or {}).get("seat"))


def bot_levels(table) -> dict[int, str]:
    """{seat index: level} of the seats a bot plays: a practice bot at the table's level, the
    seat of a player who left at the club level."""
    return {s.index: table.bot_level if s.is_bot else BotLevel.CLUB
            for s in table.seats.all() if s.is_bot or s.left_at is not None}


def _play_bot_seats(match: Match, state) -> None:
    """Seats played by the bot (practice bots, players who left) move at once."""
    bots = bot_levels(match.table)
    while match.status == MatchStatus.RUNNING and state.to_act in bots:
        state.apply(bot_move(state, state.to_act, bots[state.to_act]))
        _advance(match, state)


def bot_move(state, seat, level=BotLevel.CLUB):
    """The bot's move for `seat` at `level` (the clock's move for an absent player: the club bot);
    a master's is thought in a process of its own (games/bot_thinker.py)."""
    from games.bot_thinker import bot_action

    return bot_action(state, seat, str(level))


_INSERT_LOG_SQL = (f'INSERT INTO "{MatchAction._meta.db_table}" ("match_id", "version", "entries") '
                   "VALUES (%s, %s, %s::jsonb)")
# A running match's version is its log row and its row's changed columns in one statement
# (the INSERT as a WITH clause, which PostgreSQL runs whether or not it is referred to):
# one round trip to the database, not two, while the match's lock is held.
_MOVE_SQL = (f"WITH logged AS ({_INSERT_LOG_SQL}) "
             f'UPDATE "{Match._meta.db_table}" SET "version" = %s, "turn_started_at" = %s, "deadline_at" = %s '
             'WHERE "id" = %s')
_DEAL_SQL = (f"WITH logged AS ({_INSERT_LOG_SQL}) "
             f'UPDATE "{Match._meta.db_table}" SET "version" = %s, "turn_started_at" = %s, "deadline_at" = %s, '
             '"deal_commitments" = %s::jsonb WHERE "id" = %s')
_END_FIELDS = ["document", "version", "turn_started_at", "deadline_at", "deal_commitments", "status", "finished_at",
               "winners", "end_reason", "end_seat"]


def _save(match: Match, state) -> None:
    """Store the new position as the next version (`_store`: a log row and the match row's
    changed columns), with its move clock in the same UPDATE: `deadline_at`, when the server
    moves for the player to act (`clocks.deadline`; beat's tick acts only if the match is
    still at this version, see `clock_ran_out`)."""
    entries = _store(match, state)
    table_id, version = match.table_id, match.version
    match.move_notice = notice = _move_notice(match, entries)
    schedule = match.laying
    # Only a committed version is a position anyone will ask for again.
    key, saved = _state_key(match), state.copy()
    transaction.on_commit(lambda: _remember_state(key, saved))
    transaction.on_commit(lambda: broadcast.table_changed(table_id, version, move=notice, laying=schedule))
    if entries:  # a version that adds nothing to the record (a berserk) begins no turn
        _announce_turn(match, state)


def _announce_turn(match: Match, state) -> None:
    """`TurnBegan` when the version makes it a member's turn (push tells them if they do not
    see the match). The seats come from the move's read under the lock (a query only on the
    clock's and the leavers' paths)."""
    to_act = state.to_act
    # The first position is the start, which MatchStarted (and quick play) tell.
    if match.status != MatchStatus.RUNNING or to_act is None or match.version <= 1:
        return
    seat = next((seat for seat in match.table.seats.all() if seat.index == to_act), None)
    if seat is None or seat.is_bot or seat.left_at is not None or seat.player is None or seat.player.user_id is None:
        return
    events.announce(events.TurnBegan(match.pk, match.table_id, seat.player.user_id, seat.pk))


def _store(match: Match, state) -> list:
    """Write the next version (for `_save`): one log row of what it adds to the record
    (games/services/match_log.py) and the match row's changed columns, in plain SQL on
    PostgreSQL; once the match is over, the whole record in its `document` too. Returns
    the row's entries."""
    from django.db import connection

    mark = getattr(match, "_log_mark", None)
    if mark is None:  # a caller that did not load the position through load_state: where the log ends
        mark = engine.state_from_record(match.record).record_mark()
    entries = state.record_since(mark)
    match.version += 1
    # The pages lay this version's cards before they show whose turn it is (games/pacing.py):
    # the move clock of the seat to act starts when they have.
    match.laying = pacing.laying(entries, state.seats, len(state.trick), int(settings.BOT_PACE_SECONDS * 1000))
    if entries or match.turn_started_at is None:  # a version that adds nothing (a berserk) keeps the turn's start
        match.turn_started_at = timezone.now() + timedelta(milliseconds=pacing.laying_ms(match.laying))
    match.deadline_at = clocks.deadline(match, state.to_act)
    match.__dict__.pop("_record", None)
    match._log_mark = state.record_mark()
    if match.status != MatchStatus.RUNNING:
        # Over: the whole record is written once, for the records, replays and exports.
        match.document = engine.to_record(state, match.document["players"])
    if connection.vendor != "postgresql":  # SQLite (`make run`): the ORM's statements
        MatchAction.objects.create(match=match, version=match.version, entries=entries)
        match.save(update_fields=_END_FIELDS)
        return entries
    logged = [match.pk, match.version, json.dumps(entries)]
    with connection.cursor() as cursor:
        if match.status != MatchStatus.RUNNING:
            cursor.execute(_INSERT_LOG_SQL, logged)
            match.save(update_fields=_END_FIELDS)
        elif any("deal" in entry for entry in entries):
            cursor.execute(_DEAL_SQL, [*logged, match.version, match.turn_started_at, match.deadline_at,
                                       json.dumps(match.deal_commitments), match.pk])
        else:
            cursor.execute(_MOVE_SQL, [*logged, match.version, match.turn_started_at, match.deadline_at, match.pk])
    return entries


# --- A move made in another process --------------------------------------------------
#
# Every web process renders each move for the seats connected to it, and most moves
# were made in another process. Reading the match again for that cost a process more
# CPU than the move itself (the ORM's queries, the new log row). A plain move changes
# only a few things, and its notice carries them: a process that holds the previous
# version applies them (`after_move`) and reads nothing.

def _move_notice(match: Match, entries: list) -> dict | None:
    """What this version changed, for `after_move`: the log row's entries, the columns a
    move writes and each seat's clock fields. A version that dealt carries `dealt` and the
    public commitments instead of its entries: a deal's entry holds every hand, and notices
    carry no hidden card, so a process that follows it reads that one log row. None when
    the match ended, or when the seats were not read under the lock (the clocks' and the
    leaving paths: those read afresh)."""
    if match.status != MatchStatus.RUNNING:
        return None
    held = getattr(match.table, "_prefetched_objects_cache", {}).get("seats")
    if held is None:
        return None
    notice = {
        "turn_started_at": match.turn_started_at.isoformat() if match.turn_started_at else None,
        "deadline_at": match.deadline_at.isoformat() if match.deadline_at else None,
        "seats": [[seat.pk, seat.bank_spent_ms, seat.timeouts_in_row, seat.berserk] for seat in held],
    }
    if all(entry.keys() == {"actions"} for entry in entries):
        return {"entries": entries, **notice}
    return {"dealt": True, "commitments": fairness.public_commitments(match), **notice}


def after_move(match: Match, seats: list, state, notice: dict, dealt_entries: list | None = None):
    """The match (with its table), its seats and its position one version after `match`,
    `seats` and `state` (their copies: the objects given are another read's and stay as
    they were), from that version's notice (`_move_notice`) and, for a version that dealt,
    its log row's entries. Raises when the notice does not fit the position (the caller
    then reads the database)."""
    from datetime import datetime

    clock_fields = {seat_id: (bank, timeouts, berserk) for seat_id, bank, timeouts, berserk in notice["seats"]}
    if set(clock_fields) != {seat.pk for seat in seats}:
        raise ValueError("the notice's seats are not the read's")
    entries = dealt_entries if notice.get("dealt") else notice["entries"]
    if entries is None:
        raise ValueError("a dealt version's notice needs its log row")
    table = copy.copy(match.table)
    moved = copy.copy(match)
    moved.__dict__.pop("_record", None)
    moved.version = match.version + 1
    moved.turn_started_at = notice["turn_started_at"] and datetime.fromisoformat(notice["turn_started_at"])
    moved.deadline_at = notice["deadline_at"] and datetime.fromisoformat(notice["deadline_at"])
    if notice.get("dealt"):
        # The public form (a salt once its deal is over): all a view of a running match shows.
        moved.deal_commitments = [{key: entry[key] for key in ("commitment", "salt") if key in entry}
                                  for entry in notice["commitments"]]
    moved.table = table
    new_seats = []
    for seat in seats:
        seat = copy.copy(seat)
        seat.bank_spent_ms, seat.timeouts_in_row, seat.berserk = clock_fields[seat.pk]
        new_seats.append(seat)
    hold_seats(table, new_seats)
    match_log.catch_up(state, [entries])
    return moved, new_seats, state


def remember_position(match: Match, state) -> None:
    """Keep `state` as the position of `match` at its version (a copy is kept)."""
    _remember_state(_state_key(match), state.copy())


# --- Timeouts, leaving, resigning -----------------------------------------------------

def clock_ran_out(match_id: int, version: int) -> bool:
    """The move clock of `version` ran out, and the seat's bank with it: the bot makes that
    one move.

    Conditional on the match still being at that version, so a late, repeated
    or redelivered tick does nothing. Returns whether a move was made."""
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.status != MatchStatus.RUNNING or match.version != version:
            return False
        state = load_state(match)
        seat_index = state.to_act
        if seat_index is None:
            return False
        seat = match.table.seats.get(index=seat_index)
        clocks.spend_bank(match, seat, timezone.now())  # the time used past the move time: what was left
        seat.timeouts_in_row += 1
        seat.save(update_fields=["timeouts_in_row"])
        if seat.timeouts_in_row >= TIMEOUTS_BEFORE_GONE:
            _player_gone(match, state, seat, reason="forfeit")
        else:
            state.apply(bot_move(state, seat_index))
            _after_move(match, state)
        return True


def grace_ran_out(seat_id: int, disconnected_at) -> bool:
    """A disconnected player did not come back in time (conditional on nothing having changed)."""
    with transaction.atomic():
        seat = Seat.objects.select_related("table").filter(pk=seat_id).first()
        if seat is None:  # the seat was given up before its table started: nothing to forfeit
            return False
        match = Match.objects.filter(table_id=seat.table_id).first()
        if match is None:
            return False
        match = _locked_match(match.pk)
        seat = Seat.objects.select_for_update().get(pk=seat_id)
        if (match.status != MatchStatus.RUNNING or seat.left_at is not None or seat.connections > 0
                or seat.disconnected_at is None or seat.disconnected_at != disconnected_at):
            return False
        state = load_state(match)
        if everyone_gone(match, seat):
            state.end_game("abort")
            _finish(match, state, reason=EVERYONE_LEFT)
            _save(match, state)
            return True
        _player_gone(match, state, seat, reason="forfeit")
        return True


def everyone_gone(match: Match, seat) -> bool:
    """Every other person still playing this match went too, at the same time as `seat`'s player
    (their last connections closed within EVERYONE_GONE_WINDOW_SECONDS of this seat's): then
    nobody walked out on anybody, and the match is aborted instead of charging whoever's grace
    ran out first (docs/conduct.md). The grace tick acts only once the window too has passed
    (clocks.lapsed_graces), so a leaving noticed a moment later is already known here. Under the
    match's lock; a seat that is the last person at its table (the others left before, bots play
    their seats) is not "everyone at once"."""
    window = timedelta(seconds=settings.EVERYONE_GONE_WINDOW_SECONDS)
    others = [other for other in Seat.objects.select_for_update().filter(table_id=match.table_id)
              .exclude(pk=seat.pk)
              if other.player_id is not None and not other.is_bot and other.left_at is None]
    return bool(others) and all(
        other.connections == 0 and other.disconnected_at is not None
        and abs(other.disconnected_at - seat.disconnected_at) <= window for other in others)


def resign(match_id: int, player) -> int:
    """A player leaves on purpose: Japanese, the opponent wins; classic, a bot takes the seat.
    Returns the index of the seat they left."""
    with transaction.atomic():
        match = _locked_match(match_id)
        with _refusals_carry_version(match):
            if match.status != MatchStatus.RUNNING:
                raise MatchError("match_over", _("This match is over."))
            seat = match.table.seats.filter(player=player, left_at__isnull=True).first() if player else None
            if seat is None:
                raise MatchError("not_seated", _("You are not sitting at this table."))
            _player_gone(match, load_state(match), seat, reason="resign")
    return seat.index


def before_first_move(match: Match, seats) -> bool:
    """No move has been made in the match yet: every version after the first position (1) was
    a berserk (a version that adds nothing to the record), one per seat at most."""
    return match.version - 1 == sum(1 for seat in seats if seat.berserk)


def may_berserk(match: Match, seats) -> bool:
    """Whether a player of this match may still halve their bank (the page's button)."""
    table = match.table
    return (table.berserk_allowed and table.bank_seconds > 0 and match.status == MatchStatus.RUNNING
            and before_first_move(match, seats))


def berserk(match_id: int, player) -> tuple[Match, int]:
    """`player` halves their own bank before the match's first move: half of it is spent at
    once (the deadline moves if they are to act), the seat is marked, the version bumps and
    `SeatBerserked` is announced. Refused at a table that does not allow it, after the first
    move, twice, or for someone not seated. Returns the match at its new version (its
    `move_notice` carries the seats' new clock fields to the other processes) and the seat's index."""
    with transaction.atomic():
        match = _locked_match(match_id, with_seats=True)
        with _refusals_carry_version(match):
            seats = match.table.seats.all()
            index = held_seat(seats, player)
            if index is None:
                raise MatchError("not_seated", _("You are not sitting at this table."))
            seat = next(s for s in seats if s.index == index)
            _check_berserk(match, seats, seat)
            seat.berserk = True
            seat.bank_spent_ms += match.table.bank_seconds * 1000 // 2
            Seat.objects.filter(pk=seat.pk).update(berserk=True, bank_spent_ms=seat.bank_spent_ms)
            events.announce(events.SeatBerserked(match.pk, match.table_id, index, player.pk), match=match, seat=seat)
            _save(match, load_state(match))
    return match, index


def _check_berserk(match: Match, seats, seat) -> None:
    table = match.table
    if not table.berserk_allowed or not table.bank_seconds:
        raise MatchError("no_berserk", _("Halving the bank is not possible at this table."))
    if match.status != MatchStatus.RUNNING:
        raise MatchError("match_over", _("This match is over."))
    if seat.berserk:
        raise MatchError("berserk_already", _("You have already halved your bank in this match."))
    if not before_first_move(match, seats):
        raise MatchError("berserk_too_late", _("The bank can only be halved before the first move."))


def abort(match_id: int, reason: str) -> bool:
    """Staff or the system stops a match: nobody wins, every stake goes back."""
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.status != MatchStatus.RUNNING:
            return False
        state = load_state(match)
        state.end_game("abort")
        _finish(match, state, reason="abort", note=reason)
        _save(match, state)
        return True


def _player_gone(match: Match, state, seat, reason: str) -> None:
    """rules.md 3.6: in Japanese the match is lost; in classic a bot plays the seat on."""
    events.announce(events.PlayerLeft(match.pk, match.table_id, seat.index, seat.player_id, reason),
                    match=match, seat=seat)  # conduct counts a rated walk-out, in this transaction
    seat.left_at = timezone.now()
    seat.save(update_fields=["left_at"])
    if match.table.variant == Variant.JAPANESE:
        state.end_game(reason, seat.index)
        _finish(match, state, reason=reason, seat=seat.index)
        _save(match, state)
        return
    humans_left = [s for s in match.table.seats.all() if s.player_id and s.left_at is None]
    if not humans_left:
        # Nobody is left to play against: stop rather than let four bots finish it.
        state.end_game("abort")
        _finish(match, state, reason="abort")
        _save(match, state)
        return
    _after_move(match, state)


def _finish(match: Match, state, reason: str, seat=None, note: str = "") -> None:
    aborted = reason in ("abort", EVERYONE_LEFT)
    match.status = MatchStatus.ABORTED if aborted else MatchStatus.FINISHED
    match.finished_at = timezone.now()
    match.end_reason = reason
    match.end_seat = seat
    match.winners = standings(match, state).winners  # [] for an abort
    table = match.table
    table.status = TableStatus.FINISHED
    table.closed_at = timezone.now()
    table.save(update_fields=["status", "closed_at"])
    if table.is_coin_table:
        if aborted:
            coins.refund_all(table.escrow_key, note or memos.MATCH_ABORTED, table_id=table.pk, match_id=match.pk)
        else:
            winners = _paid_winners(table, match.winners)
            if winners:
                coins.pay_out(table.escrow_key, winners, payout_key=f"match:{match.pk}", table_id=table.pk,
                              match_id=match.pk)
            else:
                coins.refund_all(table.escrow_key, memos.NO_PLAYER_LEFT, table_id=table.pk, match_id=match.pk)
    # Ratings record the figures and, when rated, the ratings: once per match, in this transaction.
    events.announce(events.MatchFinished(match.pk, table.pk, reason, tuple(match.winners)), match=match, state=state)
    transaction.on_commit(broadcast.lobby_changed)


def _paid_winners(table: Table, winner_seats: list[int]) -> list:
    """Who takes the pot: the accounts of the players in first place (games/services/results.py;
    a player who left is last and lost their stake to the pot, rules.md 3.6)."""
    seats = table.seats.select_related("player__user").filter(index__in=winner_seats, left_at__isnull=True)
    return [seat.player.user for seat in sorted(seats, key=lambda s: s.index) if seat.player_id and seat.player.user_id]


def engine_error_message(exc) -> str:
    """The engine's refusal in the reader's language (translated by its code)."""
    from ..engine_messages import message_for

    return message_for(exc)
