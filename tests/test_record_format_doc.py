"""docs/record-format.md stays true: each example record gives the verdict printed after it."""

import itertools
import json
import re
from pathlib import Path

import pytest

from games.engine import replay_record

DOC = (Path(__file__).resolve().parent.parent / "docs" / "record-format.md").read_text()
JSON_BLOCKS = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, flags=re.DOTALL)]
# Each example document is followed by the verdict the page says it gets.
EXAMPLES = [(doc, verdict) for doc, verdict in itertools.pairwise(JSON_BLOCKS) if "format" in doc]


def test_the_page_shows_a_classic_and_a_japanese_example():
    assert sorted(doc["variant"] for doc, _verdict in EXAMPLES) == ["classic", "japanese"]


@pytest.mark.parametrize("doc, verdict", EXAMPLES, ids=lambda v: v.get("variant", "verdict"))
def test_example_record_gives_the_verdict_the_page_prints(doc, verdict):
    assert replay_record(doc) == verdict
