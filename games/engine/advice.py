"""Advice for a seat: the move the strongest bot would make now, and one short reason (pure Python).

API::

    advise(view, level=ADVICE_LEVEL, effort=1.0)   # -> Advice(action, situation, reason)

``view`` is the seat's own view (``state.view(seat)``, or its JSON): the advice is decided
from it alone, through the bot's public API (``bot.choose_from_view``), so it never tells the
player anything the seat may not know. The reason is a small set of plain rules over that
view and the chosen action (tricks still needed against the bid, a card nobody can beat, a
trump, a joker as take or as discard, ducking once the bid is made, the dealer's forbidden
bid …). It comes as codes with JSON-able parameters (card and suit letters, numbers); the
site words them in the player's language (games/advice_words.py). docs/bot.md, "Advice".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import bot
from .actions import Bid, ChooseTrump, Play
from .cards import BIT, CARD_INDEX, JOKER_MASK, SUIT_MASK, SUIT_OF, SUITS
from .classic import PLANS
from .rules import (
    BIDDING_KINDS,
    GOLDEN,
    MISERE,
    classic_trick_winner,
    japanese_follower_wins,
    lead_of,
    pulka_standing,
)

# The level whose moves the hints and the deal reviews give: the strongest the bot plays.
ADVICE_LEVEL = bot.MASTER

FULL_DECK = (1 << 36) - 1
JOKER_CARDS = (0, 9)  # X1, X2

# Every code a Reason may carry (the site words each one: games/advice_words.py).
SITUATION_CODES = ("need_tricks", "bid_made", "bid_lost", "pass_kept", "pass_lost", "golden", "misere",
                   "dealer_forbidden", "pulka_close", "pulka_threat")
REASON_CODES = SITUATION_CODES + (
    "trump_longest", "trump_strongest", "trump_none", "bid_dark", "bid_pass", "bid_count", "only_card",
    "lead_sure", "lead_sure_anyway", "lead_try", "lead_low", "lead_joker_high", "lead_joker_low", "trump_in",
    "takes_trick", "takes_for_now", "takes_anyway", "save_winners", "cannot_win", "duck", "joker_take",
    "joker_take_unless", "joker_discard",
)


@dataclass(frozen=True)
class Reason:
    """One sentence of advice: a code the site words, and the facts it names."""

    code: str
    params: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True)
class Advice:
    """The move advised (an engine action), the seat's situation (None when there is nothing to
    say about it) and why this move."""

    action: object
    situation: Reason | None
    reason: Reason

    def to_dict(self) -> dict:
        """The JSON form: the action as the record writes it, the two reasons as {"code", "params"}."""
        return {"action": self.action.to_record(),
                "situation": None if self.situation is None else self.situation.to_dict(),
                "reason": self.reason.to_dict()}


def advise(view, level: str = ADVICE_LEVEL, effort: float = 1.0, rng=None) -> Advice:
    """The advice for the seat whose view this is; ValueError when it has no move now."""
    if isinstance(view, str):
        view = json.loads(view)
    action = bot.choose_from_view(view, rng=rng, effort=effort, level=level)
    return Advice(action, situation_of(view), reason_for(view, action))


# --- the seat's situation ----------------------------------------------------------------------


def situation_of(view: dict) -> Reason | None:
    """What the seat is playing for now: tricks still needed against its bid, a made bid, a pass
    to keep; the golden and misère pulkas' own aim; the dealer's forbidden bid; at the bids of a
    pulka's last deal, the premium the seat can win or the moshla another player can strike."""
    if view["variant"] != "classic":
        return None
    seat = view["seat"]
    if view["phase"] == "bid":
        forbidden = view.get("forbidden_bid")
        if view["dealer"] == seat and forbidden is not None:
            return Reason("dealer_forbidden", {"bid": forbidden})
        return _pulka_situation(view, seat)
    if view["phase"] != "play":
        return None
    kind = view["pulka_kind"]
    if kind == GOLDEN:
        return Reason("golden")
    if kind == MISERE:
        return Reason("misere")
    bid, took = view["bids"][seat], view["tricks_taken"][seat]
    left = len(view["hand"])  # tricks still to play, this one included
    if bid == 0:
        return Reason("pass_kept" if took == 0 else "pass_lost")
    if took >= bid:
        return Reason("bid_made", {"bid": bid})
    if bid - took > left:
        return Reason("bid_lost", {"bid": bid})
    return Reason("need_tricks", {"need": bid - took, "left": left})


def _pulka_situation(view: dict, seat: int) -> Reason | None:
    """In a pulka's last deal (rules.md 2.8), from the public score sheet: the seat closes the
    pulka by making this bid, or another player can close it and strike off the seat's best
    deal of it (a moshla)."""
    options = view["options"]
    mode = options.get("pulka_bonus", "none")
    plan = PLANS[options["game_type"]]
    spec = plan[view["deal_index"]]
    if mode == "none" or spec.kind not in BIDDING_KINDS or not spec.last_of_pulka:
        return None
    earlier = [(d["bids"], d["tricks"], d["scores"])
               for d in view["score_sheet"]["deals"] if d["pulka"] == spec.pulka and d["deal"] < spec.index]
    if not earlier:
        return None
    streak, best = pulka_standing(earlier)
    if streak[seat]:
        return Reason("pulka_close")
    if mode == "premium_moshla" and best[seat] > 0 and any(streak[s] for s in range(len(streak)) if s != seat):
        return Reason("pulka_threat", {"best": best[seat]})
    return None


# --- why this move -----------------------------------------------------------------------------


def reason_for(view: dict, action) -> Reason:
    """The plain rule that names ``action`` for the seat whose view this is."""
    if isinstance(action, ChooseTrump):
        return _trump_reason(view, action)
    if isinstance(action, Bid):
        return _bid_reason(view, action)
    return _play_reason(_Table.of(view), action)


def _trump_reason(view: dict, action: ChooseTrump) -> Reason:
    if action.suit is None:
        return Reason("trump_none")
    count = sum(1 for card in view["hand"] if card[0] != "X" and card[1] == action.suit)
    return Reason("trump_longest" if count >= 2 else "trump_strongest", {"suit": action.suit})


def _bid_reason(view: dict, action: Bid) -> Reason:
    if not view["hand"]:  # the dark pulka: nobody has seen a card
        return Reason("bid_dark", {"bid": action.n})
    if action.n == 0:
        return Reason("bid_pass")
    trump = view["trump"]
    strong = [card for card in view["hand"]
              if card[0] in "XA" or (trump not in (None, "none") and card[1] == trump and card[0] in "KQ")]
    return Reason("bid_count", {"bid": action.n, "strong": len(strong)})


@dataclass
class _Table:
    """What the seat sees of a trick: the trick so far, the cards still out, its legal plays."""

    variant: str
    seat: int
    trump: int  # -1 no trump
    trick: list  # (seat, card, mode, named) on the table, the lead first
    out: int  # cards neither played, nor in the seat's hand, nor face up anywhere: where a beater may hide
    legal: list
    wants: bool  # whether the seat wants this trick
    players: int

    @classmethod
    def of(cls, view: dict) -> _Table:
        obs = bot.observe_view(view)
        seen = obs.hand
        for _seat, card, _mode, _named in obs.plays:
            seen |= BIT[card]
        if view["variant"] == "classic":
            if obs.trump_card >= 0:
                seen |= BIT[obs.trump_card]
            players = 4
        else:
            seen |= obs.face_up[0] | obs.face_up[1]
            players = 2
        done = len(obs.plays) - len(view["trick"])
        return cls(
            variant=view["variant"], seat=obs.seat, trump=-1 if obs.trump is None else obs.trump,
            trick=obs.plays[done:], out=FULL_DECK & ~seen, legal=obs.legal, wants=_wants(view),
            players=players,
        )


def _wants(view: dict) -> bool:
    """Whether the seat wants tricks now: below its bid (a bid that can no longer be made still
    scores 10 a trick); in golden always, in misère never; in Japanese always."""
    if view["variant"] != "classic":
        return True
    kind = view["pulka_kind"]
    if kind in (GOLDEN, MISERE):
        return kind == GOLDEN
    seat = view["seat"]
    bid, took = view["bids"][seat], view["tricks_taken"][seat]
    return took < bid


def _play_reason(table: _Table, action: Play) -> Reason:
    card = CARD_INDEX[action.card]
    if len({play.card for play in table.legal}) == 1:
        return Reason("only_card", {"card": action.card})
    if card in JOKER_CARDS:
        return _joker_reason(table, action)
    wins_now = _wins_as_it_lies(table, action)
    if not table.trick:
        if _unbeatable(table, card):
            return Reason("lead_sure", {"card": action.card}) if table.wants else Reason("lead_sure_anyway", {"card": action.card})
        return Reason("lead_try", {"card": action.card}) if table.wants else Reason("lead_low", {"card": action.card})
    if table.wants:
        if wins_now and _unbeatable_now(table, action):
            led = _led_suit(table)
            if SUIT_OF[card] == table.trump and led != table.trump:
                return Reason("trump_in", {"card": action.card, "led": SUITS[led]})
            return Reason("takes_trick", {"card": action.card})
        if wins_now:
            return Reason("takes_for_now", {"card": action.card})
        if _any_legal_wins(table):
            return Reason("save_winners", {"card": action.card})
        return Reason("cannot_win", {"card": action.card})
    if wins_now and _unbeatable_now(table, action):
        return Reason("takes_anyway", {"card": action.card})
    return Reason("duck", {"card": action.card})


def _joker_reason(table: _Table, action: Play) -> Reason:
    leading = not table.trick
    discard = action.joker == "discard"
    if leading:
        code = "lead_joker_low" if discard else "lead_joker_high"
        return Reason(code, {"suit": action.suit})
    if discard:
        return Reason("joker_discard")
    others_joker = table.out & JOKER_MASK and len(table.trick) < table.players - 1
    return Reason("joker_take_unless" if others_joker else "joker_take")


def _led_suit(table: _Table) -> int:
    _seat, card, mode, named = table.trick[0]
    return lead_of(card, mode, named)[0]


def _wins_as_it_lies(table: _Table, action: Play) -> bool:
    if not table.trick:
        return True
    card = CARD_INDEX[action.card]
    mode = (2 if action.joker == "discard" else 1) if card in JOKER_CARDS else 0
    plays = [*table.trick, (table.seat, card, mode, -1)]
    if table.variant == "classic":
        return classic_trick_winner(plays, table.trump) == table.seat
    _seat, lead, _mode, named = plays[0]
    return japanese_follower_wins(lead, named, card, table.trump)


def _any_legal_wins(table: _Table) -> bool:
    return any(_wins_as_it_lies(table, play) for play in table.legal)


def _higher_out(table: _Table, card: int) -> bool:
    """Whether a card that beats ``card`` in its own suit may still be out."""
    suit = SUIT_OF[card]
    return bool(table.out & SUIT_MASK[suit] & ~((1 << (card + 1)) - 1))


def _unbeatable(table: _Table, card: int) -> bool:
    """Led now, nobody can take the trick from ``card``: no higher card of its suit, no joker and
    (unless it is trump, or there is none) no trump is still out."""
    if table.out & JOKER_MASK or _higher_out(table, card):
        return False
    suit = SUIT_OF[card]
    return table.trump < 0 or suit == table.trump or not table.out & SUIT_MASK[table.trump]


def _unbeatable_now(table: _Table, action: Play) -> bool:
    """Played now and winning, nobody still to play can take the trick from it."""
    if len(table.trick) == table.players - 1:
        return True  # the last card of the trick
    card = CARD_INDEX[action.card]
    if table.out & JOKER_MASK or _higher_out(table, card):
        return False
    led = _led_suit(table)
    suit = SUIT_OF[card]
    return suit == table.trump or table.trump < 0 or not table.out & SUIT_MASK[table.trump] or led == table.trump
