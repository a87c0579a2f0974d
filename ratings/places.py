"""Final places per seat: what a rating update and the per-match figures take as input.

The site's one answer to "who came where" is meant to be
`games/services/results.py standings(match, state)`; until it is here, `final_places`
derives the same from the engine's totals and the seats that were left
(rules.md 3.6: a player who leaves a classic match counts as last, whatever the
bot that played on scored; in Japanese the leaver has lost).
"""

from dataclasses import dataclass

from games.engine.common import ranks_by_total
from games.models import Variant


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
    if variant == Variant.JAPANESE:
        winners = state.winners()
        return SeatPlaces(tuple(1 if seat in winners else 2 for seat in range(2)))
    present = [seat for seat in range(4) if seat not in left]
    present_places = dict(zip(present, ranks_by_total([state.totals[seat] for seat in present])))
    last = len(present) + 1
    return SeatPlaces(tuple(present_places.get(seat, last) for seat in range(4)))
