"""The score sheet, the summary after a deal and the end of a match, as pages show them.

Every number here comes from the engine's view (`view["score_sheet"]`, the live deal's
bids and tricks, `ranking`, `winner`): nothing re-applies a rule. What this module adds is
the shape a Georgian player's paper sheet has (deals grouped by pulka, a subtotal line
under each pulka, the running total) and which cell of a pulka a premium doubled or a
moshla struck out (the engine says by how much; the cell is the deal with that score).
"""

from __future__ import annotations

from coins.models import Account, Entry

from .results import EVERYONE_LEFT, RESIGNED, WALKED_OUT, how_left


def sheet_names(seats: list[dict]) -> list[str]:
    """The sheet's column headings, by seat: the player's name or "Bot 2"…, as at the table."""
    from ..templatetags.cards import seat_name

    return [seat_name(seat) for seat in sorted(seats, key=lambda s: s["index"])]


def score_sheet(view: dict, names: list[str], me: int | None = None, live: bool = True) -> dict:
    """The sheet of a match (`live`: with the deal in play as its last, highlighted row)."""
    players = [{"index": i, "name": name, "me": i == me} for i, name in enumerate(names)]
    shape = {"players": players, "columns": 1 + 3 * len(players)}  # the deal, then three per player
    if view["variant"] == "classic":
        return {"variant": "classic", **shape, **_classic_sheet(view, live)}
    return {"variant": "japanese", **shape, **_japanese_sheet(view, live)}


# --- classic ---------------------------------------------------------------------------


def _classic_sheet(view: dict, live: bool) -> dict:
    sheet = view["score_sheet"]
    pulka_results = {p["pulka"]: p for p in sheet["pulkas"]}
    pulkas: list[dict] = []
    for deal in sheet["deals"]:
        if not pulkas or pulkas[-1]["index"] != deal["pulka"]:
            pulkas.append(_pulka_heading(deal["pulka"], deal["kind"]))
        pulkas[-1]["deals"].append(_classic_row(deal))
    current = _current_classic_row(view) if live else None
    if current is not None:
        if not pulkas or pulkas[-1]["index"] != view["pulka"]:
            pulkas.append(_pulka_heading(view["pulka"], view["pulka_kind"]))
        pulkas[-1]["deals"].append(current)
    before = [0] * len(sheet["totals"])
    for pulka in pulkas:
        result = pulka_results.get(pulka["index"])
        if result is not None:
            pulka["result"] = _pulka_result(result, pulka["deals"], before)
            before = result["running_totals"]
    return {"pulkas": pulkas, "totals": sheet["totals"], "current_deal": current["number"] if current else None}


def _pulka_heading(index: int, kind: str) -> dict:
    return {"index": index, "number": index + 1, "kind": kind, "deals": [], "result": None}


def _classic_row(deal: dict) -> dict:
    bids = deal["bids"]
    cells = [_classic_cell(bids[s] if bids is not None else None, deal["tricks"][s], deal["scores"][s],
                           deal["khishti"][s], deal["dealer"] == s) for s in range(len(deal["scores"]))]
    return _deal_line(deal["deal"], deal["cards"], deal["trump"], deal["dealer"], cells, current=False)


def _current_classic_row(view: dict) -> dict | None:
    """The deal in play: its bids so far and the tricks taken so far, no score yet."""
    if view["phase"] not in ("trump", "bid", "play"):
        return None
    bidding = view["pulka_kind"] in ("normal", "no_trump", "dark")
    cells = [_classic_cell(view["bids"][s] if bidding else None, view["tricks_taken"][s], None, False,
                           view["dealer"] == s) for s in range(len(view["bids"]))]
    return _deal_line(view["deal_index"], view["cards_per_player"], view["trump"], view["dealer"], cells, current=True)


def _deal_line(index: int, cards: int, trump, dealer: int, cells: list[dict], current: bool) -> dict:
    return {"number": index + 1, "cards": cards, "trump": trump, "dealer": dealer, "current": current, "cells": cells}


def _classic_cell(bid, tricks, score, khishti, dealer) -> dict:
    """One player's line of a deal; `premium` and `struck` are set once the pulka is scored."""
    return {"bid": bid, "tricks": tricks, "score": score, "khishti": khishti, "dealer": dealer,
            "premium": False, "struck": False}


def _pulka_result(result: dict, rows: list[dict], before: list[int]) -> dict:
    """A pulka's subtotal line; marks the deal a premium counted twice and the one a moshla struck."""
    played = [row for row in rows if not row["current"]]
    cells = []
    for s, after in enumerate(result["running_totals"]):
        premium, moshla = result["premium"][s], result["moshla"][s]
        if premium:
            _mark_best(played, s, premium, "premium")
        if moshla:
            _mark_best(played, s, -moshla, "struck")
        cells.append({"subtotal": after - before[s], "premium": premium, "moshla": moshla,
                      "closed": result["closed"][s], "running": after})
    return {"cells": cells}


def _mark_best(rows: list[dict], seat: int, score: int, mark: str) -> None:
    """The first deal of the pulka where `seat` scored `score` (its best) gets `mark`."""
    for row in rows:
        if row["cells"][seat]["score"] == score:
            row["cells"][seat][mark] = True
            return


# --- Japanese --------------------------------------------------------------------------


def _japanese_sheet(view: dict, live: bool) -> dict:
    sheet = view["score_sheet"]
    rows = [
        {"number": deal["deal"] + 1, "declarer": deal["declarer"], "trump": deal["trump"], "current": False,
         "cells": [{"tricks": t, "score": p, "running": r}
                   for t, p, r in zip(deal["tricks"], deal["scores"], deal["running_totals"])]}
        for deal in sheet["deals"]
    ]
    in_play = live and not view["finished"] and view["phase"] in ("trump", "play")
    if in_play:
        rows.append({"number": view["deal_index"] + 1, "declarer": view["declarer"], "trump": view["trump"],
                     "current": True,
                     "cells": [{"tricks": t, "score": None, "running": None} for t in view["tricks_taken"]]})
    return {"deals": rows, "totals": sheet["totals"], "target": view["target"],
            "current_deal": rows[-1]["number"] if in_play else None}


# --- between deals ---------------------------------------------------------------------


def deal_summary(view: dict, names: list[str]) -> dict | None:
    """What the table shows after a deal: the last scored deal, and for classic its pulka's
    premium and moshla when it closed the pulka. `fresh`: no card of the next deal is on the
    table yet (or the match is over): the summary lies where the trick will be until then."""
    deals = view["score_sheet"]["deals"]
    if not deals:
        return None
    last = deals[-1]
    seats = range(len(last["scores"]))
    summary = {
        "number": last["deal"] + 1,
        "trump": last["trump"],
        "fresh": view["finished"] or _no_card_played_yet(view),
        "players": [{"index": s, "name": names[s], "tricks": last["tricks"][s], "score": last["scores"][s],
                     "running": last["running_totals"][s]} for s in seats],
        "pulka": None,
    }
    if view["variant"] == "classic":
        summary["cards"] = last["cards"]
        for s in seats:
            summary["players"][s]["bid"] = last["bids"][s] if last["bids"] is not None else None
            summary["players"][s]["khishti"] = last["khishti"][s]
        pulka = next((p for p in view["score_sheet"]["pulkas"] if p["pulka"] == last["pulka"]), None)
        if pulka is not None:
            summary["pulka"] = {"number": pulka["pulka"] + 1}
            for s in seats:
                summary["players"][s] |= {"premium": pulka["premium"][s], "moshla": pulka["moshla"][s],
                                          "running": pulka["running_totals"][s]}
    return summary


def _no_card_played_yet(view: dict) -> bool:
    return not view["trick"] and not any(view["tricks_taken"])


# --- the end of a match ----------------------------------------------------------------


def final_standings(view: dict, seats: list[dict]) -> list[dict]:
    """Who finished where, best first: the ONE place the end screen learns places and winners.

    Today the engine's `ranking` (classic, equal totals share a place) and `winner`;
    a service deciding places with leavers counted last can take its place here."""
    ranking = view.get("ranking")
    winners = set(view["winner"])
    rows = []
    for seat in sorted(seats, key=lambda s: s["index"]):
        s = seat["index"]
        place = ranking[s] if ranking else (1 if s in winners else 2)
        rows.append({"index": s, "place": place, "winner": s in winners, "total": view["totals"][s],
                     "left": seat.get("left", False)})
    return sorted(rows, key=lambda row: (row["place"], row["index"]))


def coins_by_seat(table, seat_users: dict[int, int]) -> dict[int, int]:
    """What each seat's player won (+) or lost (−) at this table, read from the coin ledger:
    credits to their wallet minus debits from it, for the entries of this table."""
    if not table.stake or not seat_users:
        return {}
    wallets = dict(Account.objects.filter(user_id__in=seat_users.values(), kind=Account.Kind.WALLET)
                   .values_list("user_id", "pk"))
    net = {wallet: 0 for wallet in wallets.values()}
    for debit, credit, amount in Entry.objects.filter(table_id=table.pk).values_list("debit_id", "credit_id", "amount"):
        if credit in net:
            net[credit] += amount
        if debit in net:
            net[debit] -= amount
    return {seat: net[wallets[user]] for seat, user in seat_users.items() if user in wallets}


def match_end(sv: dict, table, names: list[str], me: int | None = None, end_reason: str = "") -> dict | None:
    """The end screen of a finished match: places, final totals, coins, links (`end_reason`:
    the match's, which says why an aborted match stopped)."""
    view = sv["view"]
    if not view["finished"]:
        return None
    aborted = (view.get("end") or {}).get("reason") == "abort"
    coins = coins_by_seat(table, _seat_users(table)) if table.stake else {}  # a free table moved no coins
    standings = [] if aborted else final_standings(view, sv["seats"])
    # Resigning is said as such, never as walking out (results.how_left, docs/conduct.md).
    left_how = {seat.index: how_left(seat) for seat in table.seats.all()} if standings else {}
    for row in standings:
        row["name"] = names[row["index"]]
        row["coins"] = coins.get(row["index"])
        row["resigned"] = left_how.get(row["index"]) == RESIGNED
        row["walked_out"] = left_how.get(row["index"]) == WALKED_OUT
    return {
        "aborted": aborted,
        "everyone_left": aborted and end_reason == EVERYONE_LEFT,
        "standings": standings,
        "winners": [names[s] for s in view["winner"]],
        "stake": table.stake,
        "my_coins": coins.get(me),
        "my_coins_lost": -coins.get(me, 0),
    }


def _seat_users(table) -> dict[int, int]:
    return {seat.index: seat.player.user_id for seat in table.seats.select_related("player")
            if seat.player_id and seat.player.user_id}
