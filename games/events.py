"""What happens to a live match (and to a table), as typed events the other apps subscribe to.

The games app changes matches (games/live.py is the one way in); the apps above it
(ratings, conduct, notices, and later tournaments and push) learn of the changes
through these events, never by being called from inside games: their receivers are
connected in their own `AppConfig.ready()` (docs/architecture.md).

Each event is a small frozen value of public facts (no card). It is sent by
`announce` inside the transaction that made the change, under the match's lock,
so a receiver that writes (a rating, a walk-out) commits or rolls back with the
change itself, exactly once; a receiver that tells people (a notice) does it
`transaction.on_commit`. The in-process signal also hands receivers the objects the
change holds (`match`, `state`, `seat`), so they need not read them again; those
never leave the server.
"""

from dataclasses import dataclass

from django.dispatch import Signal


@dataclass(frozen=True)
class MatchStarted:
    """The table filled and the first deal is dealt (version 1)."""

    match_id: int
    table_id: int
    with_bots: bool  # a practice table (bots fill the other seats): nobody waited for it
    seated_together: bool  # quick play seated its players at once (and tells them itself)


@dataclass(frozen=True)
class PlayerLeft:
    """A player left a running match for good: `reason` is "resign" (on purpose) or "forfeit"
    (the clock moved for them too often, or they did not come back in time)."""

    match_id: int
    table_id: int
    seat: int
    player_id: int | None
    reason: str


@dataclass(frozen=True)
class MatchFinished:
    """The match is over: played out, ended by a leaver (Japanese) or aborted (`reason` "abort")."""

    match_id: int
    table_id: int
    reason: str
    winners: tuple[int, ...]  # seat indexes; empty for an abort


@dataclass(frozen=True)
class TurnBegan:
    """A version of a running match made it a member's turn (a seat a person holds, with an
    account): push tells them when no page of theirs shows the match (how many of the seat's
    pages are in sight: games/services/presence.py, `pages_in_sight`)."""

    match_id: int
    table_id: int
    user_id: int
    seat_id: int


@dataclass(frozen=True)
class TablePasswordLocked:
    """Too many wrong passwords were tried at a table: it stopped taking its password
    (games/services/tables.py). `host_user_id`: the member who made it."""

    table_id: int
    host_user_id: int


@dataclass(frozen=True)
class SeatBerserked:
    """A player halved their own bank before the match's first move (games/services/matches.py
    `berserk`; the arena's extra point, tournaments/scoring.py)."""

    match_id: int
    table_id: int
    seat: int
    player_id: int


match_started = Signal()  # event=MatchStarted, match
player_left = Signal()  # event=PlayerLeft, match, seat (the Seat row, not yet marked as left)
match_finished = Signal()  # event=MatchFinished, match, state (the final position)
table_password_locked = Signal()  # event=TablePasswordLocked
turn_began = Signal()  # event=TurnBegan
seat_berserked = Signal()  # event=SeatBerserked, match, seat

_SIGNALS = {MatchStarted: match_started, PlayerLeft: player_left, MatchFinished: match_finished,
            TablePasswordLocked: table_password_locked, TurnBegan: turn_began, SeatBerserked: seat_berserked}


def announce(event, **objects) -> None:
    """Send `event` to its receivers now, inside the change's transaction. A receiver's
    error rolls the change back: what it records (a rating, a walk-out) is part of the change."""
    _SIGNALS[type(event)].send(sender=type(event), event=event, **objects)
