#!/usr/bin/env python
"""Engine benchmarks (``make bench``): one process, one core.

Prints one ``name: value`` line per figure:

- ``classic_games_per_s``: full classic ``standard`` games (24 deals, random
  deals, random legal trump choices, bids and cards) played by the engine;
- ``japanese_deals_per_s``: Japanese deals (random deal, trump, 18 tricks);
- ``replay_standard_records_per_s``: records of full standard games checked by
  ``replay_record`` (JSON parsing included), plus the seconds for 1,000 of them.

Each figure is the best of a few timed rounds (like ``timeit``) of the
process's CPU time (``time.process_time``): on a shared machine other
processes only ever make a round slower, and CPU time does not count the
moments this process waits for a core. Add a new
benchmark as a function returning ``{name: value}`` and list it in BENCHMARKS.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import ClassicState, JapaneseState, play_random, replay_text, to_record


def best_rate(work, units_per_round: int, rounds: int) -> float:
    """Units per second of the fastest of ``rounds`` calls of ``work()``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return units_per_round / best


def bench_classic_games(rounds: int = 5, games: int = 200, seed: int = 1) -> dict:
    rng = random.Random(seed)

    def work():
        for _ in range(games):
            state = ClassicState({"game_type": "standard"})
            play_random(state, rng)
            assert state.is_over()

    return {"classic_games_per_s": round(best_rate(work, games, rounds))}


def bench_japanese_deals(rounds: int = 5, deals: int = 2000, seed: int = 2) -> dict:
    rng = random.Random(seed)

    def work():
        state = JapaneseState({"target": 31})
        for _ in range(deals):
            if state.is_over():
                state = JapaneseState({"target": 31})
            play_random(state, rng, until_deal=state.deal_index + 1)

    return {"japanese_deals_per_s": round(best_rate(work, deals, rounds))}


def standard_records(count: int, seed: int = 3) -> list[str]:
    """``count`` records of random full standard games, as JSON text."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        state = ClassicState({"game_type": "standard", "first_dealer": rng.randrange(4)})
        play_random(state, rng)
        texts.append(json.dumps(to_record(state, ["a", "b", "c", "d"])))
    return texts


def bench_replay(rounds: int = 3, records: int = 1000) -> dict:
    texts = standard_records(records)

    def work():
        for text in texts:
            verdict = replay_text(text)
            assert verdict["ok"] and verdict["finished"], verdict

    rate = best_rate(work, records, rounds)
    return {"replay_standard_records_per_s": round(rate), "replay_1000_standard_records_s": round(1000 / rate, 3)}


BENCHMARKS = {
    "classic": bench_classic_games,
    "japanese": bench_japanese_deals,
    "replay": bench_replay,
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", choices=[[], *BENCHMARKS], help="benchmarks to run (default: all)")
    args = parser.parse_args(argv)
    for name in args.only or BENCHMARKS:
        for key, value in BENCHMARKS[name]().items():
            print(f"{key}: {value}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
