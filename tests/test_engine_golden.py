"""Golden playthroughs (tests/golden/*.json) still come out the same.

Regenerate with ``.venv/bin/python tests/golden/regenerate.py`` when the
engine changes on purpose, and review the diff.
"""

import importlib.util
import json
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
_spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)


def test_every_golden_case_has_a_file_and_every_file_a_case():
    assert {p.stem for p in GOLDEN.glob("*.json")} == set(regenerate.CASES)


@pytest.mark.parametrize("name", sorted(regenerate.CASES))
def test_golden_playthrough_is_unchanged(name):
    stored = (GOLDEN / f"{name}.json").read_text()
    assert regenerate.generate(name) == stored


@pytest.mark.parametrize("name", sorted(regenerate.CASES))
def test_golden_moves_are_among_the_legal_actions_shown_to_the_seat(name):
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    assert data["deals"]
    for deal in data["deals"]:
        assert deal["steps"] and deal["after"] is not None
        for step in deal["steps"]:
            assert step["action"] in step["view"]["legal_actions"]
            assert step["view"]["seat"] == step["view"]["to_act"] == step["action"]["seat"]
