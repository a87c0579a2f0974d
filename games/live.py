"""The one way into a running match: `submit(match_id, player, command) -> Outcome`.

Everything that changes a running match is a command submitted here: a player's
move or resignation (the table page's socket and the program's socket alike), the
clock's move for an absent player, the forfeit of a player who did not come back,
a staff member's abort. `submit` hands each to the function of
games/services/matches.py that validates it, locks the match row, applies it
through the engine, bumps the version and announces what happened (the events of
games/events.py inside the transaction; the table's notice once it commits).
A refusal is a `MatchError` (a `joker_site.refusals.Refusal`, carrying the match's
version) and changes nothing.

`act` is the sockets' adapter over it: the page's and the program's socket both
submit a player's move or resignation through it, so each rule about a player's act
(the read the answer is drawn from) is written once; `match_at_table` finds the
match a page's table is playing.
"""

import time
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from .services import matches
from .services.matches import MatchError, Outcome

__all__ = ["Abort", "Berserk", "ClockMove", "Forfeit", "MatchError", "Move", "Outcome", "Resign", "act", "match_at_table",
           "submit"]


@dataclass(frozen=True)
class Move:
    """A player's bid, trump or card (`action` as the record writes it, without the seat, which
    the server knows), made against the match's `version` (a stale or repeated one is refused)."""

    action: dict
    version: int


@dataclass(frozen=True)
class Resign:
    """The player leaves the match on purpose (rules.md 3.6)."""


@dataclass(frozen=True)
class Berserk:
    """The player halves their own bank before the match's first move (a table that allows it)."""


@dataclass(frozen=True)
class ClockMove:
    """The move clock of `version` ran out (and the seat's bank with it): the server moves for the
    player, or, after too many in a row, the player forfeits. A late or doubled tick does nothing."""

    version: int


@dataclass(frozen=True)
class Forfeit:
    """The player of `seat_id` did not come back within the grace time after `disconnected_at`.
    The seat names its match: `submit`'s `match_id` may be None."""

    seat_id: int
    disconnected_at: datetime


@dataclass(frozen=True)
class Abort:
    """Staff or the system stop the match: nobody wins, every stake goes back."""

    reason: str


def submit(match_id: int | None, player, command) -> Outcome:
    """Apply `command` to the match, or refuse it (a `MatchError`) and change nothing.

    `player` is who acts (None for the clocks and staff). The Outcome's `changed` says whether
    the command changed the match: a clock's command that came late changes nothing."""
    if isinstance(command, Move):
        return matches.perform(match_id, player, command.action, command.version)
    if isinstance(command, Resign):
        seat = matches.resign(match_id, player)
        return Outcome(version=None, finished=None, seat=seat)
    if isinstance(command, Berserk):
        match, seat = matches.berserk(match_id, player)
        return Outcome(version=match.version, finished=False, match=match, seat=seat)
    if isinstance(command, ClockMove):
        return Outcome(version=None, finished=None, changed=matches.clock_ran_out(match_id, command.version))
    if isinstance(command, Forfeit):
        return Outcome(version=None, finished=None,
                       changed=matches.grace_ran_out(command.seat_id, command.disconnected_at))
    if isinstance(command, Abort):
        return Outcome(version=None, finished=None, changed=matches.abort(match_id, command.reason))
    raise TypeError(f"not a command: {command!r}")


def match_at_table(table_id: int) -> int:
    """The id of the table's match (this process's read of the table knows it), or `no_such_match`
    before the match has started."""
    from .table_reads import match_of_table

    match_id = match_of_table(table_id)
    if match_id is None:
        raise MatchError("no_such_match", _("The match has not started yet."))
    return match_id


def act(match_id: int, player, command) -> tuple[Outcome, object]:
    """Submit a player's Move, Resign or Berserk, for a socket: (the Outcome, the read of the table the
    answer is drawn from). A move's read is this process's read of the table at the new version,
    shared with its other connections to the table (games/table_reads.py); a resignation has none
    (its answer is read afresh)."""
    from .table_reads import remember_outcome

    started = time.monotonic()
    outcome = submit(match_id, player, command)
    if isinstance(command, Move):
        return outcome, remember_outcome(outcome, started)
    return outcome, None
