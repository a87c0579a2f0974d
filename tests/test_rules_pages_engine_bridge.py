"""The engine bridge of the rules pages: every example is played out in a real game of the
engine, so a page that states a wrong outcome is caught, and a position that cannot happen
is refused rather than guessed."""

import json

import pytest

from games.engine import Phase, state_from_record, to_record
from rules_pages import content
from rules_pages.engine_bridge import (
    PositionError,
    outcome_from_engine,
    position,
    try_board_legal_cards,
    try_board_winner,
)
from rules_pages.examples import parse_example, stated_outcome

POSITION_KINDS = ("trick", "legal", "try")
EXAMPLES_WITH_A_POSITION = [
    pytest.param(example, id=f"{slug}-{example.id}")
    for slug in content.PAGE_SLUGS
    for example in content.load_page("en", slug).examples
    if example.kind in POSITION_KINDS
]


def example(**data):
    return parse_example(json.dumps({"id": "x", **data}))


@pytest.mark.parametrize("page_example", EXAMPLES_WITH_A_POSITION)
def test_each_example_position_is_a_real_game_that_replays_from_its_record(page_example):
    state, reader = position(page_example)
    replayed = state_from_record(json.loads(json.dumps(to_record(state))))
    data = page_example.data
    assert replayed.phase is Phase.PLAY and not replayed.trick
    assert replayed.view(None) == state.view(None)
    if "leader" in data:
        assert replayed.to_act == data["leader"]
    if reader is not None:
        assert sorted(replayed.hand(reader)) == sorted(data["hand"])
        if data["variant"] == "japanese":
            assert sorted(replayed.face_up(reader)) == sorted(data.get("face_up", []))
            first_done = replayed.view(reader)["first_card_played"][reader]
            assert first_done is not data.get("first_play", False)


def test_a_japanese_position_later_in_a_deal_is_reached_by_playing_the_earlier_tricks():
    board = content.find_example("en", "japanese", "try-jp-trump-the-joker")
    state, reader = position(board)
    earlier = 18 - len(board.data["hand"]) - 2 * len(board.data["face_up"])
    plays = [action for action in to_record(state)["deals"][0]["actions"] if "play" in action]
    assert [action["seat"] for action in plays].count(reader) == earlier == 7
    assert sum(state.taken) == earlier and state.to_act == board.data["leader"]


def test_a_wrong_trick_winner_on_a_page_is_caught():
    wrong = example(kind="trick", variant="classic", trump="H", leader=0, winner=1,
                    plays=[{"card": "KS"}, {"card": "AH"}, {"card": "X1", "joker": "take"}, {"card": "9S"}])
    assert outcome_from_engine(wrong) == {"winner": 2} != stated_outcome(wrong)


def test_a_wrong_list_of_legal_cards_on_a_page_is_caught():
    wrong = example(kind="legal", variant="classic", trump="S", hand=["KS", "7S", "JH", "9C"],
                    trick=[{"card": "QD"}, {"card": "9S"}], legal=["KS"])
    assert outcome_from_engine(wrong) == {"legal": ["7S", "KS"]}


def test_a_wrong_japanese_legal_list_later_in_a_deal_is_caught():
    wrong = example(kind="legal", variant="japanese", trump="H", hand=["7S", "9D", "QC"], face_up=["AS", "8D"],
                    trick=[{"card": "JS"}], legal=["7S"])  # forgets that a face-up card counts
    assert outcome_from_engine(wrong) == {"legal": ["7S", "AS"]}


@pytest.mark.parametrize("data,engine", [
    ({"kind": "bid", "deal_size": 4, "bids": [1, 1, 1], "forbidden": None}, {"forbidden": 1}),
    ({"kind": "score", "deal_size": 5, "bid": 2, "tricks": 2, "score": 100}, {"score": 150}),
    ({"kind": "score", "deal_size": 7, "bid": 1, "tricks": 0, "khishti": "per_card", "score": -100}, {"score": -700}),
    ({"kind": "score", "pulka": "misere", "tricks": 9, "score": -900}, {"score": 900}),
    ({"kind": "japanese_deal", "tricks": [12, 6], "points": [12, 0]}, {"points": [6, 0]}),
])
def test_a_wrong_bid_or_score_on_a_page_is_caught(data, engine):
    wrong = example(**data)
    assert outcome_from_engine(wrong) == engine != stated_outcome(wrong)


def test_a_pulka_is_scored_by_a_real_game_with_the_tables_setting():
    grid = {"deal_sizes": [9, 9, 9, 9], "khishti": 200,
            "bids": [[2, 3, 1, 2], [3, 2, 4, 2], [1, 0, 2, 1], [2, 3, 1, 3]],
            "tricks": [[2, 3, 1, 2], [3, 2, 3, 2], [1, 0, 2, 0], [3, 4, 3, 5]],
            "deal_scores": [[150, 200, 100, 150], [200, 150, 30, 150], [100, 50, 150, -200], [30, 40, 30, 50]]}
    by_setting = {
        setting: outcome_from_engine(example(kind="pulka", setting=setting, bonus=[0, 0, 0, 0], **grid))["bonus"]
        for setting in ("premium_moshla", "premium", "none")
    }
    assert by_setting == {"premium_moshla": [200, -200, -150, -50], "premium": [200, 0, 0, 0], "none": [0, 0, 0, 0]}


def test_a_match_listed_past_its_winner_is_caught():
    wrong = example(kind="match", target=11, deals=[[15, 3], [14, 4]], points=[[12, 0], [10, 0]],
                    totals=[22, 0], winner=0)
    assert outcome_from_engine(wrong) == {"points": [[12, 0]], "totals": [12, 0], "winner": 0}


def test_a_position_that_cannot_happen_is_refused():
    single_column = example(kind="legal", variant="japanese", trump="H", hand=["7S", "9D", "QC"], face_up=["AS"],
                            trick=[{"card": "JS"}], legal=["7S", "AS"])
    with pytest.raises(PositionError, match="cannot hold"):
        outcome_from_engine(single_column)


def test_the_try_board_answers_from_the_engine_not_from_the_page():
    board = content.find_example("en", "classic", "try-joker-high")
    page_says_otherwise = example(**{**board.machine_data(), "id": "x", "why": "w",
                                     "legal": ["QH", "9H", "7H"], "winners": {"QH": 0, "9H": 0, "7H": 0}})
    assert try_board_legal_cards(page_says_otherwise) == ["QH", "X2"]
    assert try_board_winner(page_says_otherwise, "QH") == 3
