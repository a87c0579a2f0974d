"""The bot's levels against each other: `make bench` prints these figures.

Classic duplicate matches: ``standard`` games in which two seats play one level
and two the other. Every game is played twice on the same cards (a separate
shuffling generator per game, so each deal's cards do not depend on the moves),
once with level A at seats 0 and 2 and once at seats 1 and 3: every hand is held
once by each level and the cards' luck cancels. For each deal, A's mean points
minus B's in one seating and in the other are averaged: one figure per deal. A
deal's points are its scores and, on a pulka's last deal, the pulka's premium and
moshla (rules.md 2.8), so they add up to the score sheet's totals
(``<a>_vs_<b>_points_per_deal``); the same without the premiums and moshlas is
printed beside it (``<a>_vs_<b>_deal_scores_per_deal``). Each figure is a mean with
a 95% confidence interval (1.96 standard errors, the deals taken as independent).
Pairs: master against club, the all-seeing oracle (scripts/bot_oracle.py, the
master's search on the true deal: the ceiling) against club, club against
beginner; on request only (``--pairs oracle_bids_vs_club,oracle_plays_vs_club``), the
half-oracles that see the true deal for the bids only or for the cards only.

Japanese: matches to 11 between two levels, in pairs on the same cards (each pair's deals
from a generator of its own, A at seat 0 and then at seat 1, the first declarer alternating
from pair to pair), so that here too the cards' luck cancels; the win rate is printed with a
95% confidence interval over the pairs. Master against club, club against beginner, and the
oracle (it sees the opponent's hand and every face-down card) against club, the Japanese
ceiling.

    python scripts/bench_levels.py [--deals 480] [--japanese-matches 60] [--jobs 2]

``BENCH_LEVEL_DEALS`` / ``BENCH_JAPANESE_MATCHES`` / ``BENCH_JOBS`` set the
defaults, which ``make bench`` runs; the figures in docs/bot.md are from 2,000
deals and 200 matches. ``--jobs`` plays games in that many processes (a game is
one unit of work, so the figures do not depend on it). Decision times are CPU
time of the deciding process per decision, by level.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bot_oracle import ORACLE, ORACLE_BIDS, ORACLE_PLAYS, ORACLES
from bot_oracle import choose as oracle_choose

from games.engine import ClassicState, JapaneseState, Phase, deal_from_deck, shuffled_deck
from games.engine.bot import choose_action
from games.engine.classic import points_by_deal as points_of_deals

DEALS_PER_GAME = 24
# (variant, level A, level B) in the order played and printed.
PLAN = (
    ("classic", "master", "club"),
    ("japanese", "master", "club"),
    ("classic", "club", "beginner"),
    ("japanese", "club", "beginner"),
    ("classic", ORACLE, "club"),
    ("japanese", ORACLE, "club"),
    # Played only when named in --pairs: where the oracle's gain lies, in the bids or in the cards.
    ("classic", ORACLE_BIDS, "club"),
    ("classic", ORACLE_PLAYS, "club"),
)
ON_REQUEST = {f"{a}_vs_{b}" for _kind, a, b in PLAN if a in (ORACLE_BIDS, ORACLE_PLAYS)}
# The figure names of the Japanese pairs (the master's is the issue's `japanese_master_win_rate`).
JAPANESE_FIGURE = {
    ("master", "club"): "japanese_master_win_rate",
    ("club", "beginner"): "japanese_club_vs_beginner_win_rate",
    (ORACLE, "club"): "japanese_oracle_win_rate",  # the Japanese ceiling
}


class Timers:
    """Each level's decision times (ms of CPU time)."""

    def __init__(self, effort: float = 1.0):
        self.samples: dict[str, list[float]] = {}
        self.effort = effort

    def decide(self, state, seat, rng, level):
        start = time.process_time()
        if level in ORACLES:
            action = oracle_choose(state, seat, rng, self.effort, level)
        else:
            action = choose_action(state, seat, rng, self.effort, level=level)
        self.samples.setdefault(level, []).append((time.process_time() - start) * 1000.0)
        return action


def play_classic_game(seed: int, levels_by_seat, timers: Timers, deals: int = DEALS_PER_GAME):
    """The first ``deals`` deals of one standard game, ``levels_by_seat[s]`` playing seat s; the cards come from ``seed`` alone."""
    deck_rng = random.Random(seed)
    bot_rngs = [random.Random(seed * 104729 + s) for s in range(4)]
    state = ClassicState({"game_type": "standard", "first_dealer": seed % 4})
    return play_out(state, deck_rng, bot_rngs, levels_by_seat, timers, lambda: len(state.results) >= deals)


def play_out(state, deck_rng, rngs, levels_by_seat, timers: Timers, enough=lambda: False):
    """Play ``state`` to its end (or until ``enough()``): deals from ``deck_rng``, seat s's moves by its level with ``rngs[s]``."""
    while not state.is_over() and not enough():
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(deck_rng))
            continue
        seat = state.to_act
        state.apply(timers.decide(state, seat, rngs[seat], levels_by_seat[seat]))
    return state


def points_by_deal(state, deals: int) -> list[tuple[list, list]]:
    """(deal scores, points) by seat for each of the first ``deals`` deals: the points are the
    deal's scores and, on a pulka's last deal, the pulka's premium and moshla (rules.md 2.8,
    `classic.points_by_deal`), so that they add up to the score sheet's totals."""
    sheet = state.score_sheet()
    return list(zip((row["scores"] for row in sheet["deals"][:deals]), points_of_deals(sheet)[:deals]))


def _a_less_b(by_seat, a_seats) -> float:
    """Level A's mean at ``a_seats`` less level B's at the other seats."""
    return statistics.fmean(by_seat[s] for s in a_seats) - statistics.fmean(
        by_seat[s] for s in range(4) if s not in a_seats)


def duplicate_game(task):
    """One game played twice (levels' seats swapped): (per-deal A - B in points, the same in deal
    scores alone, bids made and bids by level, decision times)."""
    level_a, level_b, seed, deals, effort = task
    timers = Timers(effort)
    made = {level_a: [0, 0], level_b: [0, 0]}
    points_rows, score_rows = [], []
    for a_seats in ((0, 2), (1, 3)):
        levels = [level_a if s in a_seats else level_b for s in range(4)]
        state = play_classic_game(seed, levels, timers, deals)
        seating = points_by_deal(state, deals)
        points_rows.append([_a_less_b(points, a_seats) for _scores, points in seating])
        score_rows.append([_a_less_b(scores, a_seats) for scores, _points in seating])
        for r in state.results[:deals]:
            if r.bids is not None:
                for s in range(4):
                    tally = made[levels[s]]
                    tally[0] += r.bids[s] == r.tricks[s]
                    tally[1] += 1

    def seatings_averaged(by_seating):
        return [(x + y) / 2 for x, y in zip(*by_seating, strict=True)]

    return seatings_averaged(points_rows), seatings_averaged(score_rows), made, timers.samples


def japanese_match_pair(task):
    """(A's matches to ``target`` won against B in a pair played on the same cards, A at seat 0
    and then at seat 1; decision times). The deals come from the pair's own generator, so each
    deal's cards do not depend on the moves: in both matches the k-th deal is the same."""
    level_a, level_b, p, target, effort, first_seed = task
    timers = Timers(effort)
    won = 0
    for a_seat in (0, 1):
        deck_rng = random.Random(first_seed + p)
        rngs = [random.Random((first_seed + p) * 31 + s) for s in (0, 1)]
        levels = [level_a if s == a_seat else level_b for s in (0, 1)]
        state = JapaneseState({"target": target, "first_declarer": p % 2})
        play_out(state, deck_rng, rngs, levels, timers)
        won += state.winners() == [a_seat]
    return won, timers.samples


def _map(function, tasks, jobs: int):
    """``function`` of each task, in the tasks' order, each as soon as it and those before it are done."""
    if jobs <= 1:
        yield from map(function, tasks)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(function, tasks, chunksize=1)


def _progress(text: str) -> None:
    """A running figure on stderr (stdout keeps the final figures): a long run stopped early still tells."""
    print(text, file=sys.stderr, flush=True)


def classic_duplicate(level_a, level_b, deals, jobs=1, effort=1.0, first_seed=20_000):
    """(per-deal differences A - B in points, the same in deal scores alone, bids made and bids by
    level, decision times by level) over ``deals`` deals."""
    games = math.ceil(deals / DEALS_PER_GAME)
    tasks = [(level_a, level_b, first_seed + g, min(DEALS_PER_GAME, deals - g * DEALS_PER_GAME), effort) for g in range(games)]
    diffs, score_diffs, made, times = [], [], {level_a: [0, 0], level_b: [0, 0]}, {}
    for game_diffs, game_score_diffs, game_made, game_times in _map(duplicate_game, tasks, jobs):
        diffs.extend(game_diffs)
        score_diffs.extend(game_score_diffs)
        for level, (k, n) in game_made.items():
            made[level][0] += k
            made[level][1] += n
        _merge(times, game_times)
        mean, low, high = interval(diffs)
        scores_mean, scores_low, scores_high = interval(score_diffs)
        _progress(f"{level_a}_vs_{level_b} so far: {len(diffs)} deals, points {mean:.1f} (95% CI {low:.1f} to "
                  f"{high:.1f}), deal scores {scores_mean:.1f} (95% CI {scores_low:.1f} to {scores_high:.1f}), "
                  f"{level_a}_bids_made {made[level_a][0] / max(1, made[level_a][1]):.3f}")
    return diffs, score_diffs, made, times


def japanese_matches(level_a, level_b, matches, jobs=1, effort=1.0, target=11, first_seed=30_000):
    """(A's share of the Japanese matches to ``target`` won against B, with a 95% interval over
    the pairs; decision times by level). ``matches`` are played in pairs on the same cards with
    the seats swapped (an odd number gets one more): the cards' luck cancels within a pair."""
    tasks = [(level_a, level_b, p, target, effort, first_seed) for p in range(japanese_pairs(matches))]
    shares, won, times = [], 0, {}
    for pair_won, match_times in _map(japanese_match_pair, tasks, jobs):
        shares.append(pair_won / 2)
        won += pair_won
        _merge(times, match_times)
        _progress(f"japanese {level_a}_vs_{level_b} so far: {won} of {2 * len(shares)} matches won")
    return interval(shares), times


def japanese_pairs(matches: int) -> int:
    """Pairs of matches played for ``matches`` (an odd number gets one more match)."""
    return math.ceil(matches / 2)


def _merge(into, samples):
    for level, values in samples.items():
        into.setdefault(level, []).extend(values)


def interval(values) -> tuple[float, float, float]:
    """(mean, low, high) with a 95% confidence interval of the mean."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def percentile(samples, q: float) -> float:
    ordered = sorted(samples)
    return ordered[int(q * (len(ordered) - 1))]


def run(deals: int, japanese: int, out=print, jobs: int = 1, effort: float = 1.0, pairs=None) -> dict:
    """Every figure, each printed as soon as it is known (the master's first, the oracle's last:
    a long run stopped early still tells what matters most). ``pairs`` (names like
    "master_vs_club") limits the pairs played; without it every pair but those ON_REQUEST is
    played. A level's bids made are counted in the first pair it plays; the decision times are
    printed again, over everything so far, after each pair."""
    times: dict[str, list[float]] = {}
    figures = {}

    def show(name, value):
        figures[name] = value
        out(f"{name}: {value}")

    def show_times():
        for level, samples in sorted(times.items()):
            show(f"{level}_decisions", len(samples))
            show(f"{level}_decision_ms_p50", f"{statistics.median(samples):.2f}")
            show(f"{level}_decision_ms_p99", f"{percentile(samples, 0.99):.2f}")
            show(f"{level}_decision_ms_max", f"{max(samples):.2f}")

    for kind, a, b in PLAN:
        name = f"{a}_vs_{b}"
        if (name not in pairs) if pairs is not None else (name in ON_REQUEST):
            continue
        if (deals if kind == "classic" else japanese) <= 0:
            continue
        if kind == "classic":
            diffs, score_diffs, made, pair_times = classic_duplicate(a, b, deals, jobs, effort)
            show(f"{a}_vs_{b}_deals", len(diffs))
            for figure, values in (("points_per_deal", diffs), ("deal_scores_per_deal", score_diffs)):
                mean, low, high = interval(values)
                show(f"{a}_vs_{b}_{figure}", f"{mean:.1f} (95% CI {low:.1f} to {high:.1f})")
            for level, (k, n) in made.items():
                if f"{level}_bids_made" not in figures:
                    show(f"{level}_bids_made", f"{k / max(1, n):.3f}")
        else:
            (rate, low, high), pair_times = japanese_matches(a, b, japanese, jobs, effort)
            show("japanese_matches", 2 * japanese_pairs(japanese))
            show(JAPANESE_FIGURE[(a, b)], f"{rate:.3f} (95% CI {low:.3f} to {high:.3f})")
        _merge(times, pair_times)
        show_times()
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=int(os.environ.get("BENCH_LEVEL_DEALS", "480")))
    parser.add_argument("--japanese-matches", type=int, default=int(os.environ.get("BENCH_JAPANESE_MATCHES", "60")))
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("BENCH_JOBS", "2")), help="processes playing games")
    parser.add_argument("--pairs", help="only these pairs, comma-separated (e.g. master_vs_club,club_vs_beginner)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    pairs = set(args.pairs.split(",")) if args.pairs else None
    run(args.deals, args.japanese_matches, out=lambda line: print(line, flush=True), jobs=args.jobs, pairs=pairs)


if __name__ == "__main__":
    main()
