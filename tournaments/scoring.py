"""The arena's scoring (docs/tournaments.md "Scoring"): plain functions of a match's outcome.

- Japanese: a win 2 points, a loss 0.
- Classic: by place among the table's people, 4 / 2 / 1 / 0; people with equal totals
  share the better place (totals 90, 90, 40, 10: places 1, 1, 3, 4, points 4, 4, 1, 0).
  Bots' seats are not counted: with two people and two bots the people's places are 1
  and 2 (4 and 2 points) whatever the bots scored; a person alone with bots scores
  nothing and keeps their streak (never a win against a bot).
- The streak: a win (classic: a first place) after two wins in a row counts double,
  until a match that is not a win. A player who resigned, forfeited or walked out
  scores 0 and loses the streak. An aborted match counts for nobody.
- Berserk: a player who halved their bank before the first move and finished the match
  (did not resign, forfeit, walk out or lose on time) gets BERSERK_POINT more, whatever
  their place; the streak never doubles it. Alone with bots it is 0 like the rest.
"""

from dataclasses import dataclass

JAPANESE_POINTS = {1: 2, 2: 0}
CLASSIC_POINTS = {1: 4, 2: 2, 3: 1, 4: 0}
STREAK_DOUBLES_FROM = 2  # wins in a row before a win that counts double
BERSERK_POINT = 1  # for finishing a match with half the bank


@dataclass(frozen=True)
class Outcome:
    """One person's share of a finished match, as the arena reads it."""

    place: int  # among the table's people, 1 = first (equal totals share the better place)
    left: bool = False  # resigned, forfeited or walked out
    alone_with_bots: bool = False  # nobody else at the table was a person
    berserk: bool = False  # the player halved their bank before the first move


@dataclass(frozen=True)
class Scored:
    points: int  # the berserk point included
    doubled: bool
    streak: int  # the streak after this match
    berserk_point: int = 0


def score(variant: str, outcome: Outcome, streak_before: int) -> Scored:
    """The points of one match for one player whose streak stood at `streak_before`."""
    if outcome.left:
        return Scored(points=0, doubled=False, streak=0)
    if outcome.alone_with_bots:
        return Scored(points=0, doubled=False, streak=streak_before)
    table = JAPANESE_POINTS if variant == "japanese" else CLASSIC_POINTS
    base = table.get(outcome.place, 0)
    extra = BERSERK_POINT if outcome.berserk else 0  # never doubled: it pays for the bank, not the win
    if outcome.place != 1:
        return Scored(points=base + extra, doubled=False, streak=0, berserk_point=extra)
    doubled = streak_before >= STREAK_DOUBLES_FROM
    return Scored(points=(base * 2 if doubled else base) + extra, doubled=doubled, streak=streak_before + 1,
                  berserk_point=extra)


def people_places(totals: dict[int, int], left: set[int]) -> dict[int, int]:
    """{seat: place among the people} for the people's seats in `totals` ({seat: total}).

    Everyone still at the table ranks by total (equal totals share the better place); a
    player who left ranks after all of them, whatever the bot that took the seat scored."""
    held = [seat for seat in totals if seat not in left]
    places = {}
    for seat, total in totals.items():
        if seat in left:
            places[seat] = 1 + len(held)
        else:
            places[seat] = 1 + sum(1 for other in held if totals[other] > total)
    return places
