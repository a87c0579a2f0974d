"""The score sheet, the summary after a deal and the end standings, shaped from the engine's view
(games/services/score_sheet.py): every figure is the engine's, put where a paper sheet has it."""

import random
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import engine
from games.engine.bot import choose_action
from games.engine.randomplay import play_random, random_deal
from games.services.score_sheet import deal_summary, final_standings, score_sheet

NAMES4 = ["tamar", "levan", "nino", "giorgi"]


def rendered(sheet):
    with translation.override("en"):
        return render_to_string("games/_score_sheet.html", {"sheet": sheet})


def classic_played(seed, game_type="short", until_pulkas=None, bots=False):
    """A classic game from the engine alone: random moves (or the bot's) to the end, or until
    `until_pulkas` pulkas are scored."""
    rng = random.Random(seed)
    state = engine.new_state("classic", {"game_type": game_type, "first_dealer": seed % 4})
    while not state.is_over() and (until_pulkas is None or len(state.pulka_results) < until_pulkas):
        if state.phase is engine.Phase.DEAL:
            random_deal(state, rng)
        elif bots:
            state.apply(choose_action(state, state.to_act, rng=rng, effort=0.05))
        else:
            state.apply(rng.choice(state.legal_actions(state.to_act)))
    return state


@pytest.fixture(scope="module")
def premium_and_moshla_pulka():
    """A first pulka (nines: four deals) that somebody closed and others did not: the bots,
    who bid well, close one within a few seeds."""
    for seed in range(200):
        state = classic_played(seed, game_type="nines", until_pulkas=1, bots=True)
        pulka = state.score_sheet()["pulkas"][0]
        if any(pulka["premium"]) and any(pulka["moshla"]):
            return state
    pytest.fail("no seed gave a pulka with both a premium and a moshla")


def test_each_classic_deal_row_carries_the_engines_dealer_trump_bids_tricks_scores_and_khishti():
    state = classic_played(3)
    view = state.view(0)
    sheet = score_sheet(view, NAMES4, me=0)
    rows = [row for pulka in sheet["pulkas"] for row in pulka["deals"]]
    engine_deals = view["score_sheet"]["deals"]
    assert len(rows) == len(engine_deals) == view["deal_count"]
    for row, deal in zip(rows, engine_deals):
        assert row["number"] == deal["deal"] + 1 and row["trump"] == deal["trump"] and row["cards"] == deal["cards"]
        assert [c["dealer"] for c in row["cells"]] == [s == deal["dealer"] for s in range(4)]
        assert [c["bid"] for c in row["cells"]] == deal["bids"]
        assert [c["tricks"] for c in row["cells"]] == deal["tricks"]
        assert [c["score"] for c in row["cells"]] == deal["scores"]
        assert [c["khishti"] for c in row["cells"]] == deal["khishti"]
    assert sheet["players"][0] == {"index": 0, "name": "tamar", "me": True}
    assert sheet["current_deal"] is None  # the game is over: no deal in play


def test_deals_are_grouped_by_pulka_with_a_subtotal_and_the_running_total_under_each():
    state = classic_played(4)
    view = state.view(None)
    sheet = score_sheet(view, NAMES4)
    assert [p["number"] for p in sheet["pulkas"]] == [1, 2]  # "short": two pulkas
    running = [0, 0, 0, 0]
    for pulka, result in zip(sheet["pulkas"], view["score_sheet"]["pulkas"]):
        for s in range(4):
            deal_sum = sum(row["cells"][s]["score"] for row in pulka["deals"])
            cell = pulka["result"]["cells"][s]
            assert cell["subtotal"] == deal_sum + result["premium"][s] + result["moshla"][s]
            running[s] += cell["subtotal"]
            assert cell["running"] == running[s] == result["running_totals"][s]
    assert running == view["totals"] == sheet["totals"]


def test_a_premium_stars_the_best_deal_and_a_moshla_strikes_out_the_best_deal(premium_and_moshla_pulka):
    view = premium_and_moshla_pulka.view(0)
    sheet = score_sheet(view, NAMES4)
    pulka = sheet["pulkas"][0]
    result = view["score_sheet"]["pulkas"][0]
    for s in range(4):
        cells = [row["cells"][s] for row in pulka["deals"] if not row["current"]]
        starred = [c["score"] for c in cells if c["premium"]]
        struck = [c["score"] for c in cells if c["struck"]]
        assert starred == ([result["premium"][s]] if result["premium"][s] else [])
        assert struck == ([-result["moshla"][s]] if result["moshla"][s] else [])
        if starred or struck:
            assert (starred or struck)[0] == max(c["score"] for c in cells)  # the best deal of the pulka
    html = rendered(sheet)
    assert html.count("<s title=") == sum(1 for m in result["moshla"] if m)
    assert html.count('class="mark" title="counted twice: premium"') == sum(1 for p in result["premium"] if p)


def test_the_deal_in_play_is_the_last_row_highlighted_with_the_bids_made_so_far():
    rng = random.Random(8)
    state = engine.new_state("classic", {"game_type": "short", "first_dealer": 1})
    play_random(state, rng, until_deal=2)  # deals 1 and 2 scored
    random_deal(state, rng)  # deal 3 dealt
    while state.phase is not engine.Phase.BID:
        state.apply(rng.choice(state.legal_actions(state.to_act)))
    state.apply(rng.choice(state.legal_actions(state.to_act)))  # one bid made
    view = state.view(0)
    sheet = score_sheet(view, NAMES4)
    rows = sheet["pulkas"][-1]["deals"]
    assert [row["current"] for row in rows] == [False, False, True]
    current = rows[-1]
    assert current["number"] == sheet["current_deal"] == view["deal_index"] + 1 == 3
    assert [c["bid"] for c in current["cells"]] == view["bids"]
    assert sum(c["bid"] is not None for c in current["cells"]) == 1
    assert all(c["score"] is None for c in current["cells"])
    html = rendered(sheet)
    assert len(re.findall(r'<tr class="deal-row current" aria-current="true" data-deal="3">', html)) == 1


def test_the_japanese_sheet_names_the_declarer_and_trump_and_runs_the_total_against_the_target():
    rng = random.Random(2)
    state = engine.new_state("japanese", {"target": 11})
    play_random(state, rng)
    view = state.view(1)
    sheet = score_sheet(view, ["ana", "beka"], me=1)
    assert sheet["target"] == 11 and sheet["totals"] == view["totals"]
    assert max(view["totals"]) >= 11
    for row, deal in zip(sheet["deals"], view["score_sheet"]["deals"], strict=True):
        assert row["declarer"] == deal["declarer"] and row["trump"] == deal["trump"]
        assert [c["tricks"] for c in row["cells"]] == deal["tricks"]
        assert [c["score"] for c in row["cells"]] == deal["scores"]
        assert [c["running"] for c in row["cells"]] == deal["running_totals"]
    html = rendered(sheet)
    assert "of 11" in html and "The first to reach 11 points wins." in html


def test_the_summary_after_a_deal_shows_bids_against_tricks_and_stays_until_the_next_deals_first_card():
    rng = random.Random(5)
    state = engine.new_state("classic", {"game_type": "short", "first_dealer": 0})
    play_random(state, rng, until_deal=1)
    random_deal(state, rng)
    view = state.view(0)
    summary = deal_summary(view, NAMES4)
    last = view["score_sheet"]["deals"][-1]
    assert summary["number"] == 1 and summary["fresh"]
    assert [p["bid"] for p in summary["players"]] == last["bids"]
    assert [p["tricks"] for p in summary["players"]] == last["tricks"]
    assert [p["score"] for p in summary["players"]] == last["scores"]
    assert [p["khishti"] for p in summary["players"]] == last["khishti"]
    for _ in range(4):  # the next deal's bids: still before its first card
        state.apply(state.legal_actions(state.to_act)[0])
        assert deal_summary(state.view(0), NAMES4)["fresh"]
    assert state.view(0)["phase"] == "play"
    state.apply(state.legal_actions(state.to_act)[0])  # the first card
    assert not deal_summary(state.view(0), NAMES4)["fresh"]


def test_the_summary_of_a_pulkas_last_deal_carries_its_premium_and_moshla(premium_and_moshla_pulka):
    view = premium_and_moshla_pulka.view(0)
    summary = deal_summary(view, NAMES4)
    result = view["score_sheet"]["pulkas"][0]
    assert summary["pulka"] == {"number": 1}
    assert [p["premium"] for p in summary["players"]] == result["premium"]
    assert [p["moshla"] for p in summary["players"]] == result["moshla"]
    assert [p["running"] for p in summary["players"]] == result["running_totals"]


def test_no_summary_before_the_first_deal_is_scored():
    state = engine.new_state("japanese", {"target": 11})
    random_deal(state, random.Random(1))
    assert deal_summary(state.view(0), ["ana", "beka"]) is None


def test_final_standings_follow_the_engines_ranking_best_first():
    state = classic_played(11)
    view = state.view(0)
    seats = [{"index": s} for s in range(4)]
    standings = final_standings(view, seats)
    assert [row["place"] for row in standings] == sorted(view["ranking"])
    for row in standings:
        assert row["place"] == view["ranking"][row["index"]] and row["total"] == view["totals"][row["index"]]
        assert row["winner"] == (row["index"] in view["winner"])
