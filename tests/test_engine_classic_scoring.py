"""Classic Joker scoring, rules.md 2.7-2.9: the deal table, khishti, golden and misère,
premium and moshla in all three settings, the end of the game."""

import random

import pytest

from games.engine import Bid, ChooseTrump, ClassicState, Phase, Play, play_random
from games.engine.common import ranks_by_total
from games.engine.rules import deal_score, special_score
from games.engine.scenario import advance_to_deal, classic_cards

HEARTS = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"]


def play_out(state):
    """Finish the current deal: first legal ordinary card, a joker only when forced (as discard)."""
    deal = state.deal_index
    while state.phase is Phase.PLAY and state.deal_index == deal:
        actions = state.legal_actions(state.to_act)
        ordinary = [a for a in actions if a.joker is None]
        if ordinary:
            state.apply(ordinary[0])
        else:
            state.apply(next(a for a in actions if a.joker == "discard" and a.suit in (None, "S")))


def deal_seat0_takes_everything(state, bid_of):
    """Deal so that seat 0 holds the top hearts (trump) and takes every trick; bid with ``bid_of(seat, n)``."""
    n = state.spec.cards
    if n < 9:
        state.deal(**classic_cards(state, {0: HEARTS[:n]}, trump_card=HEARTS[n]))
    else:
        state.deal(**classic_cards(state, {0: HEARTS}))
        state.apply(ChooseTrump(state.to_act, "H"))
    while state.phase is Phase.BID:
        state.apply(Bid(state.to_act, bid_of(state.to_act, n, state.deal_index)))
    play_out(state)


# --- 2.7 the deal table -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "bid, took, cards, score",
    [
        (0, 0, 5, 50),  # pass made
        (9, 9, 9, 900),  # all bid, all taken
        (4, 4, 4, 400),
        (1, 1, 1, 100),
        (2, 2, 9, 150),  # made: 50 x (bid + 1)
        (3, 3, 9, 200),
        (1, 2, 9, 20),  # missed: 10 per trick taken
        (0, 1, 9, 10),
        (5, 3, 9, 30),
    ],
)
def test_deal_score_table(bid, took, cards, score):
    assert deal_score(bid, took, cards, 200) == score


@pytest.mark.parametrize("khishti, cards, penalty", [(100, 5, -100), (200, 5, -200), (500, 5, -500), ("per_card", 5, -500), ("per_card", 9, -900), ("per_card", 1, -100)])
def test_khishti_bid_one_or_more_and_took_nothing_costs_the_table_setting(khishti, cards, penalty):
    assert deal_score(1, 0, cards, khishti) == penalty
    assert deal_score(cards, 0, cards, khishti) == penalty


def test_khishti_default_is_200():
    assert ClassicState().options.khishti == 200


@pytest.mark.parametrize("khishti, expected", [(100, -100), (200, -200), (500, -500), ("per_card", -300)])
def test_khishti_in_a_played_deal_is_scored_and_marked_on_the_sheet(khishti, expected):
    state = ClassicState({"game_type": "standard", "khishti": khishti, "first_dealer": 1})
    advance_to_deal(state, 2)  # three cards, dealer 3
    deal_seat0_takes_everything(state, lambda seat, n, d: {0: 3, 1: 1, 2: 0, 3: 0}[seat])
    row = state.score_sheet()["deals"][-1]
    assert row["tricks"] == [3, 0, 0, 0]
    assert row["scores"] == [300, expected, 50, 50]
    assert row["khishti"] == [False, True, False, False]


def test_golden_pulka_each_trick_is_worth_100():
    assert [special_score("golden", t, 9) for t in (0, 1, 5, 9)] == [0, 100, 500, 900]
    state = ClassicState({"game_type": "full"})
    advance_to_deal(state, 24)
    deal_seat0_takes_everything(state, None)
    assert state.results[-1].scores == (900, 0, 0, 0) and state.results[-1].bids is None


def test_misere_pulka_each_trick_costs_100_but_all_nine_score_900():
    assert [special_score("misere", t, 9) for t in (0, 1, 5, 8, 9)] == [0, -100, -500, -800, 900]
    state = ClassicState({"game_type": "full"})
    advance_to_deal(state, 36)
    deal_seat0_takes_everything(state, None)
    assert state.results[-1].scores == (900, 0, 0, 0)


# --- 2.8 premium and moshla -------------------------------------------------------------------


def pulka_one(pulka_bonus, bid_of):
    """Pulka I of a short game (8 deals, dealers 1 2 3 0 1 2 3 0), seat 0 taking every trick."""
    state = ClassicState({"game_type": "short", "first_dealer": 1, "pulka_bonus": pulka_bonus, "khishti": 200})
    for _ in range(8):
        deal_seat0_takes_everything(state, bid_of)
    assert state.deal_index == 8 and len(state.pulka_results) == 1
    return state


def closers_and_failers(seat, n, deal):
    # seat 0 bids all and takes all; seat 1 passes every time; seat 2 misses once
    # (a khishti in the first deal, best score 50); seat 3 bids 1 every time (best -200).
    if seat == 0:
        return n
    if seat == 2:
        return 1 if deal == 0 else 0
    return 0 if seat == 1 else 1


@pytest.mark.parametrize(
    "mode, bonus",
    [("premium_moshla", [800, 50, -50, 0]), ("premium", [800, 50, 0, 0]), ("none", [0, 0, 0, 0])],
)
def test_pulka_bonus_settings_premium_and_moshla(mode, bonus):
    state = pulka_one(mode, closers_and_failers)
    result = state.pulka_results[0]
    assert result.closed == (True, True, False, False)
    assert list(result.bonus) == bonus
    assert state.scores()["pulka_bonus"] == [bonus]
    deal_totals = [sum(r.scores[s] for r in state.results) for s in range(4)]
    assert deal_totals == [3600, 400, 150, -1600]
    assert state.totals == [t + b for t, b in zip(deal_totals, bonus)]


def test_premium_adds_the_closers_best_deal_score_of_the_pulka_once_more():
    state = pulka_one("premium", closers_and_failers)
    assert state.pulka_results[0].premium == (800, 50, 0, 0)


def test_moshla_strikes_off_the_best_deal_score_of_each_player_who_did_not_close():
    state = pulka_one("premium_moshla", closers_and_failers)
    assert state.pulka_results[0].moshla == (0, 0, -50, 0)


def test_moshla_does_nothing_when_the_best_deal_score_is_not_positive():
    state = pulka_one("premium_moshla", closers_and_failers)
    assert max(r.scores[3] for r in state.results) == -200
    assert state.pulka_results[0].moshla[3] == 0


def test_moshla_applies_once_per_pulka_however_many_players_closed():
    state = pulka_one("premium_moshla", closers_and_failers)
    assert sum(state.pulka_results[0].closed) == 2
    assert state.pulka_results[0].moshla[2] == -50  # once, not once per closer


def test_no_moshla_when_nobody_closed_the_pulka():
    def nobody_closes(seat, n, deal):
        return closers_and_failers(seat, n, deal) if deal else {0: 0, 1: 1, 2: 1, 3: 1}[seat]

    state = pulka_one("premium_moshla", nobody_closes)
    result = state.pulka_results[0]
    assert result.closed == (False, False, False, False)
    assert result.moshla == (0, 0, 0, 0) and result.premium == (0, 0, 0, 0)


def test_golden_and_misere_pulkas_have_no_premium_or_moshla():
    state = ClassicState({"game_type": "full"})
    play_random(state, random.Random(7))
    bonus = state.scores()["pulka_bonus"]
    assert len(bonus) == 8
    assert bonus[4] == [0, 0, 0, 0] and bonus[7] == [0, 0, 0, 0]
    kinds = [p.kind for p in state.pulka_results]
    assert kinds == ["normal"] * 4 + ["golden", "no_trump", "dark", "misere"]


def test_score_sheet_shows_every_deal_each_pulkas_premium_and_moshla_and_running_totals():
    state = pulka_one("premium_moshla", closers_and_failers)
    sheet = state.score_sheet()
    assert [row["cards"] for row in sheet["deals"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert sheet["deals"][0]["bids"] == [1, 0, 1, 1] and sheet["deals"][0]["khishti"] == [False, False, True, True]
    assert sheet["deals"][-1]["running_totals"] == [3600, 400, 150, -1600]
    pulka = sheet["pulkas"][0]
    assert pulka["premium"] == [800, 50, 0, 0] and pulka["moshla"] == [0, 0, -50, 0]
    assert pulka["running_totals"] == state.totals == sheet["totals"]


# --- 2.9 end of the game ----------------------------------------------------------------------


def test_after_the_last_deal_the_highest_total_wins_the_table():
    state = ClassicState({"game_type": "nines"})
    play_random(state, random.Random(3))
    assert state.phase is Phase.GAME_OVER and state.to_act is None
    best = max(state.totals)
    assert state.winners() == [s for s in range(4) if state.totals[s] == best]
    assert state.scores()["finished"] is True and state.view(None)["ranking"] == state.ranking()


def test_equal_totals_share_the_place():
    assert ranks_by_total([100, 300, 300, -50]) == [3, 1, 1, 4]
    assert ranks_by_total([0, 0, 0, 0]) == [1, 1, 1, 1]


def test_no_winner_before_the_game_is_over():
    state = ClassicState({"game_type": "short"})
    play_random(state, random.Random(1), until_deal=5)
    assert state.winners() == [] and state.scores()["finished"] is False


def test_nothing_can_be_played_after_the_last_deal():
    state = ClassicState({"game_type": "short"})
    play_random(state, random.Random(2))
    from games.engine import IllegalAction

    with pytest.raises(IllegalAction) as info:
        state.apply(Play(0, "AS"))
    assert info.value.code == "game_over"
    with pytest.raises(IllegalAction) as info:
        state.deal([["AS"]] * 4, "KS")
    assert info.value.code == "game_over"
