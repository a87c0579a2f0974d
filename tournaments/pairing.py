"""The arena's pairing as a plain function (docs/tournaments.md "Pairing").

The waiting players, best score first (then rating), are taken in order: each group is
the first player not yet seated with the nearest players below them in that order
that the group may hold: in Japanese not the opponent the player just met (when
anyone else waits), in classic no two players who already sat together
`MAX_MEETINGS` times (when any other choice within the window exists). A player
nobody may join waits for the next pairing.
"""

from dataclasses import dataclass, field

MAX_MEETINGS = 3  # classic: the same two players at most this many times in one tournament
WINDOW = 12  # how far down the order a group looks for its players


@dataclass
class Waiting:
    key: int  # the participant's id
    score: int
    rating: int
    last_opponents: frozenset = frozenset()  # the people of the player's last match
    met: dict = field(default_factory=dict)  # {other key: how many matches together}


def groups(waiting: list[Waiting], size: int) -> list[list[int]]:
    """Groups of `size` participants' keys to seat now; everyone in at most one group."""
    order = sorted(waiting, key=lambda w: (-w.score, -w.rating, w.key))
    free = list(order)
    made = []
    while len(free) >= size:
        anchor = free[0]
        group = [anchor]
        for other in free[1:1 + WINDOW]:
            if all(_may_meet(other, chosen, size) for chosen in group):
                group.append(other)
                if len(group) == size:
                    break
        if len(group) < size:  # no group without a repeat: the nearest ones all the same
            group = free[:size]
        made.append([w.key for w in group])
        taken = {w.key for w in group}
        free = [w for w in free if w.key not in taken]
    return made


def _may_meet(a: Waiting, b: Waiting, size: int) -> bool:
    if size == 2:
        return b.key not in a.last_opponents and a.key not in b.last_opponents
    return a.met.get(b.key, 0) < MAX_MEETINGS
