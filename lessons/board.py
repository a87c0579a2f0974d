"""What the lesson table shows: a seat's engine view turned into template data.

Everything comes from `state.view(seat)`, the engine's one place that decides
what a seat may see. In a lesson every card of the learner's hand (and, in
Japanese Joker, of their face-up columns) is a button, legal or not: a wrong
card is how the learner meets the rule, and the engine explains the refusal.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import CARD_NAMES, SUITS

from .texts import SEAT_NAMES


def seat_name(players: list[str], seat: int) -> str:
    key = players[seat]
    return str(SEAT_NAMES[key]) if key in SEAT_NAMES else key


def _joker_menu(variant: str, card: str, seat: int, leading: bool) -> list[dict] | None:
    """The ways a joker can be played now, grouped for the menu (None: it is played as it is)."""
    if variant == "japanese":
        if not leading:
            return None
        return [{"label": _("Lead it and ask for"), "moves": [
            {"value": f"play {card} - {s}", "suit": s} for s in SUITS]}]
    if leading:
        return [
            {"label": _("Take (high), naming"), "mode": "take",
             "moves": [{"value": f"play {card} take {s}", "suit": s} for s in SUITS]},
            {"label": _("Discard (low), naming"), "mode": "discard",
             "moves": [{"value": f"play {card} discard {s}", "suit": s} for s in SUITS]},
        ]
    return [{"label": "", "moves": [
        {"value": f"play {card} take", "mode": "take"},
        {"value": f"play {card} discard", "mode": "discard"},
    ]}]


def _card_entry(card, variant, seat, leading, interactive, legal_cards, new_cards):
    is_joker = card.startswith("X")
    menu = _joker_menu(variant, card, seat, leading) if is_joker and interactive else None
    return {
        "card": card,
        "value": f"play {card}" if interactive and not menu else None,
        "menu": menu,
        "legal": card in legal_cards,
        "new": card in new_cards,
    }


def _trick_entries(trick: list[dict], names) -> dict:
    return {entry["seat"]: entry for entry in trick}


def build(state, seat: int, players: list[str], *, interactive: bool, show_legal: bool = False,
          completed_trick: bool = False, new_cards=()) -> dict | None:
    """Template data for the table as ``seat`` sees it; None when no deal is being played.

    ``completed_trick``: the learner's move just finished a trick; show that trick, and who took it,
    instead of the (empty) new one.
    """
    view = state.view(seat)
    if view["phase"] not in ("trump", "bid", "play"):
        return None
    variant = view["variant"]
    my_turn = view["to_act"] == seat
    interactive = interactive and my_turn
    legal = view["legal_actions"]
    legal_cards = {a["play"] for a in legal if "play" in a} if show_legal else set()
    leading = view["phase"] == "play" and not view["trick"]
    playing = interactive and view["phase"] == "play"

    trick = view["trick"]
    taken_by = None
    if completed_trick and not trick and view["last_trick"]:
        trick = view["last_trick"]["cards"]
        taken_by = view["last_trick"]["winner"]
    by_seat = _trick_entries(trick, players)

    count = len(players)
    order = [(seat + i) % count for i in range(count)]
    seats = []
    for s in order:
        facts = {
            "index": s,
            "name": seat_name(players, s),
            "is_me": s == seat,
            "tricks": view["tricks_taken"][s],
            "cards": view["hand_counts"][s],
            "to_act": view["to_act"] == s,
            "trick_card": by_seat.get(s),
            "took_trick": taken_by == s,
        }
        if variant == "classic":
            facts["bid"] = view["bids"][s]
            facts["is_dealer"] = view["dealer"] == s
        else:
            facts["is_declarer"] = view["declarer"] == s
        seats.append(facts)

    hand = [_card_entry(c, variant, seat, leading, playing, legal_cards, set(new_cards)) for c in view["hand"]]

    columns = []
    if variant == "japanese":
        for s in order:
            cols = []
            for col in view["columns"][s] or []:
                if col is None:
                    cols.append(None)
                else:
                    mine = s == seat
                    cols.append(_card_entry(col["up"], variant, seat, leading, playing and mine, legal_cards,
                                            set()))
            columns.append({"seat": s, "name": seat_name(players, s), "mine": s == seat, "columns": cols})

    bid_buttons = []
    if interactive and view["phase"] == "bid":
        forbidden = view.get("forbidden_bid")
        bid_buttons = [{"n": n, "value": f"bid {n}", "forbidden": n == forbidden}
                       for n in range((view.get("cards_per_player") or 0) + 1)]
    trump_buttons = []
    if interactive and view["phase"] == "trump":
        trump_buttons = [{"value": f"trump {t}", "suit": t} for t in (*SUITS, "none")]

    return {
        "variant": variant,
        "phase": view["phase"],
        "my_turn": my_turn,
        "interactive": interactive,
        "trump": view["trump"],
        "trump_card": view.get("trump_card"),
        "cards_per_player": view.get("cards_per_player"),
        "seats": seats,
        "hand": hand,
        "columns": columns,
        "bid_buttons": bid_buttons,
        "trump_buttons": trump_buttons,
        "taken_by": seat_name(players, taken_by) if taken_by is not None else None,
        "taken_by_me": taken_by == seat,
        "last_trick": None if completed_trick or not view["last_trick"] else {
            "cards": view["last_trick"]["cards"],
            "winner": seat_name(players, view["last_trick"]["winner"]),
        },
    }


def score_rows(state, players: list[str], conceal=()) -> dict | None:
    """The score sheet of the finished deals (and pulkas), rows ready for a table; None if none yet.

    ``conceal`` hides parts a quiz asks about: "scores" (deal scores), "bonus" (premium and
    moshla), "totals".
    """
    sheet = state.score_sheet()
    if not sheet["deals"]:
        return None
    seats = len(players)
    pulkas = {p["pulka"]: p for p in sheet.get("pulkas", [])}
    rows = []
    for i, deal in enumerate(sheet["deals"]):
        bids = deal.get("bids")
        khishti = deal.get("khishti") or [False] * seats
        rows.append({
            "kind": "deal",
            "number": deal["deal"] + 1,
            "cards": deal.get("cards"),
            "trump": deal["trump"],
            "cells": [{"bid": bids[s] if bids else None, "tricks": deal["tricks"][s], "score": deal["scores"][s],
                       "khishti": bool(khishti[s])} for s in range(seats)],
        })
        following = sheet["deals"][i + 1].get("pulka") if i + 1 < len(sheet["deals"]) else None
        pulka = pulkas.get(deal.get("pulka"))
        if pulka is not None and following != deal.get("pulka"):
            rows.append({
                "kind": "pulka",
                "number": pulka["pulka"] + 1,
                "cells": [{"premium": pulka["premium"][s], "moshla": pulka["moshla"][s]} for s in range(seats)],
            })
    return {
        "variant": state.variant,
        "hide_scores": "scores" in conceal,
        "hide_bonus": "bonus" in conceal,
        "hide_totals": "totals" in conceal,
        "names": [seat_name(players, s) for s in range(seats)],
        "rows": rows,
        "totals": sheet["totals"],
    }


def action_words(record: dict, players: list[str]) -> dict | None:
    """A move for the page to put in words (card, joker mode and named suit; bid; trump), or None
    for a record that is not a move at all."""
    if not isinstance(record, dict) or not ({"play", "bid", "trump"} & set(record)):
        return None
    sound = (
        record.get("play", "AS") in CARD_NAMES
        and record.get("suit", "S") in SUITS
        and record.get("joker", "take") in ("take", "discard", None)
        and record.get("trump", "none") in (*SUITS, "none")
        and isinstance(record.get("bid", 0), int)
    )
    return {**record, "seat": seat_name(players, record["seat"])} if sound else None
