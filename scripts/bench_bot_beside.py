"""What a master bot's thinking costs the other tables of its web process: `make bench` prints it.

A bot's moves at a live table run inside the move that woke them (games/services/matches.py,
`_play_bot_seats`), on one of the web process's move threads (joker_site/db_threads.py), while
the process serves other tables. Python runs one thread at a time, so the question is how much
later another table's move ends while master bots think: in that thread (`in_thread`, as the
club's moves are made), and as they are made, in a worker process (games/bot_thinker.py,
`beside_master`).

Here another table's move is simulated by what it is made of: ten round trips to the
database or Redis (a 1 ms wait each, during which the thread lets the others run) and a
little CPU between them (a club bot's trump-and-bid work would be more; the engine's own
move is about 0.2 ms: an engine position copied and a legal move applied). It is timed alone, then
while another thread plays master bots' moves without a pause (a classic table of three
master bots, its worst case), both ways. Prints the wall-clock p50 and p99 of the other move, in ms.

    python scripts/bench_bot_beside.py [--moves 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.bot_thinker import bot_action
from games.engine import ClassicState, Phase, deal_from_deck, shuffled_deck
from games.engine.bot import choose_action

ROUND_TRIPS = 10
ROUND_TRIP_SECONDS = 0.001


def other_tables_move(state) -> None:
    """One move at another table: its database round trips and a little engine work."""
    for _ in range(ROUND_TRIPS):
        time.sleep(ROUND_TRIP_SECONDS)
        copy = state.copy()
        copy.apply(copy.legal_actions(copy.to_act)[0])


def _position():
    rng = random.Random(7)
    state = ClassicState({"game_type": "standard"})
    deal_from_deck(state, shuffled_deck(rng))
    return state


def _master_bots_think(stop: threading.Event, decisions: list, decide) -> None:
    """Master bots play classic deals one move after another until told to stop, each move from
    ``decide(state, seat, level)``."""
    rng = random.Random(11)
    state = ClassicState({"game_type": "standard"})
    while not stop.is_set():
        if state.is_over():
            state = ClassicState({"game_type": "standard"})
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(rng))
            continue
        state.apply(decide(state, state.to_act, "master"))
        decisions.append(1)


def _timed(moves: int) -> list[float]:
    state = _position()
    times = []
    for _ in range(moves):
        start = time.perf_counter()
        other_tables_move(state)
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def _timed_beside(moves: int, decide) -> list[float]:
    stop, decisions = threading.Event(), []
    thinker = threading.Thread(target=_master_bots_think, args=(stop, decisions, decide), daemon=True)
    thinker.start()
    while not decisions:  # the master is thinking before the timing starts
        time.sleep(0.01)
    times = _timed(moves)
    stop.set()
    thinker.join()
    return times


def _in_thread(state, seat, level):
    return choose_action(state, seat, level=level)


def run(moves: int, out=print) -> dict:
    figures = {}
    for name, samples in (
        ("alone", _timed(moves)),
        ("beside_master_in_thread", _timed_beside(moves, _in_thread)),
        ("beside_master", _timed_beside(moves, bot_action)),
    ):
        ordered = sorted(samples)
        figures[f"other_table_move_ms_{name}_p50"] = f"{statistics.median(ordered):.1f}"
        figures[f"other_table_move_ms_{name}_p99"] = f"{ordered[int(0.99 * (len(ordered) - 1))]:.1f}"
    for name, value in figures.items():
        out(f"{name}: {value}")
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args(argv)
    run(args.moves, out=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
