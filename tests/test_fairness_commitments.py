"""Deals anyone can verify: each deal's commitment (SHA-256 of the deal and a salt) is
shown before the deal, the salt after it, and the deal played must hash to the commitment.
A changed deal fails the check; no code path lets anyone set a deal."""

import ast
import copy
import html
import json
import random
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, RequestFactory
from django.urls import reverse

from games import engine
from games.fairness import (
    MISMATCH,
    NOT_REVEALED,
    VERIFIED,
    all_verified,
    canonical_deal,
    check_deals,
    commitment_for,
    fairness_document,
)
from games.models import Match, MatchStatus
from games.services import matches as match_service
from games.services.matches import MatchError, perform
from games.services.presenter import seat_view
from tests.factories import player_at
from tests.replay_helpers import finished_match, fresh, kept_for_the_module, play_moves, seated_match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
CHECK_SCRIPT = ROOT / "games" / "check_deals.py"
FAIRNESS_DOC = ROOT / "docs" / "fairness.md"
CARD = re.compile(r"(?<![A-Za-z0-9])([6-9TJQKA][SCDH]|X[12])(?![A-Za-z0-9])")


@pytest.fixture(scope="module")
def classic_match(django_db_setup, django_db_blocker):
    with kept_for_the_module(django_db_blocker):
        match, _players = finished_match("classic", ("fair_a", "fair_b", "fair_c", "fair_d"), seed=6,
                                         game_type="short")
        yield match


@pytest.fixture(scope="module")
def japanese_match(django_db_setup, django_db_blocker):
    with kept_for_the_module(django_db_blocker):
        # To 21: one deal cannot reach it, so there is always a second deal to tamper with.
        match, _players = finished_match("japanese", ("fair_j", "fair_k"), seed=9, target=21)
        yield match


def downloads(match) -> tuple[dict, dict]:
    client = Client()
    record = json.loads(client.get(f"/en/tables/{match.table_id}/record.json").content)
    fairness = json.loads(client.get(f"/en/tables/{match.table_id}/fairness.json").content)
    return record, fairness


def write_files(tmp_path, record, fairness):
    record_path, fairness_path = tmp_path / "record.json", tmp_path / "fairness.json"
    record_path.write_text(json.dumps(record), encoding="utf-8")
    fairness_path.write_text(json.dumps(fairness), encoding="utf-8")
    return record_path, fairness_path


def statuses(checks):
    return [c.status for c in checks]


# --- The check ------------------------------------------------------------------------------

def test_every_deal_of_a_played_match_hashes_to_the_commitment_shown_before_it(classic_match, japanese_match):
    for match in (classic_match, japanese_match):
        record, fairness = downloads(match)
        checks = check_deals(record, fairness)
        assert len(checks) == len(record["deals"]) == len(fairness)
        assert statuses(checks) == [VERIFIED] * len(checks)
        for i, deal in enumerate(record["deals"]):
            assert fairness[str(i)]["canonical_deal"] == canonical_deal(deal)


def test_changing_one_card_of_a_classic_deal_fails_that_deals_check_only(classic_match):
    record, fairness = downloads(classic_match)
    changed = copy.deepcopy(record)
    hands = changed["deals"][5]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # two players' cards swapped: still a deal
    checks = check_deals(changed, fairness)
    assert checks[5].status == MISMATCH and checks[5].computed != checks[5].commitment
    assert [c.status for i, c in enumerate(checks) if i != 5] == [VERIFIED] * (len(checks) - 1)
    assert not all_verified(checks)


def test_changing_the_turned_trump_card_fails_the_check(classic_match):
    record, fairness = downloads(classic_match)
    changed = copy.deepcopy(record)
    deal = changed["deals"][0]  # one card each: most of the deck was never dealt
    dealt = {c for hand in deal["hands"] for c in hand} | {deal["trump_card"]}
    deal["trump_card"] = next(c for c in engine.full_deck() if c not in dealt)
    assert check_deals(changed, fairness)[0].status == MISMATCH


def test_swapping_a_japanese_columns_face_down_and_face_up_cards_fails_the_check(japanese_match):
    record, fairness = downloads(japanese_match)
    changed = copy.deepcopy(record)
    column = changed["deals"][1]["columns"][0][2]
    column.reverse()
    found = statuses(check_deals(changed, fairness))
    assert found[:2] == [VERIFIED, MISMATCH] and set(found[2:]) <= {VERIFIED}


def test_a_different_salt_fails_the_check(japanese_match):
    record, fairness = downloads(japanese_match)
    fairness["0"]["salt"] = secrets.token_hex(16)
    assert check_deals(record, fairness)[0].status == MISMATCH


def test_malformed_documents_get_a_clear_error_from_the_command(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    good_record = tmp_path / "record.json"
    good_record.write_text(json.dumps({"format": "joker-record/1", "deals": []}), encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON") as refused:
        call_command("verify_deals", str(good_record), str(bad))
    assert refused.value.returncode == 2
    with pytest.raises(CommandError, match="is not a deal index"):
        bad.write_text(json.dumps({"first": {"commitment": "00"}}), encoding="utf-8")
        call_command("verify_deals", str(good_record), str(bad))


# --- Ways to run the check: the command, the stand-alone script, the shell ----------------

def test_verify_deals_command_accepts_the_downloads_and_refuses_a_changed_deal(classic_match, tmp_path, capsys):
    record, fairness = downloads(classic_match)
    record_path, fairness_path = write_files(tmp_path, record, fairness)
    call_command("verify_deals", str(record_path), str(fairness_path))
    out = capsys.readouterr().out
    assert f"{len(record['deals'])} of {len(record['deals'])} deals verified" in out
    record["deals"][2]["hands"][3][1], record["deals"][2]["hands"][0][1] = (
        record["deals"][2]["hands"][0][1], record["deals"][2]["hands"][3][1])
    record_path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("verify_deals", str(record_path), str(fairness_path))
    assert refused.value.returncode == 1
    assert "deal 3: DOES NOT MATCH its commitment" in capsys.readouterr().out


def test_stand_alone_script_verifies_the_downloads_and_exits_1_on_a_changed_deal(japanese_match, tmp_path):
    record, fairness = downloads(japanese_match)
    record_path, fairness_path = write_files(tmp_path, record, fairness)
    run = subprocess.run([sys.executable, str(CHECK_SCRIPT), str(record_path), str(fairness_path)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"deal {i + 1}: verified" for i in range(len(record["deals"]))]
    record["deals"][0]["hands"][0][0], record["deals"][0]["columns"][1][0][0] = (
        record["deals"][0]["columns"][1][0][0], record["deals"][0]["hands"][0][0])
    record_path.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run([sys.executable, str(CHECK_SCRIPT), str(record_path), str(fairness_path)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1
    assert run.stdout.splitlines()[0] == "deal 1: DOES NOT MATCH its commitment"


def docs_block(language: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", FAIRNESS_DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert blocks, f"docs/fairness.md has no {language} block"
    return blocks


def test_docs_show_the_stand_alone_script_exactly():
    assert CHECK_SCRIPT.read_text(encoding="utf-8") in docs_block("python")


def test_docs_shell_recipe_with_jq_and_sha256sum_checks_a_deal(classic_match, tmp_path):
    record, fairness = downloads(classic_match)
    write_files(tmp_path, record, fairness)
    recipe = next(b for b in docs_block("sh") if "sha256sum" in b)
    for deal in (0, 11):
        run = subprocess.run(["bash", "-c", recipe], capture_output=True, text=True, cwd=tmp_path,
                             env={"PATH": "/usr/bin:/bin", "DEAL": str(deal)})
        assert run.returncode == 0, run.stderr
        assert fairness[str(deal)]["commitment"] in run.stdout
        assert "verified" in run.stdout.splitlines()[-1]
    record["deals"][11]["hands"][0][0], record["deals"][11]["hands"][1][0] = (
        record["deals"][11]["hands"][1][0], record["deals"][11]["hands"][0][0])
    write_files(tmp_path, record, fairness)
    run = subprocess.run(["bash", "-c", recipe], capture_output=True, text=True, cwd=tmp_path,
                         env={"PATH": "/usr/bin:/bin", "DEAL": "11"})
    assert "DOES NOT MATCH" in run.stdout


def test_replay_pages_printf_recipe_prints_the_commitment(japanese_match):
    page = Client().get(f"/en/tables/{japanese_match.table_id}/replay/", {"deal": 2}).content.decode()
    command = html.unescape(re.search(r"<code translate=\"no\">(printf .*?)</code>", page, re.DOTALL).group(1))
    run = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    commitment = japanese_match.deal_commitments[1]["commitment"]
    assert run.stdout.split()[0] == commitment
    assert "✓" in page and "Verified: deal 2 as played" in page


# --- During the match -------------------------------------------------------------------------

def test_commitment_of_a_deal_is_stored_and_shown_before_anyone_acts():
    match, players = seated_match("japanese", ("tamar", "levan"))
    assert match.version == 1 and match.record["deals"][0]["actions"] == []
    entry = match.deal_commitments[0]
    assert entry["commitment"] == commitment_for(match.record["deals"][0], entry["salt"])
    view = seat_view(match, 0)
    assert view["commitments"] == [{"deal": 0, "commitment": entry["commitment"]}]
    client = Client()
    client.force_login(players[0].user)
    page = client.get(f"/en/tables/{match.table_id}/").content.decode()
    assert entry["commitment"] in page and entry["salt"] not in page


def test_a_running_deal_reveals_no_salt_and_no_card_in_the_deal_checks():
    match, _players = seated_match("japanese", ("tamar", "levan"))
    match = play_moves(match, random.Random(2), moves=4)
    client = Client()
    doc = json.loads(client.get(f"/en/tables/{match.table_id}/fairness.json").content)
    assert doc == {"0": {"commitment": match.deal_commitments[0]["commitment"]}}
    page = client.get(f"/en/tables/{match.table_id}/fairness/").content.decode()
    assert match.deal_commitments[0]["salt"] not in page
    assert not CARD.findall(html.unescape(page.split('<main')[1].split("check_deals.py")[0]))


def test_after_a_deal_ends_its_salt_and_cards_are_revealed_and_verified_live():
    match, players = seated_match("japanese", ("tamar", "levan"))
    rng = random.Random(4)
    while len(fresh(match).deal_commitments) < 2:
        match = play_moves(match, rng, moves=1)
    match = fresh(match)
    assert match.status == MatchStatus.RUNNING
    doc = fairness_document(match)
    assert doc["0"]["salt"] == match.deal_commitments[0]["salt"]
    assert doc["0"]["canonical_deal"] == canonical_deal(match.record["deals"][0])
    assert set(doc["1"]) == {"commitment"}
    statuses_now = statuses(check_deals(match.record, doc))
    assert statuses_now == [VERIFIED, NOT_REVEALED]
    client = Client()
    client.force_login(players[0].user)
    page = client.get(f"/en/tables/{match.table_id}/").content.decode()
    assert match.deal_commitments[0]["salt"] in page and "✓ verified" in page
    assert match.deal_commitments[1]["commitment"] in page and match.deal_commitments[1]["salt"] not in page


def test_decks_are_shuffled_with_the_operating_systems_secure_generator(monkeypatch):
    generators = []
    real_shuffle = engine.shuffled_deck

    def recording_shuffle(rng):
        generators.append(rng)
        return real_shuffle(rng)

    monkeypatch.setattr(match_service.engine, "shuffled_deck", recording_shuffle)
    seated_match("japanese", ("tamar", "levan"))
    assert len(generators) == 1 and isinstance(generators[0], secrets.SystemRandom)


# --- Nobody can set a deal --------------------------------------------------------------------

def test_no_record_replay_or_deal_check_address_accepts_a_write(japanese_match):
    before = fresh(japanese_match)
    table_id = japanese_match.table_id
    addresses = [reverse(name, args=[table_id]) for name in
                 ("table_record", "table_fairness_json", "table_fairness", "table_replay")]
    addresses += [reverse("my_matches")]
    client = Client()
    payload = json.dumps({"deals": [], "hands": [["AS"]]})
    for address in addresses:
        for method in (client.post, client.put, client.patch, client.delete):
            assert method(address, data=payload, content_type="application/json").status_code == 405, address
    after = fresh(japanese_match)
    assert (after.record, after.deal_commitments, after.version) == (before.record, before.deal_commitments,
                                                                      before.version)


@pytest.mark.parametrize("action", [
    {"hands": [["AS"], ["KS"]]},
    {"deal": {"hands": [], "columns": []}},
    {"play": "AH", "hands": [["AS"]]},
    {"trump_card": "AS"},
])
def test_a_player_cannot_send_cards_to_deal_and_nothing_changes(action):
    match, _players = seated_match("japanese", ("tamar", "levan"))
    before = (match.record, match.deal_commitments, match.version)
    state = match_service.load_state(match)
    with pytest.raises(MatchError):
        perform(match.pk, player_at(match, state.to_act), action, match.version)
    match = fresh(match)
    assert (match.record, match.deal_commitments, match.version) == before


APP_PACKAGES = ("accounts", "coins", "games", "rules_pages", "joker_site")
DEALING_CALLS = {"deal", "deal_from_deck", "deal_arguments", "_deal_indices"}
EXAMPLE_CHECKER = "rules_pages/engine_bridge.py"


def _site_sources():
    for package in APP_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("games/engine/") or "/migrations/" in relative:
                continue
            yield relative, ast.parse(path.read_text(encoding="utf-8"))


def _nodes_with_their_function(tree):
    """Every node of a module with the name of the function it is in ("<module>" at the top)."""
    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            yield inner, child
            yield from visit(child, inner)
    yield from visit(tree, "<module>")


def test_cards_are_dealt_in_one_place_only_from_a_freshly_shuffled_deck():
    dealing = set()
    for relative, tree in _site_sources():
        for function, node in _nodes_with_their_function(tree):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if name in DEALING_CALLS:
                    dealing.add((relative, function))
    match_dealing = {(module, function) for module, function in dealing if module != EXAMPLE_CHECKER}
    assert match_dealing == {("games/fairness.py", "deal_next")}


def test_the_rules_pages_example_checker_deals_only_games_no_match_can_reach():
    # engine_bridge deals throwaway games to prove the rules pages' worked examples;
    # it must never be able to touch a match, so it may import nothing but the engine.
    tree = ast.parse((ROOT / EXAMPLE_CHECKER).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    site_modules = {name for name in imported if name.split(".")[0] in APP_PACKAGES}
    assert site_modules and all(name.startswith("games.engine") for name in site_modules)


def test_match_records_are_written_only_by_the_match_service():
    writers = set()
    for relative, tree in _site_sources():
        for function, node in _nodes_with_their_function(tree):
            assigns_record = isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Attribute) and t.attr in ("record", "deal_commitments") for t in node.targets)
            passes_record = isinstance(node, ast.Call) and any(
                k.arg in ("record", "deal_commitments") for k in node.keywords)
            if assigns_record or passes_record:
                writers.add(relative)
    assert writers <= {"games/services/matches.py"}


def test_the_admin_cannot_change_a_match_record_or_its_commitments():
    model_admin = admin.site._registry.get(Match)
    if model_admin is None:
        return  # Match is not in the admin at all: nothing there can change it
    request = RequestFactory().get("/admin/")
    request.user = get_user_model().objects.create_superuser("boss", "boss@example.org", "x-long-password-1")
    match, _players = seated_match("japanese", ("tamar", "levan"))
    readonly = set(model_admin.get_readonly_fields(request, match))
    editable = set()
    if model_admin.has_change_permission(request, match):
        editable = set(model_admin.get_fields(request, match)) - readonly
    assert not {"record", "deal_commitments"} & editable
    assert not model_admin.has_delete_permission(request, match)
