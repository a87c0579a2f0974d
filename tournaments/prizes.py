"""The prize split of a Domino Coin tournament (docs/tournaments.md "Entry fees and prizes"):
plain functions of the final standings.

The pool goes to the top places by percent: 50/30/20 when three or more players played,
70/30 for two, all of it for one. Players level at a paid place (`level`: equal on
everything the standings compare but who joined first) share the percents of the places
they cover evenly: level 2nd and 3rd of three get (30 + 20) / 2 = 25 % each; level 3rd and
4th get 20 / 2 = 10 % each.
"""

import math
from fractions import Fraction

SPLITS = {1: (100,), 2: (70, 30)}
SPLIT_OF_THREE_OR_MORE = (50, 30, 20)


def split_for(players: int) -> tuple[int, ...]:
    """The percents of the pool paid to the 1st, 2nd, … place when `players` played."""
    if players <= 0:
        return ()
    return SPLITS.get(players, SPLIT_OF_THREE_OR_MORE)


def percents(levels: list) -> list[Fraction]:
    """Each player's percent of the pool, for the players in standings order, `levels[i]`
    being what makes two players level (equal values: level). Those past the paid places get 0."""
    split = split_for(len(levels))
    shares = [Fraction(0)] * len(levels)
    start = 0
    while start < len(levels) and start < len(split):
        end = start
        while end + 1 < len(levels) and levels[end + 1] == levels[start]:
            end += 1
        covered = sum(split[start:end + 1])  # the paid places the level players cover
        for place in range(start, end + 1):
            shares[place] = Fraction(covered, end + 1 - start)
        start = end + 1
    return shares


def whole_weights(shares: list[Fraction]) -> list[int]:
    """The non-zero shares as whole numbers in the same proportions (the ledger's weights)."""
    paid = [share for share in shares if share]
    common = math.lcm(*(share.denominator for share in paid)) if paid else 1
    return [int(share * common) for share in paid]
