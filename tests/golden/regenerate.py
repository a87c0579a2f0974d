#!/usr/bin/env python
"""Golden playthroughs: fixed seeded deals of each variant, step by step.

Each file under tests/golden/ is one playthrough, driven only through the
public API: cards from ``shuffled_deck(random.Random(seed))`` and
``deal_from_deck``, moves chosen by the same seeded generator among
``legal_actions``. A file lists, for every step of the recorded deals, the
view of the seat to act (its legal actions included) and the move made; at
the start and end of each recorded deal, every seat's view and the
spectator's. The score sheet is written once per deal boundary (it only
changes when a deal ends), so step views carry ``"score_sheet": "same"``.

tests/test_engine_golden.py replays the same script and compares. When the
engine's behaviour changes on purpose, regenerate and review the diff:

    .venv/bin/python tests/golden/regenerate.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import ClassicState, JapaneseState, Phase, deal_from_deck, shuffled_deck

HERE = Path(__file__).resolve().parent

# name: (variant, options, seed, deals to record (indices), deals to fast-forward through first)
CASES = {
    "classic-standard-first-three-deals": ("classic", {"game_type": "standard", "first_dealer": 2}, 11, [0, 1, 2]),
    "classic-nines-first-deal": ("classic", {"game_type": "nines", "khishti": "per_card"}, 12, [0]),
    "classic-standard-last-deal-of-pulka-one": ("classic", {"game_type": "standard", "first_dealer": 1}, 13, [7]),
    "classic-full-golden-deal": ("classic", {"game_type": "full", "first_dealer": 3}, 14, [24]),
    "classic-full-no-trump-deal": ("classic", {"game_type": "full", "first_dealer": 0}, 15, [28]),
    "classic-full-dark-deal": ("classic", {"game_type": "full", "first_dealer": 1}, 16, [32]),
    "classic-full-misere-deal": ("classic", {"game_type": "full", "first_dealer": 2}, 17, [39]),
    "japanese-first-deal": ("japanese", {"target": 21}, 21, [0]),
    "japanese-second-deal": ("japanese", {"target": 31, "first_declarer": 1}, 22, [1]),
}


def _step_view(state, seat):
    view = state.view(seat)
    view["score_sheet"] = "same"
    return view


def _all_views(state):
    views = {"spectator": state.view(None)}
    for seat in range(state.seats):
        views[str(seat)] = _step_view(state, seat)  # the score sheet is public: the spectator's shows it
    return views


def playthrough(variant: str, options: dict, seed: int, deals: list[int]) -> dict:
    rng = random.Random(seed)
    state = ClassicState(options) if variant == "classic" else JapaneseState(options)
    recorded = []
    while not state.is_over() and state.deal_index <= max(deals):
        recording = state.deal_index in deals
        if state.phase is Phase.DEAL:
            deck = shuffled_deck(rng)
            if not recording:
                deal_from_deck(state, deck)
                continue
            entry = {"deal_index": state.deal_index, "deck": deck, "before": _all_views(state), "steps": []}
            deal_from_deck(state, deck)
            entry["dealt"] = _all_views(state)
            recorded.append(entry)
            continue
        seat = state.to_act
        action = rng.choice(state.legal_actions(seat))
        if recording:
            recorded[-1]["steps"].append({"view": _step_view(state, seat), "action": action.to_record()})
        state.apply(action)
        if recording and state.deal_index != recorded[-1]["deal_index"]:  # the deal is over
            recorded[-1]["after"] = _all_views(state)
    return {"variant": variant, "options": options, "seed": seed, "deals": recorded}


def render(data: dict) -> str:
    """JSON with one step per line: small, stable diffs."""
    lines = ["{"]
    head = {k: data[k] for k in ("variant", "options", "seed")}
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append('  "deals": [')
    for d, deal in enumerate(data["deals"]):
        lines.append("    {")
        lines.append(f'      "deal_index": {deal["deal_index"]},')
        lines.append(f'      "deck": {json.dumps(deal["deck"])},')
        for key in ("before", "dealt"):
            lines.append(f'      "{key}": {json.dumps(deal[key], sort_keys=True)},')
        lines.append('      "steps": [')
        for s, step in enumerate(deal["steps"]):
            comma = "," if s < len(deal["steps"]) - 1 else ""
            lines.append(f"        {json.dumps(step, sort_keys=True)}{comma}")
        lines.append("      ],")
        lines.append(f'      "after": {json.dumps(deal.get("after"), sort_keys=True)}')
        lines.append("    }" + ("," if d < len(data["deals"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def generate(name: str) -> str:
    return render(playthrough(*CASES[name]))


def main() -> int:
    for name in CASES:
        path = HERE / f"{name}.json"
        path.write_text(generate(name))
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
