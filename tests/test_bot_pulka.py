"""The master plays for the pulka's end as well as for the deal (rules.md 2.8): its playouts are
valued by the deal's score and by the premium or moshla the deal's end leads to
(bot_classic.pulka_gain), from the pulka's standing the public score sheet shows. The club
values the deal's score alone."""

import random

import pytest

from games.engine import ClassicState, Phase, deal_from_deck, shuffled_deck
from games.engine.advice import situation_of
from games.engine.bot import MASTER_SEARCH, choose_action, observe
from games.engine.bot_classic import CLUB_SEARCH, PulkaStanding, pulka_gain
from games.engine.scenario import advance_to_deal


def _bidding_in_deal(deal_index: int, options=None, seed: int = 3):
    state = ClassicState({"game_type": "standard", "first_dealer": 0, **(options or {})})
    advance_to_deal(state, deal_index, seed)
    deal_from_deck(state, shuffled_deck(random.Random(seed)))
    while state.phase is Phase.TRUMP:
        state.apply(state.legal_actions(state.to_act)[0])
    return state


def test_the_standing_is_read_from_the_score_sheet_the_seat_sees():
    state = _bidding_in_deal(10)  # the third deal of the first pulka of nines (deals 8 to 11)
    earlier = state.results[8:10]
    standing = observe(state, state.to_act).pulka
    assert standing.mode == "premium_moshla" and standing.deals_after == 1
    assert standing.streak == tuple(all(r.bids[s] == r.tricks[s] for r in earlier) for s in range(4))
    assert standing.best == tuple(max(r.scores[s] for r in earlier) for s in range(4))
    first = observe(_bidding_in_deal(8), 0).pulka
    assert first.deals_after == 3 and first.streak == (True,) * 4 and first.best == (None,) * 4


def test_no_standing_where_the_pulkas_end_brings_nothing():
    assert observe(_bidding_in_deal(10, {"pulka_bonus": "none"}), 0).pulka is None


@pytest.mark.parametrize("mode", ["premium_moshla", "premium"])
def test_in_the_pulkas_last_deal_the_gain_is_the_premium_or_the_moshla(mode):
    standing = PulkaStanding(mode, 0, (True, True, False, True), (300, 150, 100, 50))
    bids = [2, 1, 0, 3]
    closes = pulka_gain(standing, 0, bids, [2, 0, 4, 3], 150, 0.65)
    assert closes == 300  # the best score of the pulka, the earlier 300, a second time
    breaks = pulka_gain(standing, 0, bids, [3, 0, 4, 3], 30, 0.65)
    assert breaks == (-300 if mode == "premium_moshla" else 0)  # seat 3 closed it, seat 0 did not
    nobody = pulka_gain(standing, 0, bids, [3, 0, 4, 2], 30, 0.65)
    assert nobody == 0
    better = pulka_gain(standing, 1, bids, [2, 1, 4, 2], 100, 0.65)
    assert better == 150  # seat 1 alone closed it


def test_before_the_last_deal_the_gain_is_what_the_streaks_are_worth():
    standing = PulkaStanding("premium_moshla", 2, (True, True, False, False), (200, 100, 50, 50))
    go_on = 0.6**2
    both_made = pulka_gain(standing, 0, [1, 1, 0, 0], [1, 1, 2, 2], 100, 0.6)
    assert both_made == pytest.approx(go_on * 200 - (1 - go_on) * go_on * 200)
    mine_lost = pulka_gain(standing, 0, [1, 1, 0, 0], [0, 1, 2, 2], -200, 0.6)
    assert mine_lost == pytest.approx(-go_on * 200)


def test_only_the_master_plays_for_the_pulka():
    assert MASTER_SEARCH.pulka_aware and not CLUB_SEARCH.pulka_aware


def _last_deal_of_a_pulka_with_a_streak():
    """Bids of the last deal of the first pulka of nines (deal 11) after three deals of club play
    in which some seat made every bid and some seat did not."""
    for seed in range(40):
        state = ClassicState({"game_type": "standard", "first_dealer": 0})
        advance_to_deal(state, 8, seed)
        rng = random.Random(seed)
        while state.deal_index < 11 or state.phase is not Phase.BID:
            if state.phase is Phase.DEAL:
                deal_from_deck(state, shuffled_deck(rng))
                continue
            state.apply(choose_action(state, state.to_act, rng, effort=0.05))
        streak = [all(r.bids[s] == r.tricks[s] for r in state.results[8:11]) for s in range(4)]
        if any(streak) and not all(streak):
            return state, streak
    raise AssertionError("no such deal in 40 seeds")


def test_a_hint_at_the_last_deals_bids_names_the_premium_or_the_moshla():
    state, streak = _last_deal_of_a_pulka_with_a_streak()
    for seat in range(4):
        view = state.view(seat)
        if view["dealer"] == seat:
            continue  # the dealer is told of the forbidden bid first
        situation = situation_of(view)
        best = max(r.scores[seat] for r in state.results[8:11])
        if streak[seat]:
            assert situation.code == "pulka_close"
        elif best > 0:
            assert situation.code == "pulka_threat" and situation.params == {"best": best}
        else:
            assert situation is None
