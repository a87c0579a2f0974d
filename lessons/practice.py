"""The practice deal at the end of each path: one real deal against the bots.

The deal lives in the learner's `PracticeDeal` row as a joker-record/1
document; every request replays it with the engine, applies the learner's move
(or explains the engine's refusal), then lets the bots (`games.engine.bot`)
play until it is the learner's turn again or the deal is over. It does not go
through the live-match machinery: no table, no clock, no websocket, and nobody
else can see it.

Classic: the first deal of a "nines" game (trump choice, bids, nine tricks),
the dealer drawn at random. Japanese: one deal, the declarer drawn at random.
The learner is always seat 0.
"""

from __future__ import annotations

import hashlib
import json
import secrets

from django.core.cache import cache

from games.advice_words import hint_shown
from games.bot_thinker import advice_for
from games.engine import (
    IllegalAction,
    Phase,
    action_from_record,
    deal_from_deck,
    new_state,
    shuffled_deck,
    state_from_record,
    to_record,
)
from games.engine.bot import choose_action
from games.services.hints import HINT_SECONDS

LEARNER = 0
PLAYERS = {"classic": ["you", "keto", "gio", "dato"], "japanese": ["you", "gio"]}


def new_record(path: str, rng=None) -> dict:
    """A fresh practice deal, already played by the bots up to the learner's first move."""
    rng = rng or secrets.SystemRandom()
    if path == "classic":
        state = new_state("classic", {"game_type": "nines", "first_dealer": rng.randrange(4)})
    else:
        state = new_state("japanese", {"target": 21, "first_declarer": rng.randrange(2)})
    deal_from_deck(state, shuffled_deck(rng))
    play_bots(state)
    return to_record(state, PLAYERS[path])


def load(record: dict):
    return state_from_record(record)


def deal_over(state) -> bool:
    return state.deal_index >= 1 or state.phase is Phase.GAME_OVER


def play_bots(state) -> list[dict]:
    """The bots' moves until the learner is to act or the deal is over; returns them (record form)."""
    moves = []
    while not deal_over(state) and state.to_act is not None and state.to_act != LEARNER:
        action = choose_action(state, state.to_act)
        state.apply(action)
        moves.append(action.to_record())
    return moves


def play(record: dict, move: dict):
    """Apply the learner's move and the bots' answers.

    Returns (new record, None) or (the unchanged record, the engine's IllegalAction).
    """
    state = load(record)
    if deal_over(state):
        return record, IllegalAction("game_over", "the practice deal is over")
    try:
        state.apply(action_from_record(move))
    except IllegalAction as error:
        return record, error
    play_bots(state)
    return to_record(state, PLAYERS[_path_of(state)]), None


def _path_of(state) -> str:
    return "classic" if state.variant == "classic" else "japanese"


# --- hints ------------------------------------------------------------------------------


def hint(state, seat: int = LEARNER) -> dict | None:
    """The move the strongest bot would make in the learner's place and why: the live tables'
    hint (games/engine/advice.py, worded by games/advice_words.py); None if it is not their move."""
    if not state.legal_actions(seat):
        return None
    advice = _advice(state.view(seat))
    return {"action": advice["action"], "reason": " ".join(hint_shown(advice)["sentences"])}


def _advice(view: dict) -> dict:
    """The advice for the seat whose view this is, kept in the cache under the view itself (the
    advice is decided from the view alone) as long as a table keeps a hint: asking again for the
    same position (a second press, a reload) costs nothing."""
    key = "lesson-hint:" + hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()
    kept = cache.get(key)
    if kept is None:
        kept = advice_for(view)  # thought in the master's worker processes, as at a table
        cache.set(key, kept, HINT_SECONDS)
    return kept


def result(state, players) -> dict | None:
    """The finished practice deal's result by seat (bids, tricks, scores), from the engine."""
    if not state.results:
        return None
    deal = state.results[0]
    from .board import seat_name

    rows = []
    for s in range(len(players)):
        row = {"name": seat_name(players, s), "is_me": s == LEARNER, "tricks": deal.tricks[s],
               "score": deal.scores[s]}
        if state.variant == "classic":
            row["bid"] = deal.bids[s]
            row["khishti"] = deal.khishti[s]
        rows.append(row)
    return {"variant": state.variant, "rows": rows}
