"""Final places per seat: what a rating update and the per-match figures take as input.

The site's one answer to "who came where" is `games/services/results.py`
(`games/engine/outcome.py`: rules 3.6, a player who leaves a classic match counts as
last, whatever the bot that played on scored; in Japanese the leaver has lost);
`final_places` hands it the totals and the seats that were left.
"""

from dataclasses import dataclass

from games.engine.outcome import decide


@dataclass(frozen=True)
class SeatPlaces:
    """1 = first; equal places are a tie. `by_seat[i]` is the place of seat i."""

    by_seat: tuple[int, ...]

    def __post_init__(self):
        if not self.by_seat or any(type(p) is not int or not 1 <= p <= len(self.by_seat) for p in self.by_seat):
            raise ValueError(f"places must be 1..{len(self.by_seat)} per seat, not {self.by_seat!r}")

    def of(self, seat: int) -> int:
        return self.by_seat[seat]


def final_places(variant: str, state, seats) -> SeatPlaces:
    """Places of a finished match from its engine state and its Seat rows."""
    left = {seat.index for seat in seats if seat.left_at is not None}
    return SeatPlaces(decide(variant, list(state.totals), state.winners(), left).places)
