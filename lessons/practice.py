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

import secrets

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import card_faces
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


def _winning_now(state, action, seat) -> bool | None:
    """Whether ``action`` would be winning the trick at the moment it is played (None when leading)."""
    if not state.trick or action.to_record().get("play") is None:
        return None
    after = state.copy()
    after.apply(action)
    if not after.trick:  # the card completed the trick
        return after.last_trick[1] == seat
    # The engine keeps the current winner of an unfinished classic trick.
    return after._win_seat == seat


def _joker_reason(record):
    if record.get("joker") == "discard":
        return _("The joker played as “discard” never wins: a safe way to stay out of this trick.")
    if record.get("suit"):
        return _("Led high, the joker takes the trick and pulls the highest %(suit)s out of the other hands.") % {
            "suit": card_faces.suit_name(record["suit"])}
    return _("The joker takes this trick, whatever else is played.")


def hint(state, seat: int = LEARNER) -> dict | None:
    """What the bot would do in the learner's place, and a short reason; None if it is not their move."""
    legal = state.legal_actions(seat)
    if not legal:
        return None
    action = choose_action(state, seat)
    record = action.to_record()
    view = state.view(seat)
    phase = view["phase"]
    if phase == "trump":
        suit = record["trump"]
        if suit == "none":
            reason = _("Your first three cards are spread over the suits: no trump is the calm choice.")
        else:
            reason = _("Of your first three cards, %(suit)s are the strongest: make them trump.") % {
                "suit": card_faces.suit_name(suit)}
        return {"action": record, "reason": reason}
    if phase == "bid":
        n = record["bid"]
        reason = ngettext("I count about %(n)s trick in this hand.", "I count about %(n)s tricks in this hand.",
                          n) % {"n": n}
        if n == 0:
            reason = _("I see no sure trick in this hand: pass.")
        if view.get("forbidden_bid") is not None:
            reason += " " + _("As the dealer you may not say %(n)s.") % {"n": view["forbidden_bid"]}
        return {"action": record, "reason": reason}

    card = record["play"]
    if len({a.card for a in legal}) == 1 and not card.startswith("X"):
        return {"action": record, "reason": _("It is the only card you may play.")}
    need = None
    if state.variant == "classic":
        need = view["bids"][seat] - view["tricks_taken"][seat]
    if card.startswith("X"):
        return {"action": record, "reason": _joker_reason(record)}
    wins = _winning_now(state, action, seat)
    if wins is None:  # leading
        if need is None:
            reason = _("A sound lead here: it keeps your best cards for later.")
        elif need > 0:
            reason = ngettext("You still need %(n)s trick: lead a card that can win.",
                              "You still need %(n)s tricks: lead a card that can win.", need) % {"n": need}
        else:
            reason = _("You have the tricks you bid: lead a card that is likely to lose.")
    elif need is None:
        reason = _("This card takes the trick.") if wins else _(
            "This trick is lost anyway: throw a small card and keep the good ones.")
    elif need > 0:
        reason = (ngettext("You still need %(n)s trick, and this card is winning the trick for now.",
                           "You still need %(n)s tricks, and this card is winning the trick for now.", need)
                  % {"n": need}) if wins else _(
            "You cannot win this trick cheaply: throw a small card and keep the good ones.")
    else:
        reason = _("You have the tricks you bid: this card stays out of the trick.") if not wins else _(
            "You have the tricks you bid, yet this card wins for now: the bot judges that the others would cost you "
            "more later.")
    return {"action": record, "reason": reason}


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
