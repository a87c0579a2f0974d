"""Who won a finished game, and every seat's place: the engine decides (docs/rules.md 2.9, 3.6).

- Classic: the highest total is first; equal totals share a place (totals 90, 90, 40, 10
  give places 1, 1, 3, 4). A player who left — resigned, let the clock move three times,
  or did not come back in time — counts as last whatever the bot that played their seat
  on scored: every leaver shares the last place, after every seat still held.
- Japanese: the winner (who reached the target, or whose opponent left the game) is
  first, the other second.
- A game that is not over, or was aborted, has no outcome.

Who left a classic game is not in its record (a bot plays the seat on, and the record
holds its moves like any other), so the caller says: `state.outcome(left)`.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    places: tuple[int, ...]  # per seat, 1 = first
    winners: tuple[int, ...]  # the seats in first place, in seat order
    left: frozenset[int]  # the seats whose player left (classic: last whatever the total)

    def place_of(self, seat: int) -> int:
        return self.places[seat]


def decide(variant: str, totals: list[int], japanese_winners: list[int], left=frozenset()) -> Outcome:
    """The outcome of a finished, not aborted game of `variant` (this module's rules)."""
    left = frozenset(left)
    if variant == "japanese":
        places = tuple(1 if seat in japanese_winners else 2 for seat in range(len(totals)))
    else:
        held = [seat for seat in range(len(totals)) if seat not in left]
        places = tuple(1 + len(held) if seat in left else 1 + sum(1 for other in held if totals[other] > total)
                       for seat, total in enumerate(totals))
    return Outcome(places, tuple(seat for seat, place in enumerate(places) if place == 1), left)
