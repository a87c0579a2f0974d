"""From the engine's seat view to what a page shows.

`seat_view` is the one function that decides what a client receives: it asks
the engine for `view(seat)` (the only place where hidden information is
decided) and adds the table's public facts. The browser renders it as HTML,
the JSON protocol sends it as it is.
"""



from ..engine import IllegalAction, Play
from ..fairness import public_commitments
from ..models import Match, MatchStatus, Table
from . import clocks, shown_ratings
from .matches import held_seat, load_state, may_berserk
from .results import standings


def seat_of(table: Table, player) -> int | None:
    return held_seat(table.seats.all(), player)


def _seats_with_players(table: Table, seats=None):
    """The table's seats in order: `seats` when the caller read them, else from a prefetch
    when the caller made one (no query), else from the database."""
    if seats is not None:
        return sorted(seats, key=lambda seat: seat.index)
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return sorted(table.seats.all(), key=lambda seat: seat.index)
    return table.seats.select_related("player__user").order_by("index")


def public_seats(table: Table, seats=None, ratings=None) -> list[dict]:
    """`ratings`: `seat_ratings` of these seats, when the caller holds them."""
    seats = list(_seats_with_players(table, seats))
    ratings = seat_ratings(table, seats) if ratings is None else ratings
    public = []
    for seat in seats:
        public.append({
            "index": seat.index,
            "name": seat.player.display_name_text if seat.player_id else None,
            "is_bot": seat.is_bot or seat.left_at is not None,
            # A practice bot's level (a leaver's seat is played by the club bot under the player's name).
            "bot_level": table.bot_level if seat.is_bot else None,
            "left": seat.left_at is not None,
            "connected": seat.connections > 0 or seat.is_bot,
            "grace_until": clocks.grace_deadline(seat.disconnected_at).isoformat()
            if seat.disconnected_at and not seat.left_at else None,
            "rating": ratings.get(seat.index),
            "bank": public_bank(table, seat),
            "berserk": seat.berserk,  # the bank halved before the first move (⚔)
        })
    return public


def public_bank(table: Table, seat) -> float | None:
    """Seconds left of the seat's bank (None at a table without one); for the seat to act,
    as at the start of its move: it runs down once the move time is over."""
    return round(clocks.bank_left_ms(table, seat) / 1000, 1) if table.bank_seconds else None


def public_seats_after_move(public: list[dict], table: Table, seats) -> list[dict]:
    """`public_seats` of a read after a move changed only the seats' clock fields: the same
    facts with each seat's bank as it is now (games/services/matches.py, `after_move`)."""
    by_index = {seat.index: seat for seat in seats}
    return [{**entry, "bank": public_bank(table, by_index[entry["index"]]), "berserk": by_index[entry["index"]].berserk}
            for entry in public]


def _with_result(view: dict, match: Match, state, seats) -> dict:
    """The engine's view with the result of a finished match as games/services/results.py
    decides it: the engine ranks by totals alone, but a classic player who left is last."""
    if match.status != MatchStatus.FINISHED:
        return view
    result = standings(match, state, seats)
    view["winner"] = result.winners
    if "ranking" in view:
        view["ranking"] = result.places
    view["places"] = result.places
    return view


def seat_ratings(table: Table, seats) -> dict[int, dict]:
    """{seat index: {"value", "provisional", "rated_matches"}} for the members' seats (bots and
    guests have none), read through the ratings cache: no query on most moves."""
    members = [seat for seat in seats if seat.player_id and not seat.player.is_guest]
    shown = shown_ratings.cached([(seat.player_id, table.variant) for seat in members])
    return {seat.index: shown[(seat.player_id, table.variant)].as_dict() for seat in members
            if (seat.player_id, table.variant) in shown}



def seat_view(match: Match, seat: int | None, state=None, seats=None, public=None) -> dict:
    """The complete state one seat may see, with the match's version (`seats`: the table's
    seats with their players, when the caller has read them; `public`: their
    `public_seats`, the same for every seat, when the caller keeps them for several views)."""
    state = state if state is not None else load_state(match)
    table = match.table
    deadline = None
    if match.status == MatchStatus.RUNNING and match.turn_started_at and state.to_act is not None:
        deadline = clocks.move_deadline(match.turn_started_at, table.clock_seconds).isoformat()
    seat_rows = list(_seats_with_players(table, seats))
    return {
        "match": match.pk,
        "table": table.pk,
        "version": match.version,
        "status": match.status,
        "view": _with_result(state.view(seat), match, state, seat_rows),
        "seats": public if public is not None else public_seats(table, seat_rows),
        "clock_seconds": table.clock_seconds,
        "bank_seconds": table.bank_seconds,
        "turn_deadline": deadline,
        # When the server moves for the seat to act: the move time, then its bank.
        "server_moves_at": match.deadline_at.isoformat() if deadline and match.deadline_at else None,
        "commitments": public_commitments(match),
        "stake": table.stake,
        "berserk_open": may_berserk(match, seat_rows),  # a player may still halve their bank
    }


def card_refusals(state, seat: int | None) -> dict:
    """For each card `seat` holds (or shows face up) but may not play now, the engine's own
    refusal of that play: {card: IllegalAction}. The page shows it as the card's reason,
    the same refusal the engine would send had the card been played."""
    if seat is None:
        return {}
    view = state.view(seat)
    columns = (view.get("columns") or [None, None])[seat] if view["variant"] == "japanese" else None
    cards = list(view["hand"]) + [col["up"] for col in columns or [] if col is not None]
    legal = {action["play"] for action in view["legal_actions"] if "play" in action}
    probe = state.copy()  # an illegal move leaves the state as it was; the copy keeps the caller's safe
    refusals = {}
    for card in cards:
        if card in legal:
            continue
        try:
            probe.apply(_play_probe(view, seat, card))
        except IllegalAction as error:
            # Kept without its traceback: through its frames it referred back to this dict, a
            # cycle that only the garbage collector's full passes freed (joker_site/heap.py).
            refusals[card] = error.with_traceback(None)
        else:  # pragma: no cover - the engine listed every legal play; never reached
            raise AssertionError(f"{card} was playable but not among the legal actions")
    return refusals


def _play_probe(view: dict, seat: int, card: str) -> Play:
    """The play of `card` as a person would make it; a joker with the call it would need."""
    if not card.startswith("X"):
        return Play(seat, card)
    leading = view["phase"] == "play" and not view["trick"]
    joker = "take" if view["variant"] == "classic" else None
    return Play(seat, card, joker, "S" if leading else None)


def finished_trick(view: dict) -> dict | None:
    """The last trick taken, as the table shows it: the view's `last_trick` ({"cards", "winner",
    "deal"}): within a deal its own last trick, and from a new deal's dealing until its first card
    the previous deal's final trick (the engine's perfect recall across the deal boundary)."""
    trick = view.get("last_trick")
    return trick if trick and trick.get("cards") else None
