"""The Joker bot: a legal, sensible player for classic and Japanese Joker (pure Python, no Django).

API::

    choose_action(state, seat, rng=None, effort=1.0, level="club")  # -> ChooseTrump | Bid | Play, a legal action
    choose_from_view(view, rng=None, effort=1.0, level="club")      # the same from the seat's view (a dict, or its JSON)
    observe(state, seat)          # -> ClassicObservation | JapaneseObservation: all the bot may know
    observe_view(view)            # the same from the view alone
    decide(observation, rng=None, effort=1.0, level="club")         # -> the action, decided from the observation alone

``level`` is one of LEVELS: ``"beginner"`` (a learner's rules and mistakes,
bot_beginner.py) or ``"club"`` (the playouts below; the default, and the level
of a leaver's seat and of the clock's move).

``rng`` is any ``random.Random``-like object; without one the bot seeds its
own from public facts of the position, so a position always gets the same
answer. It serves practice tables, the classic seat of a player who left and
the move the server makes when a clock runs out.

What the bot sees
    ``observe_view`` builds the observation from the seat's view alone — the
    very dict ``state.view(seat)`` returns and a protocol client receives as
    JSON: own hand, trump, turned card, bids, tricks taken, hand counts, the
    deal's finished tricks (``tricks``: who played which card, each joker's
    mode and named suit) and the trick on the table, both players' face-up
    column cards in Japanese, the seat's legal actions. ``decide`` gets nothing
    else, so a bot seat knows exactly what a human in that seat would know
    with a perfect memory of the cards played in this deal.

How it decides: classic in bot_classic.py (determinized playouts for bids and
cards), Japanese in bot_japanese.py, the trump choice from three cards in
bot_common.py; docs/bot.md tells the whole story.
"""

from __future__ import annotations

import json
import random as _random
from dataclasses import dataclass, field, replace

from . import bot_beginner, bot_classic, bot_japanese
from .actions import Bid, ChooseTrump, Play
from .bot_common import choose_trump, suit_index, trump_index
from .rules import BIT, CARD_INDEX, MODE_OF

BEGINNER = "beginner"
CLUB = "club"
MASTER = "master"
LEVELS = (BEGINNER, CLUB, MASTER)

# The master's search: the club's playouts with more samples, more finalists, samples fitted to the bids (docs/bot.md).
MASTER_SEARCH = bot_classic.Search(play_budget=12_000, bid_budget=50_000, max_samples=400, finalists=4, bid_draws=4)
# In Japanese the master plays out ten times the club's cards a move, with players who answer a
# joker with a joker (docs/bot.md: each worth about a sixth of a trick a deal).
MASTER_JAPANESE_SEARCH = replace(MASTER_SEARCH, play_budget=40_000, joker_wise=True)
SEARCH_OF = {CLUB: bot_classic.CLUB_SEARCH, MASTER: MASTER_SEARCH}
JAPANESE_SEARCH_OF = {CLUB: bot_classic.CLUB_SEARCH, MASTER: MASTER_JAPANESE_SEARCH}


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


def _mask_of(names) -> int:
    mask = 0
    for name in names:
        mask |= BIT[CARD_INDEX[name]]
    return mask


def _play_of(rec) -> tuple[int, int, int, int]:
    """(seat, card, joker mode, named suit) of a record play."""
    return rec["seat"], CARD_INDEX[rec["play"]], MODE_OF[rec.get("joker")], suit_index(rec.get("suit"))


def _plays_of_deal(view) -> list[tuple[int, int, int, int]]:
    """Every card played so far in the view's deal, in order: the finished tricks, then the table.
    Until a deal's first card the view still recalls the deal before (its `last_trick` names that
    deal): none of those cards was played in this one."""
    last = view["last_trick"]
    tricks = view["tricks"] if last is not None and last["deal"] == view["deal_index"] else []
    plays = [_play_of(rec) for trick in tricks for rec in trick["cards"]]
    plays.extend(_play_of(rec) for rec in view["trick"])
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
    """The observation of ``seat``: what its view shows, nothing else."""
    return observe_view(state.view(seat))


def observe_view(view: dict):
    """The observation of the seat whose view this is (``state.view(seat)``, or its JSON read back)."""
    seat = view["seat"]
    in_deal = view["phase"] in ("trump", "bid", "play")
    plays = _plays_of_deal(view) if in_deal else []
    legal = _legal_from_view(view)
    if view["variant"] == "classic":
        return ClassicObservation(
            seat=seat,
            phase=view["phase"],
            kind=view["pulka_kind"],
            cards=view["cards_per_player"],
            dealer=view["dealer"],
            trump=trump_index(view["trump"]),
            trump_card=CARD_INDEX[view["trump_card"]] if view["trump_card"] else -1,
            hand=_mask_of(view["hand"]),
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
        hand=_mask_of(view["hand"]),
        face_up=[_mask_of(col["up"] for col in columns[s] if col) for s in (0, 1)],
        columns=[[CARD_INDEX[col["up"]] for col in columns[s] if col] for s in (0, 1)],
        hand_counts=list(view["hand_counts"]),
        first_card_played=list(view["first_card_played"]),
        taken=list(view["tricks_taken"]),
        plays=plays,
        legal=legal,
        deal_index=view["deal_index"],
        move_count=view["move_count"],
    )


def choose_action(state, seat: int, rng=None, effort: float = 1.0, level: str = CLUB):
    """The bot's move for ``seat``, which must be the seat to act: one of ``state.legal_actions(seat)``.

    ``effort`` scales how many playouts a decision may spend (1.0: the full
    budget, well under 50 ms; less for a faster, weaker move).
    """
    if seat != state.to_act:
        raise ValueError(f"seat {seat} has no move now (to act: {state.to_act})")
    return choose_from_view(state.view(seat), rng, effort, level)


def choose_from_view(view, rng=None, effort: float = 1.0, level: str = CLUB):
    """The bot's move for the seat whose view this is (a dict, or the JSON text a client receives)."""
    if isinstance(view, str):
        view = json.loads(view)
    obs = observe_view(view)
    if not obs.legal:
        raise ValueError(f"seat {obs.seat} has no move now (to act: {view['to_act']})")
    return decide(obs, rng, effort, level)


def decide(obs, rng=None, effort: float = 1.0, level: str = CLUB):
    """The bot's decision from an observation alone, at ``level`` (one of LEVELS)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    if rng is None:
        rng = _random.Random(_position_seed(obs))
    if obs.phase == "trump":
        action = ChooseTrump(obs.seat, choose_trump(obs.hand))
    elif level == BEGINNER:
        if isinstance(obs, JapaneseObservation):
            action = bot_beginner.japanese_play(obs, rng)
        elif obs.phase == "bid":
            action = bot_beginner.classic_bid(obs, rng)
        else:
            action = bot_beginner.classic_play(obs, rng)
    elif isinstance(obs, ClassicObservation):
        action = bot_classic.choose_action(obs, rng, effort, SEARCH_OF[level])
    else:
        action = bot_japanese.choose_play(obs, rng, effort, JAPANESE_SEARCH_OF[level])
    if action not in legal:  # a safety net; the tests make sure it is never needed
        return legal[0]
    return action


def _position_seed(obs) -> int:
    """A seed from public facts only, so that the same position gets the same decision."""
    return (obs.deal_index * 1_000_003 + obs.move_count * 8191 + obs.seat * 131 + obs.hand) & 0xFFFFFFFF
