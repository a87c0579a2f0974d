"""The match page: the same seat view the JSON protocol sends, rendered as HTML."""

import math

from django.shortcuts import render
from django.utils.translation import gettext as _

from .card_faces import SUIT_SYMBOLS
from .engine import SUITS
from .engine_messages import message_for
from .services import spectators
from .services.matches import load_state
from .services.presenter import card_refusals, finished_trick, seat_of, seat_view
from .services.score_sheet import deal_summary, match_end, score_sheet, sheet_names
from .templatetags.cards import seat_label, seat_name

# Where each seat sits as the page draws it, counted from me (at the bottom) in play order:
# the next to play sits on my left, then across, then on my right.
SEAT_POSITIONS = {4: ("me", "left", "across", "right"), 2: ("me", "across")}


def _relative_order(seat_count: int, me: int | None) -> list[int]:
    """Seats in the order the page draws them: me first (bottom), then in play order."""
    start = me if me is not None else 0
    return [(start + i) % seat_count for i in range(seat_count)]


def seat_positions(seat_count: int, me: int | None) -> dict[int, str]:
    """Each seat's place at the table seen from `me` (a spectator sees it from seat 0)."""
    return dict(zip(_relative_order(seat_count, me), SEAT_POSITIONS[seat_count]))


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


def _bank_shown(seat: dict) -> dict:
    """The whole seconds of a seat's bank the page writes (the clock's own rounding: up)."""
    return {"bank_whole": math.ceil(seat["bank"]) if seat.get("bank") is not None else None}


HEAD_FACTS = ("trump", "trump_card", "phase", "variant", "deal_count", "cards_per_player", "pulka", "target")


def _turn_of(sv: dict, seat: int, me: int | None) -> dict:
    """Whether the seat is mine and whether it is to act, with its clock's deadlines when it is:
    everything of the view a seat's box shows, so that it is drawn once for all who see it
    (games/templatetags/pure_include.py)."""
    acting = sv["view"]["to_act"] == seat
    return {"mine": seat == me, "acting": acting,
            "turn_deadline": sv["turn_deadline"] if acting else None,
            "server_moves_at": sv["server_moves_at"] if acting else None}


def _deal_number(view: dict) -> int:
    """The deal shown in the header, counted from 1. Once the last deal is scored the
    engine already points past it; the header keeps naming the deal that was played.
    A match cut short (abort, resignation, forfeit) ended inside the deal at `deal_index`."""
    played_out = view["finished"] and not view.get("end")
    return max(view["deal_index"], 1) if played_out else view["deal_index"] + 1


def _lead_steps(actions: list[dict]) -> list[dict]:
    """A joker leading with a call and a suit to name, as two small steps: first the call
    ("high" / "let it take"), then the suit. One step (the suits alone) when there is one
    call, as in Japanese Joker; none when no suit is named (a joker played to a trick)."""
    if not any(action.get("suit") for action in actions):
        return []
    steps: dict[str, list[dict]] = {}
    for action in actions:
        steps.setdefault(action.get("joker") or "", []).append(action)
    return [{"mode": mode, "actions": suits} for mode, suits in steps.items()]


def _playable(card: str, choices: dict, refusals: dict) -> dict:
    """A card of mine as the page draws it: its moves when it is legal, else the engine's reason."""
    refusal = refusals.get(card)
    return {
        "card": card,
        "choices": choices.get(card, []),
        "lead_steps": _lead_steps(choices.get(card, [])),
        "is_joker": card.startswith("X"),
        "reason": message_for(refusal) if refusal is not None else None,
    }


def _trick_entries(cards: list[dict], positions: dict, names: dict) -> list[dict]:
    return [entry | {"pos": positions[entry["seat"]], "name": seat_name(names[entry["seat"]])} for entry in cards]


def _finished_trick(trick: dict | None, view_deal: int, positions: dict, names: dict) -> dict | None:
    """The last trick taken, with where its cards lie and who took it; `key` tells one trick
    from the next (the client holds a new one on the table before it goes to its winner)."""
    if not trick:
        return None
    winner = trick["winner"]
    return {
        "cards": _trick_entries(trick["cards"], positions, names),
        "winner": winner,
        "winner_pos": positions[winner],
        "winner_name": seat_name(names[winner]),
        "key": f"{trick['deal']}:{''.join(entry['play'] for entry in trick['cards'])}",
        "earlier_deal": trick["deal"] != view_deal,
    }


def _whose_move(view: dict, me: int | None, names: dict) -> str | None:
    """The sentence over the hand: your move (what to do), or whose move it is."""
    if view["finished"] or view["to_act"] is None:
        return None
    if me is not None and view["to_act"] == me:
        return {"trump": _("Your move: choose trump."), "bid": _("Your move: make your bid."),
                "play": _("Your move: play a card.")}.get(view["phase"], _("Your move."))
    return _("%(name)s to move.") % {"name": seat_name(names[view["to_act"]])}


def match_context(sv: dict, me: int | None, refusals: dict | None = None, last_taken: dict | None = None) -> dict:
    """What the match page draws of one seat's view. `refusals`: the engine's refusal of each
    card of mine I may not play now (presenter.card_refusals); `last_taken`: the last trick
    taken (presenter.finished_trick)."""
    view = sv["view"]
    refusals = refusals or {}
    seat_count = len(sv["seats"])
    names = {s["index"]: s for s in sv["seats"]}
    positions = seat_positions(seat_count, me)
    card_choices = _card_choices(view)
    hand = [_playable(c, card_choices, refusals) for c in view["hand"]]
    columns = []
    if view["variant"] == "japanese":
        # The opponent's columns across the table, mine next to my hand.
        for s in reversed(_relative_order(2, me)):
            cols = []
            for col in view["columns"][s] or []:
                if col is None:
                    cols.append(None)
                elif s == me:
                    cols.append(_playable(col["up"], card_choices, refusals))
                else:
                    cols.append({"card": col["up"], "choices": [], "is_joker": col["up"].startswith("X")})
            columns.append({"seat": s, "columns": cols, "mine": s == me, "name": seat_name(names[s]),
                            "pos": positions[s]})
    trick_by_seat = {entry["seat"]: entry for entry in view["trick"]}
    order = [names[i] | {"trick_card": trick_by_seat.get(i), "pos": positions[i], "label": seat_label(names[i])}
             | _seat_facts(view, i) | _bank_shown(names[i]) | _turn_of(sv, i, me) for i in _relative_order(seat_count, me)]
    my_turn = me is not None and view["to_act"] == me
    return {
        "sv": sv,
        "view": view,
        "deal_number": _deal_number(view),
        # What the header shows of the view (games/_match_facts.html): the same for every seat.
        "head_facts": {key: view.get(key) for key in HEAD_FACTS},
        "me": me,
        "version": sv["version"],
        "my_turn": my_turn,
        "whose_move": _whose_move(view, me, names),
        "order": order,
        "others": order[1:],
        "my_seat": order[0],  # mine, or for a spectator seat 0's, at the bottom
        "trick": _trick_entries(view["trick"], positions, names),
        "last_taken": _finished_trick(last_taken, view["deal_index"], positions, names),
        "sheet": score_sheet(view, sheet_names(sv["seats"]), me),
        "deal_summary": deal_summary(view, sheet_names(sv["seats"])),
        "hand": hand,
        "columns": columns,
        "bid_buttons": _bid_buttons(view) if my_turn else [],
        "trump_buttons": _trump_buttons(view) if my_turn else [],
        "suits": [{"value": s, "symbol": SUIT_SYMBOLS[s]} for s in SUITS],
        "suit_symbols": SUIT_SYMBOLS,
    }


def page_context(table, player, match=None, public=None, watching=None) -> dict:
    """Everything the match fragment shows `player` (a seat, or a spectator), the page
    and every live update alike (`match`: the table's match when the caller read it;
    `public`: its public seats and `watching` its count of spectators, shared by every
    seat's view of one read)."""
    match = match if match is not None else table.match
    me = seat_of(table, player)
    state = load_state(match)
    sv = seat_view(match, me, state=state, public=public)
    context = match_context(sv, me, card_refusals(state, me), finished_trick(sv["view"]))
    return context | advice_shown(table, match, sv, me, context["deal_summary"]) | {
        "table": table,
        "rematch": rematch_offer(table, player),
        "match_end": match_end(sv, table, sheet_names(sv["seats"]), me, match.end_reason),
        "spectators": spectators.count(table.pk) if watching is None else watching,
    }


def advice_shown(table, match, sv, me, summary) -> dict:
    """The hint button, the hint this seat asked for at this position and the review of the deal
    just over (games/services/hints.py keeps what was worked out): for a player at a casual table
    only. `review_offered` is the summary's review box (None: no box), its `review` None until
    the page has asked for it."""
    from .advice_words import hint_shown, review_shown
    from .models import MatchStatus
    from .services import hints

    if me is None or table.rated:
        return {"hint_offered": False, "hint": None, "review_offered": None}
    running = match.status == MatchStatus.RUNNING
    hint = hints.shown_hint(match.pk, sv["version"], me) if running and sv["view"]["to_act"] == me else None
    review_offered = None
    if table.variant == "classic" and summary and summary["fresh"]:
        deal = summary["number"] - 1
        kept = hints.shown_review(match.pk, deal, me)
        review_offered = {"deal": deal, "review": review_shown(kept) if kept else None}
    return {"hint_offered": running, "hint": hint_shown(hint) if hint else None, "review_offered": review_offered}


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
