"""The match page: the same seat view the JSON protocol sends, rendered as HTML."""

from django.shortcuts import render

from .services.presenter import SUIT_SYMBOLS, seat_of, seat_view
from .services.score_sheet import deal_summary, match_end, score_sheet, sheet_names
from .templatetags.cards import seat_name

SUITS = ("S", "C", "D", "H")


def _relative_order(seat_count: int, me: int | None) -> list[int]:
    """Seats in the order the page draws them: me first (bottom), then clockwise."""
    start = me if me is not None else 0
    return [(start + i) % seat_count for i in range(seat_count)]


def _card_choices(view: dict) -> dict:
    """For each playable card, the actions it can make (a joker can make several)."""
    choices: dict[str, list[dict]] = {}
    for action in view["legal_actions"]:
        if "play" in action:
            choices.setdefault(action["play"], []).append(action)
    return choices


def _bid_buttons(view: dict) -> list[dict]:
    legal = {a["bid"] for a in view["legal_actions"] if "bid" in a}
    if not legal and view.get("forbidden_bid") is None:
        return []
    top = view.get("cards_per_player") or 0
    return [{"n": n, "allowed": n in legal, "forbidden": n == view.get("forbidden_bid")} for n in range(top + 1)]


def _trump_buttons(view: dict) -> list[dict]:
    legal = [a["trump"] for a in view["legal_actions"] if "trump" in a]
    return [{"value": t, "symbol": SUIT_SYMBOLS.get(t, "")} for t in legal]


def _seat_facts(view: dict, seat: int) -> dict:
    facts = {"tricks": view["tricks_taken"][seat], "cards": view["hand_counts"][seat]}
    if view["variant"] == "classic":
        facts["bid"] = view["bids"][seat]
        facts["is_dealer"] = view["dealer"] == seat
    else:
        facts["is_declarer"] = view["declarer"] == seat
    facts["total"] = view["totals"][seat]
    return facts


def _deal_number(view: dict) -> int:
    """The deal shown in the header, counted from 1. Once the last deal is scored the
    engine already points past it; the header keeps naming the deal that was played.
    A match cut short (abort, resignation, forfeit) ended inside the deal at `deal_index`."""
    played_out = view["finished"] and not view.get("end")
    return max(view["deal_index"], 1) if played_out else view["deal_index"] + 1


def _last_trick_winner(view: dict, names: dict):
    last = view.get("last_trick")
    if not last or last.get("winner") is None:
        return None
    return seat_name(names[last["winner"]])


def match_context(sv: dict, me: int | None) -> dict:
    view = sv["view"]
    seat_count = len(sv["seats"])
    names = {s["index"]: s for s in sv["seats"]}
    card_choices = _card_choices(view)
    hand = [{"card": c, "choices": card_choices.get(c, []), "is_joker": c.startswith("X")} for c in view["hand"]]
    columns = []
    if view["variant"] == "japanese":
        # The opponent's columns across the table, mine next to my hand.
        for s in reversed(_relative_order(2, me)):
            cols = []
            for col in view["columns"][s] or []:
                if col is None:
                    cols.append(None)
                else:
                    up = col["up"]
                    cols.append({"card": up, "choices": card_choices.get(up, []) if s == me else [],
                                 "is_joker": up.startswith("X")})
            columns.append({"seat": s, "columns": cols, "mine": s == me, "name": names[s]["name"]})
    trick_by_seat = {entry["seat"]: entry for entry in view["trick"]}
    return {
        "sv": sv,
        "view": view,
        "deal_number": _deal_number(view),
        "last_trick_winner": _last_trick_winner(view, names),
        "me": me,
        "version": sv["version"],
        "my_turn": me is not None and view["to_act"] == me,
        "order": [names[i] | {"trick_card": trick_by_seat.get(i)} | _seat_facts(view, i)
                  for i in _relative_order(seat_count, me)],
        "sheet": score_sheet(view, sheet_names(sv["seats"]), me),
        "deal_summary": deal_summary(view, sheet_names(sv["seats"])),
        "hand": hand,
        "columns": columns,
        "bid_buttons": _bid_buttons(view) if me is not None and view["to_act"] == me else [],
        "trump_buttons": _trump_buttons(view) if me is not None and view["to_act"] == me else [],
        "suits": [{"value": s, "symbol": SUIT_SYMBOLS[s]} for s in SUITS],
        "suit_symbols": SUIT_SYMBOLS,
    }


def page_context(table, player) -> dict:
    """Everything the match fragment shows one player (the page and every live update)."""
    me = seat_of(table, player)
    sv = seat_view(table.match, me)
    return match_context(sv, me) | {
        "table": table,
        "rematch": rematch_offer(table, player),
        "match_end": match_end(sv, table, sheet_names(sv["seats"]), me),
    }


def match_page(request, table, player):
    return render(request, "games/match.html", page_context(table, player))


def rematch_offer(table, player) -> dict | None:
    """What the end of a finished match offers one of its players (one who resigned or
    left too): ask for a rematch, or join (or go back to) the rematch table somebody
    already opened."""
    from .models import TableStatus
    from .services.tables import played_at, waiting_rematch

    if table.status != TableStatus.FINISHED or not played_at(table.pk, player):
        return None
    waiting = waiting_rematch(table)
    return {
        "table": waiting,
        "seated": waiting is not None and waiting.seats.filter(player=player, left_at__isnull=True).exists(),
    }
