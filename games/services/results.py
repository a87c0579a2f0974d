"""Who won a match, and every seat's place: the one decision that the payout, the
stats, the end screen, the replay and the stored match (`Match.winners`) all read.

The rules (docs/rules.md 2.9 and 3.6) are the engine's (`state.outcome(left)`,
games/engine/outcome.py): a classic leaver is last whatever the bot scored for the
seat, a Japanese leaver loses. The site adds who left (the seats' `left_at`; a
practice bot's seat never left) and that an aborted match has no places and no winners.
"""

from dataclasses import dataclass

from ..models import MatchStatus, Seat

TIMEOUTS_BEFORE_GONE = 3  # clock expiries in a row after which a player counts as gone (rules.md 3.6)


@dataclass(frozen=True)
class Standings:
    places: list[int] | None  # per seat, 1 = first; None while there is no result
    winners: list[int]  # the seats in first place, in seat order
    left: frozenset[int]  # seats whose player left (classic: last whatever the total)

    def place_of(self, seat: int) -> int | None:
        return self.places[seat] if self.places is not None else None


NO_RESULT = Standings(places=None, winners=[], left=frozenset())


def standings(match, state, seats=None) -> Standings:
    """The places and winners of `match` at the position `state` (`seats`: the table's
    seats when the caller holds them, read after any player left; else they are read)."""
    if not state.is_over() or match.status == MatchStatus.ABORTED or (state.end or {}).get("reason") == "abort":
        return NO_RESULT
    outcome = state.outcome(_leavers(match, seats))  # the engine decides (games/engine/outcome.py)
    return Standings(places=list(outcome.places), winners=list(outcome.winners), left=outcome.left)


def _leavers(match, seats):
    """Seats whose player left the match (a practice bot's seat has no player and never left)."""
    if seats is None:
        seats = Seat.objects.filter(table_id=match.table_id).only("index", "player_id", "left_at")
    return {seat.index for seat in seats if seat.player_id and seat.left_at is not None}


EVERYONE_LEFT = "everyone_left"  # Match.end_reason of a match every person left at once (aborted)
RESIGNED = "resigned"
WALKED_OUT = "walked_out"


def how_left(seat) -> str | None:
    """How the player of `seat` left its match, in the words every page uses (docs/conduct.md):
    None while they still hold it; `walked_out` when the server took the seat from them (the
    grace time ran out with their pages closed, which leaves the seat's `disconnected_at`, or
    the clock moved for them TIMEOUTS_BEFORE_GONE times running); `resigned` when they ended
    their part themselves (Resign, Leave the table, or a staff ban resigning it), which they can
    only do with a page or program at the table, so with no disconnect on the seat."""
    if seat.left_at is None or not seat.player_id:
        return None
    if seat.disconnected_at is not None or seat.timeouts_in_row >= TIMEOUTS_BEFORE_GONE:
        return WALKED_OUT
    return RESIGNED
