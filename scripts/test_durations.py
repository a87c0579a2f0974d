"""Merge what the tests without a browser took in the last `make test` (var/tests/
durations-unit-half-*.json, written by tests/conftest.py) into tests/durations.json, which
`make test` shares them by (tests/suite_halves.py). Tests under MIN_SECONDS are left out: they
count as suite_halves.UNTIMED_SECONDS.

    python scripts/test_durations.py
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIN_SECONDS = 0.3


def main() -> int:
    runs = sorted((ROOT / "var" / "tests").glob("durations-unit-half-*.json"))
    if not runs:
        print("no var/tests/durations-unit-half-*.json: run `make test` first", file=sys.stderr)
        return 1
    seconds = {}
    for run in runs:
        seconds.update(json.loads(run.read_text()))
    kept = {test: round(s, 1) for test, s in sorted(seconds.items()) if s >= MIN_SECONDS}
    (ROOT / "tests" / "durations.json").write_text(json.dumps(kept, indent=0, ensure_ascii=False) + "\n")
    print(f"tests/durations.json: {len(kept)} of {len(seconds)} tests ({sum(kept.values()):.0f} s of "
          f"{sum(seconds.values()):.0f} s) from {', '.join(r.name for r in runs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
