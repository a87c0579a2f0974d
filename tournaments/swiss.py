"""The Swiss's rules as plain functions (docs/tournaments.md "The Swiss").

- Each round everyone present plays. The players are ordered by score, then rating
  (best first). Japanese: each player meets the nearest player below them whom they
  have not met before; the first pairing in that order without a repeated pair is
  taken, searching back when the nearest choices leave someone without a new opponent.
  Classic: the order is cut into tables of four from the top, so a table holds one
  score group, or two neighbouring ones where a group does not fill its tables.
- When the players do not divide into tables, the lowest in the order who has had no
  bye sits out with `bye_points` (the lowest of all when everyone has had one).
- Points: the arena's table of places (scoring.py), without streaks: Japanese a win 2,
  a loss 0; classic 4 / 2 / 1 / 0. Resigning, losing on time or walking out scores 0.
- Tie-breaks: Japanese, the opponents' scores added up (Buchholz), then the scores of
  the opponents beaten (Sonneborn–Berger); classic, the average score of the people met
  at the tables, then the scores of those the player finished ahead of. A bye meets
  nobody and adds nothing to them.
"""

from dataclasses import dataclass
from fractions import Fraction

from .scoring import CLASSIC_POINTS, JAPANESE_POINTS

MOST_ROUNDS = 15
TABLE_SIZE = {"japanese": 2, "classic": 4}
SEARCH_STEPS = 200_000  # the Japanese pairing's search gives up (the Swiss ends) past this many tries


def points(variant: str, place: int, left: bool) -> int:
    """One player's points for one Swiss match: the arena's table of places, no streak."""
    if left:
        return 0
    table = JAPANESE_POINTS if variant == "japanese" else CLASSIC_POINTS
    return table.get(place, 0)


def bye_points(variant: str) -> int:
    """Sitting out a round because the players did not divide: a win in Japanese, a second
    place in classic (about what an average table gives: (4 + 2 + 1 + 0) / 4)."""
    return JAPANESE_POINTS[1] if variant == "japanese" else CLASSIC_POINTS[2]


def late_join_open(current_round: int, rounds: int) -> bool:
    """A running Swiss takes new players until half of its rounds were paired: a late player
    plays at least the other half."""
    return current_round <= rounds // 2


@dataclass(frozen=True)
class Entrant:
    key: int  # the participant's id
    score: int
    rating: int
    met: frozenset = frozenset()  # the keys of everyone met at a table before
    had_bye: bool = False


@dataclass(frozen=True)
class Pairing:
    tables: list  # [[key, ...], ...], each table's keys best first
    byes: list  # the keys sitting out with bye_points


def order(entrants: list[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.key))


def pair(variant: str, entrants: list[Entrant]) -> Pairing | None:
    """This round's tables and byes, or None when no table can be made (fewer players than a
    table, or in Japanese no pairing without a repeated pair): the Swiss then ends."""
    ranked = order(entrants)
    size = TABLE_SIZE[variant]
    if len(ranked) < size:
        return None
    extra = len(ranked) % size
    if variant != "japanese":
        byes = bye_order(ranked)[:extra]
        sitting_out = {e.key for e in byes}
        rest = [e for e in ranked if e.key not in sitting_out]
        return Pairing(tables=[[e.key for e in rest[i:i + size]] for i in range(0, len(rest), size)],
                       byes=[e.key for e in byes])
    candidates = bye_order(ranked) if extra else [None]
    steps = [0]
    for bye in candidates:
        matched = _match([e for e in ranked if e is not bye], steps)
        if matched is not None:
            return Pairing(tables=matched, byes=[] if bye is None else [bye.key])
    return None


def bye_order(ranked: list[Entrant]) -> list[Entrant]:
    """Who sits out first: the lowest who has had no bye, then the lowest of those who had one."""
    lowest_first = list(reversed(ranked))
    return [e for e in lowest_first if not e.had_bye] + [e for e in lowest_first if e.had_bye]


def _match(ranked: list[Entrant], steps: list) -> list | None:
    """Pairs of the ranked players, each the nearest new opponent below, searching back when
    a choice leaves someone without one; None when no such pairing exists (or the search
    ran past SEARCH_STEPS). Depth-first with a stack of its own: a thousand players are five
    hundred choices deep."""
    choices = []  # (the players still free before the choice, the index of the partner chosen)
    free, start = ranked, 0
    while free:
        first, rest = free[0], free[1:]
        partner = next((i for i in range(start, len(rest)) if rest[i].key not in first.met), None)
        if partner is None:  # nobody new for `first`: the choice before takes its next partner
            if not choices:
                return None
            free, chosen = choices.pop()
            start = chosen + 1
            continue
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            return None
        choices.append((free, partner))
        free, start = rest[:partner] + rest[partner + 1:], 0
    return [[free_before[0].key, free_before[1:][chosen].key] for free_before, chosen in choices]


@dataclass(frozen=True)
class Meeting:
    """One counted Swiss match: {participant key: place} (1 = first; a player who left is last)."""

    places: dict


def tie_breaks(variant: str, scores: dict, meetings: list[Meeting]) -> dict:
    """{key: (first tie-break, second tie-break)} for every key of `scores` (final scores now).

    Japanese: (Buchholz: the opponents' scores added up, Sonneborn–Berger: the scores of the
    opponents beaten). Classic: (the average score of everyone met at the tables, the scores
    of those the player finished ahead of)."""
    met_scores = {key: [] for key in scores}
    ahead_of = {key: Fraction(0) for key in scores}
    for meeting in meetings:
        for key, place in meeting.places.items():
            for other, other_place in meeting.places.items():
                if other == key:
                    continue
                met_scores[key].append(scores[other])
                if place < other_place:
                    ahead_of[key] += scores[other]
    result = {}
    for key in scores:
        met = met_scores[key]
        if variant == "japanese":
            first = Fraction(sum(met))
        else:
            first = Fraction(sum(met), len(met)) if met else Fraction(0)
        result[key] = (first, ahead_of[key])
    return result
