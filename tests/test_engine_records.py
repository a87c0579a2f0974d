"""Game records (record-format.md): export, replay verdicts, malformed records, the replay command."""

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import (
    Bid,
    ChooseTrump,
    ClassicState,
    JapaneseState,
    Phase,
    Play,
    play_random,
    replay_record,
    replay_text,
    state_from_record,
    to_record,
)
from games.engine.scenario import advance_to_deal

REPO = Path(__file__).resolve().parent.parent
CONFORMANCE = REPO / "tests" / "data" / "conformance"
VERDICT_KEYS = ["ok", "tricks", "deal_scores", "pulka_bonus", "totals", "finished", "winner"]


def finished_classic(game_type="short", seed=1, **options):
    state = ClassicState({"game_type": game_type, "first_dealer": seed % 4, **options})
    play_random(state, random.Random(seed))
    return state


def refusal(doc):
    verdict = replay_record(doc)
    assert verdict["ok"] is False and list(verdict) == ["ok", "deal", "action", "error"], verdict
    return verdict["deal"], verdict["action"], verdict["error"].split(":")[0]


# --- export and replay ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"game_type": "standard", "khishti": 100, "pulka_bonus": "premium"},
        {"game_type": "nines", "khishti": "per_card", "pulka_bonus": "none"},
        {"game_type": "short", "khishti": 500, "pulka_bonus": "premium_moshla"},
        {"game_type": "full", "khishti": 200, "pulka_bonus": "premium_moshla"},
    ],
)
def test_exported_classic_game_replays_to_the_same_scores(options):
    state = ClassicState({**options, "first_dealer": 2})
    play_random(state, random.Random(len(str(options))))
    doc = to_record(state, ["ana", "giorgi", "levan", "nika"])
    assert doc["format"] == "joker-record/1" and doc["variant"] == "classic"
    assert doc["options"] == options and doc["players"] == ["ana", "giorgi", "levan", "nika"]
    assert doc["deals"][0]["dealer"] == 2
    verdict = replay_record(json.loads(json.dumps(doc)))
    assert list(verdict) == VERDICT_KEYS
    assert verdict == {"ok": True, **state.scores()}
    assert verdict["finished"] is True and verdict["winner"]


def test_exported_japanese_match_replays_to_the_same_scores():
    state = JapaneseState({"target": 15, "first_declarer": 1})
    play_random(state, random.Random(8))
    doc = to_record(state, ["giorgi", "nino"])
    assert doc["options"] == {"target": 15} and doc["deals"][0]["declarer"] == 1
    verdict = replay_record(doc)
    assert verdict == {"ok": True, **state.scores()} and verdict["winner"] == state.winners()
    assert verdict["pulka_bonus"] == []


def test_a_game_in_progress_exports_its_unfinished_deal_and_replays_to_the_same_state():
    state = ClassicState({"game_type": "standard"})
    play_random(state, random.Random(2), until_deal=9)
    play_random(state, random.Random(3), max_moves=14)
    assert state.phase is Phase.PLAY
    doc = to_record(state)
    assert len(doc["deals"]) == 10 and len(doc["deals"][-1]["actions"]) == 13
    again = state_from_record(doc)
    assert to_record(again) == doc
    assert all(again.view(s) == state.view(s) for s in (0, 1, 2, 3, None))
    verdict = replay_record(doc)
    assert verdict["finished"] is False and verdict["winner"] == [] and len(verdict["tricks"]) == 9


def test_a_game_waiting_for_its_next_deal_exports_only_finished_deals():
    state = ClassicState()
    play_random(state, random.Random(4), until_deal=3)
    doc = to_record(state)
    assert len(doc["deals"]) == 3
    assert replay_record(doc)["tricks"] == [list(r.tricks) for r in state.results]


def test_a_classic_record_lists_the_turned_card_only_in_deals_of_one_to_eight_cards():
    doc = to_record(finished_classic("short"))
    sizes = [len(d["hands"][0]) for d in doc["deals"]]
    assert sizes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]
    assert all(("trump_card" in d) == (len(d["hands"][0]) < 9) for d in doc["deals"])


def test_a_nine_card_record_lists_the_trump_choice_first_and_the_dark_pulka_lists_bids_first():
    doc = to_record(finished_classic("full", seed=5))
    assert list(doc["deals"][8]["actions"][0]) == ["seat", "trump"]
    dark = doc["deals"][32]["actions"]
    assert [list(a)[1] for a in dark[:5]] == ["bid", "bid", "bid", "bid", "trump"]
    no_trump = doc["deals"][28]["actions"]
    assert all("trump" not in a for a in no_trump)
    golden = doc["deals"][24]["actions"]
    assert list(golden[0])[1] == "trump" and all("bid" not in a for a in golden)


def test_verdict_of_an_empty_game():
    doc = {"format": "joker-record/1", "variant": "classic", "players": ["a", "b", "c", "d"], "deals": []}
    assert replay_record(doc) == {
        "ok": True, "tricks": [], "deal_scores": [], "pulka_bonus": [], "totals": [0, 0, 0, 0], "finished": False, "winner": []
    }


def test_missing_options_take_the_defaults():
    state = ClassicState()
    play_random(state, random.Random(9), until_deal=2)
    doc = to_record(state)
    del doc["options"]
    assert replay_record(doc)["deal_scores"] == [list(r.scores) for r in state.results]


# --- refused records ------------------------------------------------------------------------


def test_not_json_or_not_a_record_is_refused_at_document_level():
    assert replay_text("{nope") == {"ok": False, "deal": None, "action": None, "error": replay_text("{nope")["error"]}
    good = to_record(finished_classic("short"))
    for change in (
        lambda d: d.update(format="joker-record/2"),
        lambda d: d.update(variant="poker"),
        lambda d: d.update(players=["a", "b", "c"]),
        lambda d: d.update(options={"game_type": "long"}),
        lambda d: d.update(options={"khishti": 300}),
        lambda d: d.update(options={"target": 21}),
        lambda d: d.update(deals={}),
        lambda d: d.update(end={"reason": "resign", "seat": 1}),  # classic games end early only by abort
        lambda d: d.update(end={"reason": "later"}),
    ):
        doc = copy.deepcopy(good)
        change(doc)
        assert refusal(doc)[:2] == (None, None)
    assert refusal([])[:2] == (None, None)


def test_malformed_deals_are_refused_with_action_null():
    good = to_record(finished_classic("short", seed=3))

    def broken(i, change):
        doc = copy.deepcopy(good)
        change(doc["deals"][i])
        return refusal(doc)

    assert broken(2, lambda d: d["hands"][1].pop())[:2] == (2, None)
    assert broken(2, lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0]))[:2] == (2, None)
    assert broken(4, lambda d: d["hands"][3].__setitem__(0, "6C"))[:2] == (4, None)
    assert broken(4, lambda d: d.__setitem__("trump_card", d["hands"][0][1]))[:2] == (4, None)
    assert broken(5, lambda d: d.pop("trump_card")) == (5, None, "trump_card_missing")
    assert broken(9, lambda d: d.__setitem__("trump_card", "AS")) == (9, None, "trump_card_not_allowed")
    assert broken(3, lambda d: d.__setitem__("dealer", (d["dealer"] + 1) % 4)) == (3, None, "wrong_dealer")
    assert broken(0, lambda d: d.__setitem__("dealer", 4)) == (0, None, "wrong_dealer")
    assert broken(1, lambda d: d.__setitem__("comment", "x")) == (1, None, "malformed_deal")
    assert broken(1, lambda d: d.pop("actions")) == (1, None, "malformed_deal")


def test_japanese_deals_must_be_the_deck_and_alternate_declarers():
    state = JapaneseState({"target": 31})
    play_random(state, random.Random(12), until_deal=3)
    good = to_record(state)
    doc = copy.deepcopy(good)
    doc["deals"][1]["declarer"] = doc["deals"][0]["declarer"]
    assert refusal(doc) == (1, None, "wrong_declarer")
    doc = copy.deepcopy(good)
    doc["deals"][2]["columns"][0][0] = [doc["deals"][2]["columns"][0][0][0], doc["deals"][2]["hands"][1][0]]
    assert refusal(doc) == (2, None, "duplicate_card")
    doc = copy.deepcopy(good)
    doc["deals"][0]["columns"][1] = doc["deals"][0]["columns"][1][:4]
    assert refusal(doc) == (0, None, "wrong_column_count")


def test_first_illegal_action_is_pointed_at_and_refused():
    state = ClassicState({"game_type": "short", "first_dealer": 1})
    advance_to_deal(state, 2)
    assert state.dealer == 3
    state.deal([["AS", "KH", "7C"], ["8S", "9H", "JC"], ["X1", "QS", "6H"], ["TS", "8C", "9D"]], "TD")
    doc = to_record(state)
    doc["deals"][2]["actions"] = [
        {"seat": 0, "bid": 1}, {"seat": 1, "bid": 0}, {"seat": 2, "bid": 1}, {"seat": 3, "bid": 0},
        {"seat": 0, "play": "AS"}, {"seat": 1, "play": "9H"},
    ]
    assert refusal(doc) == (2, 5, "must_follow_suit")
    doc["deals"][2]["actions"][3] = {"seat": 3, "bid": 1}
    assert refusal(doc) == (2, 3, "forbidden_bid")
    doc["deals"][2]["actions"][3] = {"seat": 3, "bid": 4}
    assert refusal(doc) == (2, 3, "bid_out_of_range")
    doc["deals"][2]["actions"][3] = {"seat": 2, "bid": 0}
    assert refusal(doc) == (2, 3, "not_your_turn")
    doc["deals"][2]["actions"][3] = {"seat": 3, "play": "TS"}
    assert refusal(doc) == (2, 3, "wrong_phase")
    doc["deals"][2]["actions"][3] = {"seat": 3, "bid": 0, "play": "TS"}
    assert refusal(doc) == (2, 3, "invalid_action")
    doc["deals"][2]["actions"][3] = {"seat": 3, "bid": "0"}
    assert refusal(doc)[:2] == (2, 3)
    doc["deals"][2]["actions"][3] = {"seat": 3, "bid": 0}
    doc["deals"][2]["actions"][4] = {"seat": 0, "play": "AS", "joker": "take"}
    assert refusal(doc) == (2, 4, "joker_fields_on_card")
    doc["deals"][2]["actions"][4] = {"seat": 0, "play": "QS"}
    assert refusal(doc) == (2, 4, "card_not_available")
    doc["deals"][2]["actions"][4] = "AS"
    assert refusal(doc) == (2, 4, "invalid_action")


def test_action_order_trump_before_bids_and_dark_pulka_bids_before_trump():
    state = ClassicState({"game_type": "full"})
    play_random(state, random.Random(21), until_deal=33)
    doc = to_record(state)
    nine = doc["deals"][8]["actions"]  # trump, four bids, plays
    nine[0], nine[1] = nine[1], nine[0]
    assert refusal(doc) == (8, 0, "wrong_phase")
    doc = to_record(state)
    dark = doc["deals"][32]["actions"]  # four bids, then the trump choice
    dark.insert(0, dark.pop(4))
    assert refusal(doc) == (32, 0, "wrong_phase")
    doc = to_record(state)
    doc["deals"][24]["actions"].insert(1, {"seat": doc["deals"][24]["actions"][0]["seat"], "bid": 1})
    assert refusal(doc) == (24, 1, "wrong_phase")  # golden: no bidding
    doc = to_record(state)
    doc["deals"][28]["actions"].insert(0, {"seat": doc["deals"][28]["actions"][0]["seat"], "trump": "H"})
    assert refusal(doc) == (28, 0, "wrong_phase")  # no-trump pulka: nobody names trump


def test_only_the_last_deal_may_be_unfinished():
    doc = to_record(finished_classic("short", seed=4))
    del doc["deals"][6]["actions"][-3:]
    assert refusal(doc) == (6, len(doc["deals"][6]["actions"]), "deal_incomplete")


def test_actions_after_the_end_of_a_deal_are_refused():
    doc = to_record(finished_classic("short", seed=5))
    doc["deals"][3]["actions"].append({"seat": 0, "bid": 1})
    assert refusal(doc) == (3, len(doc["deals"][3]["actions"]) - 1, "wrong_phase")


def test_deals_after_the_end_of_the_game_are_refused():
    doc = to_record(finished_classic("short", seed=6))
    doc["deals"].append(copy.deepcopy(doc["deals"][0]))
    assert refusal(doc) == (12, None, "deal_after_game_over")
    japanese = JapaneseState({"target": 11})
    play_random(japanese, random.Random(1))
    doc = to_record(japanese)
    doc["deals"].append(copy.deepcopy(doc["deals"][0]))
    assert refusal(doc) == (len(doc["deals"]) - 1, None, "deal_after_game_over")


# --- early ends -------------------------------------------------------------------------------


def test_an_aborted_classic_game_is_finished_and_the_highest_total_is_listed():
    state = ClassicState({"game_type": "standard"})
    play_random(state, random.Random(13), until_deal=5)
    play_random(state, random.Random(14), max_moves=7)
    state.end_game("abort")
    doc = to_record(state)
    assert doc["end"] == {"reason": "abort"} and len(doc["deals"]) == 6
    verdict = replay_record(doc)
    best = max(verdict["totals"])
    assert verdict["finished"] is True and verdict["winner"] == [s for s in range(4) if verdict["totals"][s] == best]
    assert verdict == {"ok": True, **state.scores()}


def test_japanese_resign_forfeit_and_abort_in_a_record():
    state = JapaneseState()
    play_random(state, random.Random(15), until_deal=2)
    play_random(state, random.Random(16), max_moves=9)
    doc = to_record(state)
    for end, winner in (({"reason": "resign", "seat": 0}, [1]), ({"reason": "forfeit", "seat": 1}, [0]), ({"reason": "abort"}, [])):
        doc["end"] = end
        verdict = replay_record(doc)
        assert verdict["ok"] and verdict["finished"] is True and verdict["winner"] == winner
        assert len(verdict["tricks"]) == 2


def test_an_early_end_needs_a_seat_for_resign():
    state = JapaneseState()
    doc = to_record(state)
    doc["end"] = {"reason": "resign"}
    assert refusal(doc) == (None, None, "invalid_end")


# --- the command ------------------------------------------------------------------------------


def test_replay_command_prints_one_json_line_per_file_and_exits_0_when_all_are_accepted(tmp_path):
    files = []
    for i, state in enumerate((finished_classic("short", seed=7), JapaneseState())):
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps(to_record(state)))
        files.append(str(path))
    out = io.StringIO()
    call_command("replay", *files, stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["ok"] for line in lines)
    assert json.loads(lines[0]) == replay_record(json.loads(Path(files[0]).read_text()))


def test_replay_command_exits_1_when_a_file_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(to_record(ClassicState())))
    out = io.StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("replay", str(good), str(bad), stdout=out)
    assert info.value.code == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["ok"] is True
    assert lines[1] == {"ok": False, "deal": None, "action": None, "error": lines[1]["error"]}


def test_manage_py_replay_on_the_conformance_seeds():
    files = sorted(str(p) for p in CONFORMANCE.glob("seed-*.json"))
    assert len(files) == 2
    run = subprocess.run(
        [sys.executable, "manage.py", "replay", *files, str(CONFORMANCE / "illegal-classic-02-0.json")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    expected = json.loads((CONFORMANCE / "expected.json").read_text())
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 1
    assert lines[:2] == [expected[Path(f).name] for f in files]
    assert (lines[2]["ok"], lines[2]["deal"], lines[2]["action"]) == (False, 0, 3)


def test_plays_and_bids_in_a_record_are_the_same_actions_the_api_takes():
    state = ClassicState({"game_type": "nines", "first_dealer": 0})
    play_random(state, random.Random(17), max_moves=20)
    doc = to_record(state)
    replica = ClassicState({"game_type": "nines", "first_dealer": 0})
    replica.deal(doc["deals"][0]["hands"])
    from games.engine import action_from_record

    for rec in doc["deals"][0]["actions"]:
        action = action_from_record(rec)
        assert isinstance(action, (Play, Bid, ChooseTrump)) and action.to_record() == rec
        replica.apply(action)
    assert to_record(replica) == doc
