"""The review of a finished classic deal for one seat (pure Python, no Django).

API::

    review_deal(record, deal, seat, playouts=PLAYOUTS, effort=PLAYOUT_EFFORT, level=ADVICE_LEVEL,
                playout_level=PLAYOUT_LEVEL)
    # -> DealReview(bids, tricks, made, moment)
    play_out(state, first, seat, rng)   # -> (the seat's points, bid made) of one move played out

Every card dealt in a classic deal is played, so once the deal is over its hands are
public: the review replays the finished deal from the match's record (``joker-record/1``)
and, at each of the seat's decisions, compares what the player did with what the advice
level would have done by playing the rest of the deal out on the true cards, the bot at
every seat, ``playouts`` times each (different seeds). The decision whose advised move
gained the most on average is "the moment" — when it gained at least ``MOMENT_POINTS``. A
move is weighed by the points it brings (``classic.points_by_deal``): the deal's score and,
on a pulka's last deal, the premium or moshla it wins or saves, so that a move that kept a
pulka's premium is not blamed for a few points of the deal.

A Japanese deal ends with cards still face down: they are never public, so a Japanese
deal is not reviewed (``ValueError``). docs/bot.md, "Advice".
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import Bid, ChooseTrump, Play, action_from_record
from .advice import ADVICE_LEVEL, Reason, reason_for, situation_of
from .bot import CLUB, choose_action
from .classic import points_by_deal
from .common import history_entry_to_record
from .record import state_from_record

PLAYOUTS = 4  # play-outs of each of the two moves compared at a decision
PLAYOUT_EFFORT = 0.1  # the bot's effort inside a play-out (1.0: a live decision's full budget)
# Who plays the play-outs: the club (the master's larger search would cost a review seconds;
# the compared moves are the advice's own, at its level).
PLAYOUT_LEVEL = CLUB
MOMENT_POINTS = 20  # a smaller mean gain is the play-outs' noise, not a moment
FATE_CODES = ("fate_took", "fate_joker", "fate_trump", "fate_higher")  # what became of the player's card


@dataclass(frozen=True)
class Moment:
    """The decision of the deal that cost the most: where it was, the two moves and their play-outs."""

    trick: int | None  # 1-based trick of a card; None for a bid or the trump choice
    played: object  # the player's action
    advised: object  # the advice level's action
    played_points: float  # mean points of the player's move, played out (the deal's, a pulka's end's)
    advised_points: float
    played_made: int  # play-outs in which the bid was made
    advised_made: int
    playouts: int
    situation: Reason | None  # the seat's situation then, and why the advised move (advice.py)
    reason: Reason
    fate: Reason | None  # what became of the player's card in the real deal


@dataclass(frozen=True)
class DealReview:
    deal: int
    seat: int
    bids: list  # per seat (None in golden and misère)
    tricks: list[int]
    made: list[bool | None]  # per seat: took their bid (None without bids)
    moment: Moment | None
    decisions: int  # the seat's decisions compared with the advice
    differed: int  # of them, those where the advice was another move


def review_deal(record: dict, deal: int, seat: int, playouts: int = PLAYOUTS, effort: float = PLAYOUT_EFFORT,
                level: str = ADVICE_LEVEL, playout_level: str = PLAYOUT_LEVEL) -> DealReview:
    """The review of deal ``deal`` (0-based) of the match ``record`` for ``seat``: the advice
    (``level``) at each of the seat's decisions, each way played out by ``playout_level``."""
    if record.get("variant") != "classic":
        raise ValueError("only a classic deal is reviewed: a Japanese deal's face-down cards stay hidden")
    deals = record["deals"]
    if not 0 <= deal < len(deals):
        raise ValueError(f"no deal {deal}")
    state, actions = _start_of_deal(record, deal)
    if not _finished(state, actions):
        raise ValueError(f"deal {deal} is not finished")
    best = None
    decisions = differed = 0
    for index, rec in enumerate(actions):
        action = action_from_record(rec)
        if action.seat == seat and len(state.legal_actions(seat)) > 1:
            candidate = _compare(state, seat, action, actions, index, playouts, effort, level, playout_level)
            decisions += 1
            differed += candidate is not None
            if candidate is not None and (best is None or _gain(candidate) > _gain(best)):
                best = candidate
        state.apply(action)
    result = state.score_sheet()["deals"][deal]
    bids = result["bids"]
    made = [None if bids is None else bids[s] == result["tricks"][s] for s in range(4)]
    moment = best if best is not None and _gain(best) >= MOMENT_POINTS else None
    return DealReview(deal, seat, bids, list(result["tricks"]), made, moment, decisions, differed)


def _gain(moment: Moment) -> float:
    return moment.advised_points - moment.played_points


def _start_of_deal(record: dict, deal: int):
    """The state just dealt deal ``deal`` (replayed from the record) and that deal's actions."""
    head = {key: value for key, value in record.items() if key not in ("deals", "end")}
    deals = record["deals"]
    target = deals[deal]
    state = state_from_record({**head, "deals": [*deals[:deal], {**target, "actions": []}]})
    return state, target["actions"]


def _finished(state, actions) -> bool:
    probe = state.copy()
    deal = probe.deal_index
    probe.apply_records(actions)
    return probe.deal_index != deal or probe.to_act is None


def _same(a, b) -> bool:
    """The same move; the two jokers are alike."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Play) and a.card[0] == "X" and b.card[0] == "X":
        return (a.joker, a.suit) == (b.joker, b.suit)
    return a == b


def _compare(state, seat, played, actions, index, playouts, effort, level, playout_level) -> Moment | None:
    """The player's move against the advice's at this position, each played out ``playouts`` times;
    None when the advice is the player's move."""
    view = state.view(seat)
    advised = choose_action(state, seat, level=level)  # the live hint's move, at its full effort
    if _same(advised, played):
        return None
    seed = state.move_count * 7919 + seat
    played_scores = [play_out(state, played, seat, random.Random(seed + k), effort, playout_level)
                     for k in range(playouts)]
    advised_scores = [play_out(state, advised, seat, random.Random(seed + k), effort, playout_level)
                      for k in range(playouts)]
    return Moment(
        trick=_trick_number(state) if isinstance(played, Play) else None,
        played=played, advised=advised,
        played_points=sum(s for s, _ in played_scores) / playouts,
        advised_points=sum(s for s, _ in advised_scores) / playouts,
        played_made=sum(made for _, made in played_scores),
        advised_made=sum(made for _, made in advised_scores),
        playouts=playouts,
        situation=situation_of(view), reason=reason_for(view, advised),
        fate=_fate(state, played, actions, index),
    )


def _trick_number(state) -> int:
    return sum(state.taken) + 1


def play_out(state, first, seat, rng, effort=PLAYOUT_EFFORT, level=PLAYOUT_LEVEL) -> tuple[int, bool]:
    """(the seat's points, whether it made its bid) when ``first`` is played now and the bot
    plays every seat to the deal's end: its deal score and, when the deal ends a pulka, the
    pulka's premium or moshla."""
    probe = state.copy()
    deal = probe.deal_index
    probe.apply(first)
    while probe.deal_index == deal and probe.to_act is not None:
        probe.apply(choose_action(probe, probe.to_act, rng=rng, effort=effort, level=level))
    sheet = probe.score_sheet()
    row = sheet["deals"][deal]
    bids = row["bids"]
    made = bids is not None and bids[seat] == row["tricks"][seat]
    return points_by_deal(sheet)[deal][seat], made


def _fate(state, played, actions, index) -> Reason | None:
    """What became of the player's card in the real deal: taken by a trump, a joker or a higher
    card; None for a bid, a trump choice or a card that took its trick."""
    if isinstance(played, (Bid, ChooseTrump)):
        return None
    probe = state.copy()
    trump = state.trump
    trick_before = sum(probe.taken)
    probe.apply(played)
    for rec in actions[index + 1:]:
        if sum(probe.taken) > trick_before or probe.to_act is None:
            break
        probe.apply_record(rec)
    last = probe.last_trick
    if last is None:
        return None
    entries, winner = last
    if winner == played.seat:
        return Reason("fate_took", {"card": played.card})
    winning = next(entry for entry in entries if entry[1] == winner)
    card = history_entry_to_record(winning)["play"]
    if card[0] == "X":
        return Reason("fate_joker", {"card": played.card})
    if trump not in (None, "none") and card[1] == trump and played.card[1:] != trump:
        return Reason("fate_trump", {"card": played.card, "by": card})
    return Reason("fate_higher", {"card": played.card, "by": card})
