"""Game records (``joker-record/1``): export any game, read one back, replay and judge it."""

from __future__ import annotations

import json

from .classic import ClassicOptions, ClassicState
from .common import Phase
from .errors import IllegalAction, InvalidOptions, RecordError
from .japanese import JapaneseOptions, JapaneseState

FORMAT = "joker-record/1"
_DEAL_KEYS = {
    "classic": ({"dealer", "hands", "actions"}, {"trump_card"}),
    "japanese": ({"declarer", "hands", "columns", "actions"}, set()),
}


def to_record(state, players=None) -> dict:
    """The record of ``state`` (finished or in progress). ``players``: display names by seat."""
    if players is None:
        players = [f"seat {s}" for s in range(state.seats)]
    if len(players) != state.seats:
        raise ValueError(f"{state.variant} needs {state.seats} player names")
    doc = {
        "format": FORMAT,
        "variant": state.variant,
        "options": state.options.to_record(),
        "players": list(players),
        "deals": state.record_deals(),
    }
    if state.end is not None:
        doc["end"] = state.end
    return doc


def new_state(variant: str, options=None):
    """A fresh state of a variant ("classic" / "japanese")."""
    if variant == "classic":
        return ClassicState(options)
    if variant == "japanese":
        return JapaneseState(options)
    raise InvalidOptions("invalid_option", f"unknown variant {variant!r}", option="variant")


def _refuse(code, message, deal=None, action=None, params=None):
    return RecordError(code, message, deal=deal, action=action, params=params)


def state_from_record(doc):
    """Replay a record into a state. Raises RecordError pointing at the first thing that breaks the rules."""
    if type(doc) is not dict or doc.get("format") != FORMAT:
        raise _refuse("not_a_record", f"not a {FORMAT} document")
    variant = doc.get("variant")
    if variant not in ("classic", "japanese"):
        raise _refuse("not_a_record", f"unknown variant {variant!r}")
    classic = variant == "classic"
    options = doc.get("options", {})
    if options is None:
        options = {}
    if type(options) is not dict:
        raise _refuse("invalid_option", "options must be an object")
    allowed = ClassicOptions.RECORD_KEYS if classic else JapaneseOptions.RECORD_KEYS
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise _refuse("invalid_option", f"unknown {variant} options {unknown}")
    seats = 4 if classic else 2
    players = doc.get("players")
    if type(players) is not list or len(players) != seats or not all(type(p) is str for p in players):
        raise _refuse("invalid_players", f"{variant} needs a list of {seats} player names")
    deals = doc.get("deals")
    if type(deals) is not list:
        raise _refuse("not_a_record", "deals must be a list")
    end = doc.get("end")
    if end is not None and (type(end) is not dict or not set(end) <= {"reason", "seat"} or "reason" not in end):
        raise _refuse("invalid_end", "end must be {reason, seat}")

    seat_key = "dealer" if classic else "declarer"
    first = dict(options)
    if deals and type(deals[0]) is dict and type(deals[0].get(seat_key)) is int and 0 <= deals[0][seat_key] < seats:
        first["first_dealer" if classic else "first_declarer"] = deals[0][seat_key]
    try:
        state = ClassicState(first) if classic else JapaneseState(first)
    except InvalidOptions as e:
        raise _refuse(e.code, e.message, params=e.params) from None
    required, optional = _DEAL_KEYS[variant]
    for i, deal in enumerate(deals):
        if state.phase is Phase.GAME_OVER:
            raise _refuse("deal_after_game_over", "this deal comes after the end of the game", deal=i)
        if type(deal) is not dict or not required <= set(deal) or not set(deal) <= required | optional:
            raise _refuse("malformed_deal", f"a {variant} deal has {sorted(required)}", deal=i)
        actions = deal["actions"]
        if type(actions) is not list:
            raise _refuse("malformed_deal", "actions must be a list", deal=i)
        expected = state.dealer if classic else state.declarer
        if deal[seat_key] != expected or type(deal[seat_key]) is not int:
            code = "wrong_dealer" if classic else "wrong_declarer"
            raise _refuse(code, f"the {seat_key} of this deal is seat {expected}", deal=i, params={"expected": expected})
        try:
            if classic:
                state.deal(deal["hands"], deal.get("trump_card"))
            else:
                state.deal(deal["hands"], deal["columns"])
        except IllegalAction as e:
            raise _refuse(e.code, e.message, deal=i, params=e.params) from None
        try:
            state.apply_records(actions)
        except IllegalAction as e:
            params = dict(e.params)
            j = params.pop("index")
            raise _refuse(e.code, e.message, deal=i, action=j, params=params) from None
        if i < len(deals) - 1 and state.deal_index == i:
            raise _refuse("deal_incomplete", "only the last deal may stop before its end", deal=i, action=len(actions))
    if end is not None:
        try:
            state.end_game(end.get("reason"), end.get("seat"))
        except IllegalAction as e:
            raise _refuse(e.code, e.message, params=e.params) from None
    return state


def catch_up(state, doc) -> None:
    """Bring ``state``, an earlier position of the game ``doc`` records, up to the record.

    Records only grow (actions, then deals, then an end), so only what ``doc``
    adds is applied: a few steps instead of a replay from the start. The record
    is trusted to be of this game (the site's own stored record); an action or
    deal that does not fit raises like a replay does, and the caller replays
    the whole record instead."""
    have = state.record_deals()
    deals = doc["deals"]
    if len(have) > len(deals):
        raise ValueError("the record has fewer deals than the position")
    if have:
        current = len(have) - 1
        state.apply_records(deals[current]["actions"][len(have[current]["actions"]):])
    for deal in deals[len(have):]:
        if "columns" in deal:
            state.deal(deal["hands"], deal["columns"])
        else:
            state.deal(deal["hands"], deal.get("trump_card"))
        state.apply_records(deal["actions"])
    end = doc.get("end")
    if end is not None and state.end is None:
        state.end_game(end.get("reason"), end.get("seat"))


def catch_up_log(state, rows) -> None:
    """Like ``catch_up``, from the rows of a match's action log that follow ``state``'s
    position (games/services/match_log.py; each row a list of {"actions"}, {"deal"},
    {"end"} entries, as ``GameState.record_since`` gives them). A row that does not fit
    raises like a replay does."""
    for entries in rows:
        for entry in entries:
            if "actions" in entry:
                state.apply_records(entry["actions"])
            elif "deal" in entry:
                deal = entry["deal"]
                if "columns" in deal:
                    state.deal(deal["hands"], deal["columns"])
                else:
                    state.deal(deal["hands"], deal.get("trump_card"))
                state.apply_records(deal["actions"])
            elif "end" in entry and state.end is None:
                state.end_game(entry["end"].get("reason"), entry["end"].get("seat"))


def refusal(error: RecordError) -> dict:
    return {"ok": False, "deal": error.deal, "action": error.action, "error": f"{error.code}: {error.message}"}


def replay_record(doc) -> dict:
    """The verdict on a parsed record, exactly as ``manage.py replay`` prints it."""
    try:
        state = state_from_record(doc)
    except RecordError as e:
        return refusal(e)
    return {"ok": True, **state.scores()}


def replay_text(text: str | bytes) -> dict:
    """The verdict on a record file's contents (not JSON gives a document-level refusal)."""
    try:
        doc = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        return refusal(RecordError("not_json", f"not JSON: {e}"))
    return replay_record(doc)
