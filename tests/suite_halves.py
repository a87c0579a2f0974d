"""`make test` runs each suite in halves, side by side (scripts/run_suites.sh), each on a
database and a Redis database of its own: TEST_HALF="k/n" makes a run take the k-th of every
n tests (tests/conftest.py), after the tests have been ordered."""

import os

import pytest


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
