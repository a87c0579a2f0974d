"""Refusals are one type (code, message, params) across the services, and a player's move
enters a match one way, with the seat found under the match's lock."""

import ast
from pathlib import Path

import pytest
from django.utils import translation

from accounts.friends import FriendshipRefused
from accounts.players import MembersOnly
from coins import services as coins
from games import consumers, protocol
from games.models import Match
from games.services import tables as table_service
from games.services.matches import MatchError, load_state, perform, resign
from games.services.tables import TableError, TableSettings
from joker_site.refusals import Refusal
from moderation.services import ModerationError
from tests.factories import make_player, player_at

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _japanese_match():
    tamar, levan = make_player("tamar"), make_player("levan")
    table = table_service.create_table(tamar, TableSettings(variant="japanese"))
    table_service.sit(table.pk, levan)
    return Match.objects.select_related("table").get(table=table), (tamar, levan)


def _ledger_refusals():
    pending = [coins.LedgerError]
    while pending:
        kind = pending.pop()
        yield kind
        pending.extend(kind.__subclasses__())


def test_the_services_refusals_share_one_base_type_with_code_message_and_params():
    assert protocol.Refusal is Refusal
    for kind in (TableError, MatchError, consumers.FrameError, FriendshipRefused, MembersOnly, ModerationError,
                 *_ledger_refusals()):
        assert issubclass(kind, Refusal), kind
    refusal = TableError("full", "This table is full.")
    assert (refusal.code, refusal.message, refusal.params, str(refusal)) == (
        "full", "This table is full.", {}, "This table is full.")
    # A refusal with one code says only its message; the code is its class's.
    assert (FriendshipRefused(message="No.").code, ModerationError(message="No.").code) == (
        "friendship_refused", "moderation_refused")


def test_a_coin_refusal_keeps_its_code_its_facts_and_is_worded_when_read():
    refusal = coins.InsufficientFunds(250, 100)
    assert refusal.code == "insufficient_funds"
    assert refusal.params == {"needed": 250, "available": 100}
    in_english = refusal.message
    assert "250" in in_english and "100" in in_english
    with translation.override("ru"):
        assert "250" in refusal.message and refusal.message != in_english
    assert coins.EscrowSealed().code == "coins_refused"


@pytest.mark.django_db
def test_a_move_by_someone_not_seated_is_refused_under_the_lock_with_the_version():
    match, _players = _japanese_match()
    outsider = make_player("outsider")
    state = load_state(match)
    with pytest.raises(MatchError) as refused:
        perform(match.pk, outsider, state.legal_actions(state.to_act)[0].to_record(), match.version)
    assert refused.value.code == "not_seated" and refused.value.params["version"] == match.version
    assert Match.objects.get(pk=match.pk).version == match.version


@pytest.mark.django_db
def test_every_refusal_at_a_match_says_its_version():
    match, (tamar, levan) = _japanese_match()
    state = load_state(match)
    mover = player_at(match, state.to_act)
    waiting = levan if mover == tamar else tamar
    action = state.legal_actions(state.to_act)[0].to_record()
    for player, version, code in ((mover, match.version + 7, "stale_version"),
                                  (waiting, match.version, "not_your_turn")):
        with pytest.raises(MatchError) as refused:
            perform(match.pk, player, action, version)
        assert refused.value.code == code and refused.value.params["version"] == match.version
    with pytest.raises(MatchError) as refused:
        perform(match.pk + 1000, mover, action, 1)
    assert refused.value.code == "no_such_match" and "version" not in refused.value.params


@pytest.mark.django_db
def test_a_player_who_resigned_cannot_move_through_the_browser_or_the_protocol():
    match, (tamar, _levan) = _japanese_match()
    assert resign(match.pk, tamar) in (0, 1)
    frame = {"type": "act", "version": match.version, "action": {"trump": "H"}}
    # The seat they left is no longer theirs: both ways in find no seat, under the lock.
    assert consumers.act_for_player(match.table_id, tamar, frame) == "You are not sitting at this table."
    with pytest.raises(MatchError) as refused:
        perform(match.pk, tamar, {"trump": "H"}, match.version)
    assert refused.value.code == "not_seated"


def _calls_in(relative_path):
    """The names a module calls: `f(...)` as "f", `module.f(...)` as "module.f"."""
    tree = ast.parse((ROOT / relative_path).read_text(encoding="utf-8"))
    calls = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.add(node.func.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name):
            calls.add(f"{node.func.value.id}.{node.func.attr}")
    return calls


def test_the_browser_and_the_protocol_enter_a_match_through_the_same_function():
    """games/live.py is the one way in: both sockets submit through its `act`, and neither
    reaches for the match service's functions."""
    for front in ("games/consumers.py", "games/protocol.py"):
        calls = _calls_in(front)
        assert "live.act" in calls, front
        assert not calls & {"perform", "resign", "matches.perform", "matches.resign", "_perform_locked", "_apply",
                            "_after_move", "_save"}, front


def test_only_the_one_way_in_calls_the_functions_that_change_a_running_match():
    """Outside games/services/matches.py itself, only games/live.py calls the functions that change
    a running match (the tests and the benchmark scripts aside)."""
    changing = {"perform", "resign", "berserk", "abort", "clock_ran_out", "grace_ran_out"}
    callers = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.split("/")[0] in ("tests", "scripts", ".venv", "node_modules") \
                or relative in ("games/services/matches.py", "games/live.py"):
            continue
        calls = _calls_in(relative)
        if calls & (changing | {f"matches.{name}" for name in changing}):
            callers.append(relative)
    assert callers == []
