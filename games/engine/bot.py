"""The Joker bot: a legal, sensible player for classic and Japanese Joker (pure Python, no Django).

API::

    choose_action(state, seat, rng=None, effort=1.0)  # -> ChooseTrump | Bid | Play, a legal action
    observe(state, seat)          # -> ClassicObservation | JapaneseObservation: all the bot may know
    decide(observation, rng=None, effort=1.0)         # -> the action, decided from the observation alone

``rng`` is any ``random.Random``-like object; without one the bot seeds its
own from public facts of the position, so a position always gets the same
answer. It serves practice tables, the classic seat of a player who left and
the move the server makes when a clock runs out.

What the bot sees
    ``observe`` builds the observation from ``state.view(seat)`` (own hand,
    trump, turned card, bids, tricks taken, hand counts, the trick on the
    table, both players' face-up column cards in Japanese, the seat's legal
    actions) plus the *plays* of the current deal, which every player at the
    table saw, taken from the current deal's record actions (the record's
    hands are never read). ``decide`` gets nothing else, so a bot seat knows
    exactly what a human in that seat would know with a perfect memory of the
    cards played in this deal.

How it decides: classic in bot_classic.py (determinized playouts for bids and
cards), Japanese in bot_japanese.py, the trump choice from three cards in
bot_common.py; docs/bot.md tells the whole story.
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass, field

from . import bot_classic, bot_japanese
from .actions import Bid, ChooseTrump, Play
from .bot_common import INDEX, MODE_OF, SUITS, choose_trump, mask_of, trump_index


@dataclass
class ClassicObservation:
    """What one classic seat knows at its move."""

    seat: int
    phase: str  # "trump", "bid" or "play"
    kind: str  # the pulka's kind: normal, golden, no_trump, dark, misere
    cards: int  # cards per player in this deal
    dealer: int
    trump: int | None  # 0-3 a suit, -1 no trump, None not known yet
    trump_card: int  # the turned card, -1 if none
    hand: int  # own cards, a mask (only the first three before a 9-card trump choice; none before dark bids)
    hand_counts: list[int]
    bids: list
    taken: list[int]
    khishti: object
    plays: list[tuple[int, int, int, int]]  # (seat, card, joker mode, named suit) this deal, in order
    legal: list = field(default_factory=list)  # the seat's legal actions
    deal_index: int = 0
    move_count: int = 0


@dataclass
class JapaneseObservation:
    """What one Japanese seat knows at its move."""

    seat: int
    phase: str  # "trump" or "play"
    declarer: int
    trump: int | None
    hand: int
    face_up: list[int]  # both seats' face-up column cards, masks
    columns: list[list[int]]  # per seat, the face-up card of each live column (each hides a face-down card)
    hand_counts: list[int]
    first_card_played: list[bool]
    taken: list[int]
    plays: list[tuple[int, int, int, int]]
    legal: list = field(default_factory=list)
    deal_index: int = 0
    move_count: int = 0


def _public_plays(state) -> list[tuple[int, int, int, int]]:
    """The cards played so far in the current deal: public, every seat saw them."""
    deals = state.record_deals()
    if not deals:
        return []
    plays = []
    for rec in deals[-1]["actions"]:
        card = rec.get("play")
        if card is None:
            continue
        suit = rec.get("suit")
        plays.append(
            (rec["seat"], INDEX[card], MODE_OF[rec.get("joker")], -1 if suit is None else SUITS.index(suit))
        )
    return plays


def _legal_from_view(view) -> list:
    out = []
    for rec in view["legal_actions"]:
        seat = rec["seat"]
        if "play" in rec:
            out.append(Play(seat, rec["play"], rec.get("joker"), rec.get("suit")))
        elif "bid" in rec:
            out.append(Bid(seat, rec["bid"]))
        else:
            out.append(ChooseTrump(seat, None if rec["trump"] == "none" else rec["trump"]))
    return out


def observe(state, seat: int):
    """The observation of ``seat``: its view plus the public plays of the deal, nothing hidden."""
    view = state.view(seat)
    in_deal = view["phase"] in ("trump", "bid", "play")
    plays = _public_plays(state) if in_deal else []
    legal = _legal_from_view(view)
    if view["variant"] == "classic":
        return ClassicObservation(
            seat=seat,
            phase=view["phase"],
            kind=view["pulka_kind"],
            cards=view["cards_per_player"],
            dealer=view["dealer"],
            trump=trump_index(view["trump"]),
            trump_card=INDEX[view["trump_card"]] if view["trump_card"] else -1,
            hand=mask_of(view["hand"]),
            hand_counts=list(view["hand_counts"]),
            bids=list(view["bids"]),
            taken=list(view["tricks_taken"]),
            khishti=view["options"]["khishti"],
            plays=plays,
            legal=legal,
            deal_index=view["deal_index"],
            move_count=view["move_count"],
        )
    columns = view["columns"]
    return JapaneseObservation(
        seat=seat,
        phase=view["phase"],
        declarer=view["declarer"],
        trump=trump_index(view["trump"]),
        hand=mask_of(view["hand"]),
        face_up=[mask_of(col["up"] for col in columns[s] if col) for s in (0, 1)],
        columns=[[INDEX[col["up"]] for col in columns[s] if col] for s in (0, 1)],
        hand_counts=list(view["hand_counts"]),
        first_card_played=list(view["first_card_played"]),
        taken=list(view["tricks_taken"]),
        plays=plays,
        legal=legal,
        deal_index=view["deal_index"],
        move_count=view["move_count"],
    )


def choose_action(state, seat: int, rng=None, effort: float = 1.0):
    """The bot's move for ``seat``, which must be the seat to act: one of ``state.legal_actions(seat)``.

    ``effort`` scales how many playouts a decision may spend (1.0: the full
    budget, well under 50 ms; less for a faster, weaker move).
    """
    obs = observe(state, seat)
    if not obs.legal:
        raise ValueError(f"seat {seat} has no move now (to act: {state.to_act})")
    return decide(obs, rng, effort)


def decide(obs, rng=None, effort: float = 1.0):
    """The bot's decision from an observation alone."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    if rng is None:
        rng = _random.Random(_position_seed(obs))
    if obs.phase == "trump":
        action = ChooseTrump(obs.seat, choose_trump(obs.hand))
    elif isinstance(obs, ClassicObservation):
        action = bot_classic.choose_action(obs, rng, effort)
    else:
        action = bot_japanese.choose_play(obs, rng, effort)
    if action not in legal:  # a safety net; the tests make sure it is never needed
        return legal[0]
    return action


def _position_seed(obs) -> int:
    """A seed from public facts only, so that the same position gets the same decision."""
    return (obs.deal_index * 1_000_003 + obs.move_count * 8191 + obs.seat * 131 + obs.hand) & 0xFFFFFFFF
