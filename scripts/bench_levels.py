"""The bot's levels against each other: `make bench` prints these figures.

Classic duplicate matches: ``standard`` games in which two seats play one level
and two the other. Every game is played twice on the same cards (a separate
shuffling generator per game, so each deal's cards do not depend on the moves),
once with level A at seats 0 and 2 and once at seats 1 and 3: every hand is held
once by each level and the cards' luck cancels. For each deal, A's mean deal
score minus B's in one seating and in the other are averaged: one figure per deal
(pulka premiums and moshla left out). The figure printed is their mean with a 95%
confidence interval (1.96 standard errors, the deals taken as independent).

Japanese: matches to 11 between two levels, the first declarer alternating.

    python scripts/bench_levels.py [--deals 2000] [--japanese-matches 200]

``BENCH_LEVEL_DEALS`` / ``BENCH_JAPANESE_MATCHES`` set the defaults (tests use a
few deals; ``make bench`` runs the full size). Decision times are CPU time of
this process per decision, by level.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.engine import ClassicState, JapaneseState, Phase, deal_from_deck, shuffled_deck
from games.engine.bot import choose_action

DEALS_PER_GAME = 24


class Timers:
    """Each level's decision times (ms of CPU time)."""

    def __init__(self):
        self.samples: dict[str, list[float]] = {}

    def decide(self, state, seat, rng, level):
        start = time.process_time()
        action = choose_action(state, seat, rng, level=level)
        self.samples.setdefault(level, []).append((time.process_time() - start) * 1000.0)
        return action


def play_classic_game(seed: int, levels_by_seat, timers: Timers):
    """One standard game, ``levels_by_seat[s]`` playing seat s; the cards come from ``seed`` alone."""
    deck_rng = random.Random(seed)
    bot_rngs = [random.Random(seed * 104729 + s) for s in range(4)]
    state = ClassicState({"game_type": "standard", "first_dealer": seed % 4})
    return play_out(state, deck_rng, bot_rngs, levels_by_seat, timers)


def play_out(state, deck_rng, rngs, levels_by_seat, timers: Timers):
    """Play ``state`` to its end: deals from ``deck_rng``, seat s's moves by its level with ``rngs[s]``."""
    while not state.is_over():
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(deck_rng))
            continue
        seat = state.to_act
        state.apply(timers.decide(state, seat, rngs[seat], levels_by_seat[seat]))
    return state


def classic_duplicate(level_a: str, level_b: str, deals: int, timers: Timers, first_seed: int = 20_000):
    """(per-deal differences A - B, A's bids made, A's bids, B's bids made, B's bids) over ``deals`` deals."""
    diffs = []
    made = {level_a: [0, 0], level_b: [0, 0]}
    game = 0
    while len(diffs) < deals:
        seed = first_seed + game
        rows = []
        for a_seats in ((0, 2), (1, 3)):
            levels = [level_a if s in a_seats else level_b for s in range(4)]
            state = play_classic_game(seed, levels, timers)
            per_deal = []
            for r in state.results:
                a = [r.scores[s] for s in range(4) if s in a_seats]
                b = [r.scores[s] for s in range(4) if s not in a_seats]
                per_deal.append(statistics.fmean(a) - statistics.fmean(b))
                if r.bids is not None:
                    for s in range(4):
                        tally = made[levels[s]]
                        tally[0] += r.bids[s] == r.tricks[s]
                        tally[1] += 1
            rows.append(per_deal)
        diffs.extend((x + y) / 2 for x, y in zip(*rows, strict=True))
        game += 1
    diffs = diffs[:deals]
    return diffs, made


def interval(values) -> tuple[float, float, float]:
    """(mean, low, high) with a 95% confidence interval of the mean."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def japanese_matches(level_a: str, level_b: str, matches: int, timers: Timers, target: int = 11, first_seed: int = 30_000):
    """A's share of ``matches`` Japanese matches to ``target`` won against B."""
    won = 0
    for m in range(matches):
        a_seat = m % 2
        deck_rng = random.Random(first_seed + m)
        rngs = [random.Random((first_seed + m) * 31 + s) for s in (0, 1)]
        levels = [level_a if s == a_seat else level_b for s in (0, 1)]
        state = JapaneseState({"target": target, "first_declarer": (m // 2) % 2})
        play_out(state, deck_rng, rngs, levels, timers)
        won += state.winners() == [a_seat]
    return won / max(1, matches)


def percentile(samples, q: float) -> float:
    ordered = sorted(samples)
    return ordered[int(q * (len(ordered) - 1))]


def run(deals: int, japanese: int, out=print) -> dict:
    timers = Timers()
    figures = {}
    diffs, made = classic_duplicate("club", "beginner", deals, timers)
    mean, low, high = interval(diffs)
    figures["club_vs_beginner_deals"] = len(diffs)
    figures["club_vs_beginner_points_per_deal"] = f"{mean:.1f} (95% CI {low:.1f} to {high:.1f})"
    figures["club_bids_made"] = f"{made['club'][0] / max(1, made['club'][1]):.3f}"
    figures["beginner_bids_made"] = f"{made['beginner'][0] / max(1, made['beginner'][1]):.3f}"
    figures["japanese_matches"] = japanese
    figures["japanese_club_vs_beginner_win_rate"] = f"{japanese_matches('club', 'beginner', japanese, timers):.3f}"
    for level, samples in sorted(timers.samples.items()):
        figures[f"{level}_decisions"] = len(samples)
        figures[f"{level}_decision_ms_p50"] = f"{statistics.median(samples):.2f}"
        figures[f"{level}_decision_ms_p99"] = f"{percentile(samples, 0.99):.2f}"
        figures[f"{level}_decision_ms_max"] = f"{max(samples):.2f}"
    for name, value in figures.items():
        out(f"{name}: {value}")
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=int(os.environ.get("BENCH_LEVEL_DEALS", "2000")))
    parser.add_argument("--japanese-matches", type=int, default=int(os.environ.get("BENCH_JAPANESE_MATCHES", "200")))
    args = parser.parse_args(argv)
    run(args.deals, args.japanese_matches, out=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
