"""Every record in tests/data/conformance gives the verdict its expected.json names."""

import json
from pathlib import Path

import pytest

from games.engine import replay_text

CONFORMANCE = Path(__file__).resolve().parent / "data" / "conformance"
EXPECTED = json.loads((CONFORMANCE / "expected.json").read_text())


def test_conformance_folder_holds_every_expected_record():
    files = {p.name for p in CONFORMANCE.glob("*.json")} - {"expected.json"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_conformance_record_gives_expected_verdict(name):
    want = EXPECTED[name]
    got = replay_text((CONFORMANCE / name).read_text())
    if want["ok"]:
        assert got == {k: want[k] for k in ("ok", "tricks", "deal_scores", "pulka_bonus", "totals", "finished", "winner")}
    else:
        assert (got["ok"], got["deal"], got["action"]) == (False, want["deal"], want["action"]), got["error"]
        assert isinstance(got["error"], str) and got["error"]
