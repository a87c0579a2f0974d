"""Bot strength and speed: `make bench` prints these figures.

Classic: ``standard`` games where two seats are the bot and two are random
legal players. Every game is played twice on the same cards (a separate
shuffling generator per game), once with the bot at seats 0 and 2 and once at
seats 1 and 3, so every hand is held by the bot once and by a random player
once. ``bot_margin`` is the bot's mean deal score minus the random players'
mean deal score over all those deals (pulka premiums and moshla left out).

Japanese: bot against a random player, deal after deal (new matches as
needed), the bot's seat alternating by match; ``japanese_bot_win_rate`` is the
share of deals in which the bot took more tricks.

Random players pick a legal card uniformly, then a joker's take/discard and
named suit uniformly (as ``games.engine.play_random`` does). Fixed seeds make
the run repeatable.

    python scripts/bench_bot.py [--classic-games 9] [--japanese-deals 400] [--quick]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.engine import ClassicState, JapaneseState, Phase, deal_from_deck, shuffled_deck
from games.engine.bot import choose_action


def random_move(state, seat, rng):
    """A uniformly random legal card (then joker mode and suit at random), bid or trump."""
    actions = state.legal_actions(seat)
    if state.phase is not Phase.PLAY:
        return rng.choice(actions)
    cards = sorted({a.card for a in actions})
    card = rng.choice(cards)
    return rng.choice([a for a in actions if a.card == card])


class Timer:
    def __init__(self):
        self.samples = []

    def bot(self, state, seat, rng):
        # CPU time of this process: the decision's own cost, whatever else the machine is doing.
        start = time.process_time()
        action = choose_action(state, seat, rng)
        self.samples.append((time.process_time() - start) * 1000.0)
        return action


def play_classic_game(seed: int, bot_seats, timer: Timer, game_type="standard"):
    deck_rng = random.Random(seed)
    move_rng = random.Random(seed * 7919 + sum(1 << s for s in bot_seats))
    bot_rng = random.Random(seed * 104729 + 1)
    state = ClassicState({"game_type": game_type, "first_dealer": seed % 4})
    while not state.is_over():
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(deck_rng))
            continue
        seat = state.to_act
        if seat in bot_seats:
            action = timer.bot(state, seat, bot_rng)
        else:
            action = random_move(state, seat, move_rng)
        state.apply(action)
    return state


def classic_bench(games: int, timer: Timer, game_type="standard"):
    bot_scores, random_scores = [], []
    made = bids = 0
    for g in range(games):
        for bot_seats in ({0, 2}, {1, 3}):
            state = play_classic_game(1000 + g, bot_seats, timer, game_type)
            for r in state.results:
                for s in range(4):
                    (bot_scores if s in bot_seats else random_scores).append(r.scores[s])
                    if s in bot_seats and r.bids is not None:
                        bids += 1
                        made += r.bids[s] == r.tricks[s]
    return bot_scores, random_scores, made / max(1, bids)


def japanese_bench(deals: int, timer: Timer):
    won = lost = tied = 0
    diff = []
    match = 0
    while won + lost + tied < deals:
        bot_seat = match % 2
        deck_rng = random.Random(5000 + match)
        move_rng = random.Random(6000 + match)
        bot_rng = random.Random(7000 + match)
        state = JapaneseState({"target": 21})
        while not state.is_over() and won + lost + tied < deals:
            if state.phase is Phase.DEAL:
                deal_from_deck(state, shuffled_deck(deck_rng))
                continue
            seat = state.to_act
            action = (
                timer.bot(state, seat, bot_rng) if seat == bot_seat else random_move(state, seat, move_rng)
            )
            before = len(state.results)
            state.apply(action)
            if len(state.results) > before:
                mine, theirs = state.results[-1].tricks[bot_seat], state.results[-1].tricks[1 - bot_seat]
                diff.append(mine - theirs)
                if mine > theirs:
                    won += 1
                elif mine < theirs:
                    lost += 1
                else:
                    tied += 1
        match += 1
    return won, lost, tied, diff


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--classic-games", type=int, default=9, help="seeds; each is played twice (2 x 24 deals)"
    )
    parser.add_argument("--japanese-deals", type=int, default=400)
    parser.add_argument("--quick", action="store_true", help="a short run (not the official figures)")
    args = parser.parse_args(argv)
    if args.quick:
        args.classic_games, args.japanese_deals = 2, 60

    classic_timer = Timer()
    start = time.perf_counter()
    bot, rnd, made_rate = classic_bench(args.classic_games, classic_timer)
    classic_seconds = time.perf_counter() - start
    deals = len(bot) // 2
    print(f"bot_classic_deals: {deals}")
    print(f"bot_mean_deal_score: {statistics.fmean(bot):.1f}")
    print(f"random_mean_deal_score: {statistics.fmean(rnd):.1f}")
    print(f"bot_margin: {statistics.fmean(bot) - statistics.fmean(rnd):.1f}")
    print(f"bot_bids_made: {made_rate:.3f}")

    japanese_timer = Timer()
    start = time.perf_counter()
    won, lost, tied, diff = japanese_bench(args.japanese_deals, japanese_timer)
    japanese_seconds = time.perf_counter() - start
    total = won + lost + tied
    print(f"japanese_deals: {total}")
    print(f"japanese_bot_win_rate: {won / total:.3f}")
    print(f"japanese_bot_loss_rate: {lost / total:.3f}")
    print(f"japanese_bot_mean_trick_difference: {statistics.fmean(diff):.2f}")

    times = sorted(classic_timer.samples + japanese_timer.samples)
    print(f"bot_decisions: {len(times)}")
    print(f"bot_decision_ms_p50: {statistics.median(times):.2f}")
    print(f"bot_decision_ms_p99: {times[int(0.99 * (len(times) - 1))]:.2f}")
    print(f"bot_decision_ms_max: {times[-1]:.2f}")
    print(f"bot_bench_seconds: {classic_seconds + japanese_seconds:.1f}")


if __name__ == "__main__":
    main()
