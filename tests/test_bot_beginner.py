"""The beginner level plays like a learner: it over-bids more than the club bot and, wanting a
trick, often spends a joker at once. (How much weaker it is: ``club_vs_beginner_points_per_deal``
of ``make bench``, scripts/bench_levels.py.)"""

import importlib.util
import random
import sys
from pathlib import Path

from games.engine import Bid, ClassicState, Phase, Play, deal_from_deck, shuffled_deck
from games.engine.bot import choose_action
from games.engine.scenario import advance_to_deal, classic_cards

_path = Path(__file__).resolve().parent.parent / "scripts" / "bench_levels.py"
_spec = importlib.util.spec_from_file_location("bench_levels", _path)
bench_levels = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench_levels  # its processes (--jobs) find their work by the module's name
_spec.loader.exec_module(bench_levels)


def _overbids(level: str, seed: int) -> tuple[int, int]:
    """(bids above the tricks taken, bids) of four ``level`` bots in a short game."""
    deck_rng = random.Random(seed)
    state = ClassicState({"game_type": "short"})
    rng = random.Random(seed + 1)
    while not state.is_over():
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(deck_rng))
            continue
        state.apply(choose_action(state, state.to_act, rng, effort=0.3, level=level))
    over = sum(r.bids[s] > r.tricks[s] for r in state.results for s in range(4))
    return over, 4 * len(state.results)


def test_the_beginner_overbids_more_often_than_the_club_bot_on_the_same_cards():
    beginner = club = total = 0
    for seed in (1, 2):
        over, bids = _overbids("beginner", seed)
        beginner += over
        total += bids
        club += _overbids("club", seed)[0]
    assert beginner > club
    assert beginner / total > 0.25


def _leading_with_a_joker_and_an_ace():
    """Deal 2 (two cards each): the leader holds X1 and A♥ (trump ♦), bid one trick; its move."""
    state = ClassicState({"game_type": "standard"})
    advance_to_deal(state, 1)
    leader = (state.dealer + 1) % 4
    state.deal(**classic_cards(state, {leader: ["X1", "AH"]}, "7D"))
    state.apply(Bid(leader, 1))
    for k in (1, 2, 3):
        state.apply(Bid((leader + k) % 4, 0))
    assert state.phase is Phase.PLAY and state.to_act == leader
    return state, leader


def test_the_beginner_wanting_a_trick_often_spends_its_joker_at_once_where_the_club_bot_leads_the_ace():
    state, leader = _leading_with_a_joker_and_an_ace()
    moves = [choose_action(state, leader, random.Random(seed), level="beginner") for seed in range(40)]
    joker_leads = [m for m in moves if m.card == "X1" and m.joker == "take"]
    assert all(isinstance(m, Play) and state.is_legal(m) for m in moves)
    assert 8 <= len(joker_leads) <= 32  # now the joker, now the ace: a learner's habit, not a rule
    assert any(m.card == "AH" for m in moves)
    club = {choose_action(state, leader, random.Random(seed), effort=0.3, level="club") for seed in range(5)}
    assert {m.card for m in club} == {"AH"}  # the club bot keeps its joker for later


def test_the_level_bench_reports_its_figures_on_a_few_deals():
    lines = []
    figures = bench_levels.run(deals=3, japanese=1, out=lines.append, jobs=2, effort=0.1)
    assert figures["club_vs_beginner_deals"] == figures["master_vs_club_deals"] == figures["oracle_vs_club_deals"] == 3
    for name in (
        "master_vs_club_points_per_deal",
        "master_vs_club_deal_scores_per_deal",
        "oracle_vs_club_points_per_deal",
        "club_vs_beginner_points_per_deal",
        "master_bids_made",
        "club_bids_made",
        "beginner_bids_made",
        "japanese_master_win_rate",
        "japanese_club_vs_beginner_win_rate",
        "japanese_oracle_win_rate",
        "master_decision_ms_p99",
        "club_decision_ms_p99",
        "beginner_decision_ms_p99",
    ):
        assert name in figures
    assert "95% CI" in figures["master_vs_club_points_per_deal"]
    assert {line.split(":")[0] for line in lines} == set(figures)
    assert "oracle_bids_vs_club_deals" not in figures and "oracle_plays_vs_club_deals" not in figures  # on request only


def test_the_benchs_points_add_up_to_the_score_sheets_totals_premiums_and_moshlas_included():
    timers = bench_levels.Timers(0.05)
    bonuses = []
    for seed in (2, 4):  # a game with a pulka closed and one without
        state = bench_levels.play_classic_game(seed, ["club"] * 4, timers)
        rows = bench_levels.points_by_deal(state, bench_levels.DEALS_PER_GAME)
        assert [sum(points[s] for _scores, points in rows) for s in range(4)] == list(state.totals)
        assert [sum(scores[s] for scores, _points in rows) for s in range(4)] == [
            sum(r.scores[s] for r in state.results) for s in range(4)]
        bonuses.extend(p["bonus"] for p in state.score_sheet()["pulkas"])
    assert any(any(b) for b in bonuses), "no premium or moshla in these games: pick other seeds"


def test_the_half_oracles_are_played_when_asked_for():
    figures = bench_levels.run(deals=2, japanese=1, out=lambda _line: None, jobs=1, effort=0.1,
                               pairs={"oracle_bids_vs_club", "oracle_plays_vs_club"})
    assert figures["oracle_bids_vs_club_deals"] == figures["oracle_plays_vs_club_deals"] == 2
    assert "95% CI" in figures["oracle_bids_vs_club_points_per_deal"]
    assert "oracle_bids_decision_ms_p99" in figures and "oracle_plays_decision_ms_p99" in figures
    assert "japanese_master_win_rate" not in figures


def _first_bid_and_play(seed: int):
    """The first 9-card deal of a nines game at its first bid, and the same deal at its first card."""
    state = ClassicState({"game_type": "nines", "first_dealer": 0})
    deal_from_deck(state, shuffled_deck(random.Random(seed)))
    if state.phase is Phase.TRUMP:
        state.apply(choose_action(state, state.to_act, random.Random(0), effort=0.1))
    bidding = state.copy()
    while state.phase is Phase.BID:
        state.apply(choose_action(state, state.to_act, random.Random(0), effort=0.1))
    return bidding, state


def test_a_half_oracle_sees_the_true_deal_in_its_own_half_only():
    bot_oracle = sys.modules["bot_oracle"]
    bidding, playing = _first_bid_and_play(11)

    def move(state, oracle, seed):
        return bot_oracle.choose(state, state.to_act, random.Random(seed), 0.1, oracle)

    def master(state, seed):
        return choose_action(state, state.to_act, random.Random(seed), effort=0.1, level="master")

    for seed in range(3):
        assert move(bidding, "oracle_bids", seed) == move(bidding, "oracle", seed)
        assert move(bidding, "oracle_plays", seed) == master(bidding, seed)
        assert move(playing, "oracle_plays", seed) == move(playing, "oracle", seed)
        assert move(playing, "oracle_bids", seed) == master(playing, seed)


def test_the_level_bench_gives_the_same_figures_in_one_process_or_two():
    def played(jobs):
        figures = bench_levels.run(deals=2, japanese=0, out=lambda _line: None, jobs=jobs, effort=0.1,
                                   pairs={"club_vs_beginner"})
        return figures["club_vs_beginner_points_per_deal"], figures["club_bids_made"]

    assert played(1) == played(2)
