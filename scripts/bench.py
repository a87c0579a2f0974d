#!/usr/bin/env python
"""Engine benchmarks (``make bench``): one process, one core.

Prints one ``name: value`` line per figure:

- ``classic_games_per_s``: full classic ``standard`` games (24 deals, random
  deals, random legal trump choices, bids and cards) played by the engine;
  ``reference_classic_games_per_s``: the same played by the straightforward
  reference of the rules (``scripts/reference_engine.py``), measured in the same
  run, and ``classic_vs_reference`` the engine's figure over the reference's;
- ``japanese_deals_per_s``: Japanese deals (random deal, trump, 18 tricks), with
  ``reference_japanese_deals_per_s`` and ``japanese_vs_reference`` the same way;
- ``replay_standard_records_per_s``: records of full standard games checked by
  ``replay_record`` (JSON parsing included), plus the seconds for 1,000 of them.

Each figure is the best of a few timed rounds (the engine's and the
reference's rounds alternate) (like ``timeit``) of the
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference_engine as ref

from games.engine import ClassicState, JapaneseState, play_random, replay_text, to_record


def best_rate(work, units_per_round: int, rounds: int) -> float:
    """Units per second of the fastest of ``rounds`` calls of ``work()``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return units_per_round / best


def best_rates_side_by_side(work, units, reference, reference_units, rounds: int) -> tuple[float, float]:
    """(units per second of ``work``, of ``reference``): their rounds alternate, so a change in
    the machine's load falls on both alike; each figure is its fastest round."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for k, call in enumerate((work, reference)):
            start = time.process_time()
            call()
            best[k] = min(best[k], time.process_time() - start)
    return units / best[0], reference_units / best[1]


def bench_classic_games(rounds: int = 7, games: int = 200, seed: int = 1) -> dict:
    rng = random.Random(seed)

    def work():
        for _ in range(games):
            state = ClassicState({"game_type": "standard"})
            play_random(state, rng)
            assert state.is_over()

    def reference():
        for _ in range(reference_games):
            game = ref.play_random_classic(rng)
            assert game.phase == "over"

    reference_games = max(1, games // 4)  # the reference is slower: fewer games, a round of similar length
    engine, slow = best_rates_side_by_side(work, games, reference, reference_games, rounds)
    return {
        "classic_games_per_s": round(engine),
        "reference_classic_games_per_s": round(slow),
        "classic_vs_reference": round(engine / slow, 2),
    }


def bench_japanese_deals(rounds: int = 7, deals: int = 2000, seed: int = 2) -> dict:
    rng = random.Random(seed)

    def work():
        state = JapaneseState({"target": 31})
        for _ in range(deals):
            if state.is_over():
                state = JapaneseState({"target": 31})
            play_random(state, rng, until_deal=state.deal_index + 1)

    def reference():
        match = ref.ReferenceJapanese(target=31)
        for _ in range(reference_deals):
            if match.phase == "over":
                match = ref.ReferenceJapanese(target=31)
            ref.play_random_japanese_deal(match, rng)

    reference_deals = max(1, deals // 3)
    engine, slow = best_rates_side_by_side(work, deals, reference, reference_deals, rounds)
    return {
        "japanese_deals_per_s": round(engine),
        "reference_japanese_deals_per_s": round(slow),
        "japanese_vs_reference": round(engine / slow, 2),
    }


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
