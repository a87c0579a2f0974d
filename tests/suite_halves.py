"""`make test` runs each suite in halves, side by side (scripts/run_suites.sh), each on a
database and a Redis database of its own: TEST_HALF="k/n" makes a run take its share of the
tests (tests/conftest.py), after the tests have been ordered.

- The browser suite: every n-th test from the k-th. Its tests are grouped by the settings their
  server needs (tests/e2e/conftest.py), and every n-th test of a group keeps each group's server
  to one start in each half.
- The suite without browsers: shared by the time each test took in a recent run
  (`tests/durations.json`, seconds by test id; a test not in it counts as `UNTIMED_SECONDS`), the
  longest first, each to the half with the least time so far, so that the halves end together
  (every n-th test left one half a minute behind the other). Each half keeps the tests' order.

Each run writes what its tests took to `var/tests/durations<half>.json`;
`python scripts/test_durations.py` merges those of the last `make test` into
`tests/durations.json`."""

import json
import os
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parent / "durations.json"
# What a test missing from tests/durations.json counts as (most tests take a tenth of a second).
UNTIMED_SECONDS = 0.2


def half_of_the_suite():
    """(k, n) from TEST_HALF, or None when the run takes the whole suite."""
    value = os.environ.get("TEST_HALF", "").strip()
    if not value:
        return None
    try:
        index, count = (int(part) for part in value.split("/"))
    except ValueError:
        raise pytest.UsageError(f"TEST_HALF={value!r}: expected k/n, as 1/2") from None
    if not 1 <= index <= count:
        raise pytest.UsageError(f"TEST_HALF={value!r}: k must be between 1 and n")
    return index, count


def half_label():
    """"" for a whole run, else "-half-k" (for folders that each run keeps to itself)."""
    half = half_of_the_suite()
    return "" if half is None else f"-half-{half[0]}"


def recorded_durations() -> dict[str, float]:
    try:
        return json.loads(DURATIONS.read_text())
    except FileNotFoundError:
        return {}


def share_by_time(items, index: int, count: int, seconds: dict[str, float]):
    """The k-th of ``count`` shares of ``items``, balanced by ``seconds`` (by test id), in the
    items' order. The same items give every run the same shares."""
    totals = [0.0] * count
    share_of = {}
    timed = sorted(range(len(items)), key=lambda i: (-seconds.get(items[i].nodeid, UNTIMED_SECONDS), i))
    for i in timed:
        least = min(range(count), key=lambda k: (totals[k], k))
        share_of[i] = least
        totals[least] += seconds.get(items[i].nodeid, UNTIMED_SECONDS)
    return [item for i, item in enumerate(items) if share_of[i] == index - 1]


def every_nth(items, index: int, count: int):
    return items[index - 1::count]
