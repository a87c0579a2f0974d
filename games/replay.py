"""Replaying a finished match step by step from its `joker-record/1` document.

A step is one thing that happened, in order: a deal being dealt, then each of
its actions (trump choice, bid, card), and at the very end the record's early
`end` (resignation, forfeit, abort) if it has one. The position after a step is
what the engine says after replaying the record up to that step
(`engine.state_from_record` on the record cut there), so the replay can never
disagree with the rules: every hand comes from `state.hand(seat)`, the tricks,
bids, trump and scores from the same state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import engine
from .card_faces import display_order
from .engine import JOKERS
from .engine.classic import PLANS
from .engine.common import trick_to_public


@dataclass(frozen=True)
class StepPlace:
    deal: int  # index of the deal in the record
    action: int | None  # index of the action just made; None: the deal has just been dealt
    end: bool = False  # the record's early end


def step_places(record: dict) -> list[StepPlace]:
    places = []
    for d, deal in enumerate(record["deals"]):
        places.append(StepPlace(d, None))
        places.extend(StepPlace(d, a) for a in range(len(deal["actions"])))
    if record.get("end") is not None and places:
        last = places[-1]
        places.append(StepPlace(last.deal, last.action, end=True))
    return places


def deal_starts(record: dict) -> list[int]:
    """The step at which each deal is dealt."""
    starts, step = [], 0
    for deal in record["deals"]:
        starts.append(step)
        step += 1 + len(deal["actions"])
    return starts


def record_up_to(record: dict, place: StepPlace) -> dict:
    """The record cut right after `place` (a game in progress, as docs/record-format.md allows)."""
    deals = [dict(d) for d in record["deals"][: place.deal + 1]]
    last = deals[-1]
    last["actions"] = list(last["actions"][: 0 if place.action is None else place.action + 1])
    cut = {k: v for k, v in record.items() if k not in ("deals", "end")}
    cut["deals"] = deals
    if place.end:
        cut["end"] = record["end"]
    return cut


@dataclass
class SeatPosition:
    index: int
    name: str
    hand: list[str]
    seen_first: list[str] = field(default_factory=list)  # 9-card deals: the three cards seen before trump
    columns: list[dict] = field(default_factory=list)  # Japanese: {down, up} still on the table
    bid: int | None = None
    tricks: int = 0
    total: int = 0
    is_dealer: bool = False
    is_declarer: bool = False
    to_act: bool = False
    trick_card: dict | None = None
    took_trick: bool = False


@dataclass
class Position:
    step: int
    step_count: int
    variant: str
    deal_index: int
    deal_count: int | None  # classic: deals in the game; Japanese: None (played to a target)
    cards_per_player: int
    pulka: int | None
    pulka_kind: str | None
    trump: str | None
    trump_card: str | None
    phase: str
    action: dict | None  # the record action of this step (None when the step is a deal or the end)
    actor: str | None  # who made it
    end: dict | None  # the record's early end, on its step
    seats: list[SeatPosition]
    trick_winner: int | None  # set when this step's card completed a trick
    deal_over: bool
    deal_result: dict | None  # the score sheet row of a completed deal
    score_sheet: dict
    totals: list[int]
    finished: bool
    winners: list[int]
    target: int | None


def _deal_facts(record: dict, deal_index: int) -> dict:
    variant = record["variant"]
    deal = record["deals"][deal_index]
    if variant == "classic":
        game_type = (record.get("options") or {}).get("game_type", "standard")
        spec = PLANS[game_type][deal_index]
        return {"deal_count": len(PLANS[game_type]), "pulka": spec.pulka, "pulka_kind": spec.kind,
                "cards_per_player": spec.cards, "trump_card": deal.get("trump_card")}
    return {"deal_count": None, "pulka": None, "pulka_kind": None, "cards_per_player": len(deal["hands"][0]),
            "trump_card": None}


def _columns_on_table(deal: dict, state, seat: int) -> list[dict]:
    """Japanese: the columns still on the table; a column is there while its face-up card is."""
    face_up = set(state.face_up(seat))
    return [{"down": down, "up": up, "on_table": up in face_up} for down, up in deal["columns"][seat]]


def position_at(record: dict, step: int, names: list[str] | None = None) -> Position:
    """The position after `step` (0 = the first deal just dealt). Raises IndexError for a step out of range.
    `names`: the seats' names as the page shows them (default: the record's)."""
    places = step_places(record)
    if not 0 <= step < len(places):
        raise IndexError(step)
    place = places[step]
    state = engine.state_from_record(record_up_to(record, place))
    variant = record["variant"]
    deal = record["deals"][place.deal]
    action = deal["actions"][place.action] if place.action is not None and not place.end else None
    facts = _deal_facts(record, place.deal)
    deal_over = len(state.results) > place.deal
    trick, winner = state.trick, None
    if action is not None and "play" in action and not state.trick and state.last_trick is not None:
        trick, winner = state.last_trick  # this card completed the trick: show it with its taker
    trick_by_seat = {rec["seat"]: rec for rec in trick_to_public(trick)}
    choosing_trump = state.phase is engine.Phase.TRUMP
    names = names or record["players"]
    seats = []
    for s in range(state.seats):
        seat = SeatPosition(index=s, name=names[s], hand=display_order(state.hand(s)), total=state.totals[s],
                            tricks=state.taken[s], to_act=state.to_act == s, trick_card=trick_by_seat.get(s),
                            took_trick=winner == s)
        if choosing_trump:
            seat.seen_first = list(deal["hands"][s][:3])
        if variant == "classic":
            seat.bid = state.bids[s]
            seat.is_dealer = deal["dealer"] == s
        else:
            seat.is_declarer = deal["declarer"] == s
            seat.columns = _columns_on_table(deal, state, s)
        seats.append(seat)
    sheet = state.score_sheet()
    deal_result = next((row for row in sheet["deals"] if row["deal"] == place.deal), None) if deal_over else None
    return Position(
        step=step,
        step_count=len(places),
        variant=variant,
        deal_index=place.deal,
        deal_count=facts["deal_count"],
        cards_per_player=facts["cards_per_player"],
        pulka=facts["pulka"],
        pulka_kind=facts["pulka_kind"],
        trump=state.trump,
        trump_card=facts["trump_card"],
        phase=state.phase.value,
        action=action,
        actor=names[action["seat"]] if action is not None else None,
        end=record["end"] if place.end else None,
        seats=seats,
        trick_winner=winner,
        deal_over=deal_over,
        deal_result=deal_result,
        score_sheet=sheet,
        totals=list(state.totals),
        finished=state.is_over(),
        winners=state.winners(),
        target=(record.get("options") or {}).get("target", 21) if variant == "japanese" else None,
    )


def is_joker(card: str) -> bool:
    return card in JOKERS
