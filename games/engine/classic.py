"""Classic Joker: four players, bids, pulkas, the score sheet (rules.md section 2).

Speed matters (bots and benchmarks play many thousands of games), so a state
keeps hands as 36-bit masks, the current trick's winner incrementally, and the
strength table of rules.py per (trump, led suit). The rules themselves (what may
follow, who takes a trick, what a deal scores) live in rules.py; what the two
variants share (checks, ``apply``, ``legal_actions``, the common view) in
state.py. The public API validates and then calls the same internal mutators
(``_choose_trump``, ``_bid``, ``_play``) that the fast random-play path in
``randomplay.py`` uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .actions import Bid
from .cards import (
    BIT,
    CARD_NAMES,
    JOKER_MASK,
    NO_SUIT,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    check_distinct,
    dealt_indices,
    hand_mask,
)
from .common import (
    H_BID,
    H_TRUMP,
    MODE_OF,
    P_BID,
    P_DEAL,
    P_OVER,
    P_PLAY,
    P_TRUMP,
    PLAIN_PLAYS,
    history_entry_to_record,
    ranks_by_total,
)
from .errors import IllegalAction, InvalidDeal, InvalidOptions
from .rules import (
    BIDDING_KINDS,
    DARK,
    GOLDEN,
    MISERE,
    NO_TRUMP,
    NORMAL,
    STRENGTH,
    TAKE_AT,
    TAKE_STRENGTH,
    deal_score,
    lead_of,
    pulka_bonus,
    pulka_standing,
    special_score,
)
from .state import GameOptions, GameState

# --- the schedule of deals -------------------------------------------------------------------

_UP = (1, 2, 3, 4, 5, 6, 7, 8)
_NINES = (9, 9, 9, 9)
_DOWN = (8, 7, 6, 5, 4, 3, 2, 1)
_STANDARD = ((NORMAL, _UP), (NORMAL, _NINES), (NORMAL, _DOWN), (NORMAL, _NINES))

GAME_TYPES: dict[str, tuple[tuple[str, tuple[int, ...]], ...]] = {
    "standard": _STANDARD,
    "nines": ((NORMAL, _NINES),) * 4,
    "short": _STANDARD[:2],
    "full": _STANDARD + ((GOLDEN, _NINES), (NO_TRUMP, _NINES), (DARK, _NINES), (MISERE, _NINES)),
}
KHISHTI_VALUES = (100, 200, 500, "per_card")
PULKA_BONUS_MODES = ("premium_moshla", "premium", "none")


@dataclass(frozen=True)
class DealSpec:
    index: int  # 0-based deal number in the game
    pulka: int  # 0-based pulka number
    kind: str  # NORMAL, GOLDEN, NO_TRUMP, DARK, MISERE
    cards: int  # cards per player
    last_of_pulka: bool


def _plan(game_type: str) -> tuple[DealSpec, ...]:
    specs = []
    for pulka, (kind, sizes) in enumerate(GAME_TYPES[game_type]):
        for k, n in enumerate(sizes):
            specs.append(DealSpec(len(specs), pulka, kind, n, k == len(sizes) - 1))
    return tuple(specs)


PLANS = {name: _plan(name) for name in GAME_TYPES}

_NO_MARKS = (False, False, False, False)


@dataclass(frozen=True)
class ClassicOptions(GameOptions):
    game_type: str = "standard"
    khishti: int | str = 200
    pulka_bonus: str = "premium_moshla"
    first_dealer: int = 0

    VARIANT = "classic"
    RECORD_KEYS = ("game_type", "khishti", "pulka_bonus")
    SEAT_KEY = "first_dealer"

    def __post_init__(self):
        if self.game_type not in GAME_TYPES:
            raise InvalidOptions("invalid_option", f"unknown game_type {self.game_type!r}", option="game_type")
        if self.khishti not in KHISHTI_VALUES or type(self.khishti) not in (int, str):
            raise InvalidOptions("invalid_option", f"khishti must be one of {KHISHTI_VALUES}", option="khishti")
        if self.pulka_bonus not in PULKA_BONUS_MODES:
            raise InvalidOptions(
                "invalid_option", f"pulka_bonus must be one of {PULKA_BONUS_MODES}", option="pulka_bonus"
            )
        if type(self.first_dealer) is not int or not 0 <= self.first_dealer <= 3:
            raise InvalidOptions("invalid_option", "first_dealer must be a seat 0-3", option="first_dealer")


class DealResult(NamedTuple):
    """A finished deal on the score sheet."""

    index: int
    pulka: int
    kind: str
    cards: int
    dealer: int
    trump: int  # -1 = no trump
    bids: tuple | None  # None in golden and misère
    tricks: tuple
    scores: tuple
    khishti: tuple  # True where a bid of 1+ took nothing


class PulkaResult(NamedTuple):
    pulka: int
    kind: str
    closed: tuple
    premium: tuple
    moshla: tuple

    @property
    def bonus(self) -> tuple:
        """Premium plus moshla, by seat."""
        return tuple(p + m for p, m in zip(self.premium, self.moshla))


def split_deck(items, dealer: int, cards: int):
    """Hands (by seat) and turned card from a deck order, as a dealer deals.

    Packets go clockwise from the player left of the dealer: in 1-8-card deals
    one packet of ``cards`` each, then the next card is turned (trump card); in
    9-card deals a packet of 3 each, then a packet of 6 each. Works on strings
    and on card indices alike.
    """
    items = list(items)
    if cards < 9:
        n = cards
        packets = [items[0:n], items[n : 2 * n], items[2 * n : 3 * n], items[3 * n : 4 * n]]
        turned = items[4 * n]
    else:
        packets = [items[0:3] + items[12:18], items[3:6] + items[18:24], items[6:9] + items[24:30], items[9:12] + items[30:36]]
        turned = None
    # packets[k] goes to seat dealer + 1 + k
    shift = 3 - dealer
    return packets[shift:] + packets[:shift], turned


class ClassicState(GameState):
    """A classic Joker game from the first deal to the final ranking."""

    variant = "classic"
    seats = 4
    _OWN_LISTS = ("hands", "bids", "taken", "_actions", "_deals", "_results", "_pulkas", "totals")
    _JOKER_MODES = ("take", "discard")

    # Beside GameState.__slots__, what this variant keeps.
    __slots__ = (
        "_bid_count", "_bid_sum", "_cards", "_khishti", "_last_winner", "_plan", "_pulkas", "_strength_row",
        "_strengths", "_trump_card", "_win_key", "_win_seat", "bids", "dealer",
    )

    def __init__(self, options=None):
        opts = self._start(ClassicOptions.coerce(options))
        self._plan = PLANS[opts.game_type]
        self._khishti = opts.khishti
        self.dealer = opts.first_dealer
        self._trump_card = -1
        self._strengths = None
        self._strength_row = None
        self.bids = [None, None, None, None]
        self._bid_count = 0
        self._bid_sum = 0
        self._win_seat = None
        self._win_key = -1
        self._cards = 0
        self._last_winner = None
        self._pulkas: list[PulkaResult] = []

    # --- read-only facts ----------------------------------------------------------------------

    @property
    def spec(self) -> DealSpec | None:
        """The current (or next, in DEAL) deal's place in the schedule; None once the game is over."""
        return self._plan[self.deal_index] if self.deal_index < len(self._plan) else None

    @property
    def trick(self) -> list[tuple]:
        return self._actions[len(self._actions) - self._pos :] if self._pos else []

    @property
    def last_trick(self) -> tuple[list[tuple], int] | None:
        if self._last_winner is None:
            return None
        if self._dealt is None:
            return self._deals[-1][3][-4:], self._last_winner
        end = len(self._actions) - self._pos
        return self._actions[end - 4 : end], self._last_winner

    @property
    def deal_count(self) -> int:
        return len(self._plan)

    @property
    def cards_per_player(self) -> int | None:
        spec = self.spec
        return spec.cards if spec else None

    @property
    def trump_card(self) -> str | None:
        return CARD_NAMES[self._trump_card] if self._trump_card >= 0 else None

    @property
    def trump_chooser(self) -> int | None:
        """Who names trump in this deal (9-card deals outside the no-trump pulka), else None."""
        spec = self.spec
        if spec is None or spec.cards < 9 or spec.kind == NO_TRUMP:
            return None
        return (self.dealer + 1) & 3

    @property
    def forbidden_bid(self) -> int | None:
        """The number the dealer may not bid now, or None."""
        f = self._forbidden_bid()
        return f if f >= 0 else None

    @property
    def results(self) -> list[DealResult]:
        return list(self._results)

    @property
    def pulka_results(self) -> list[PulkaResult]:
        return list(self._pulkas)

    def winners(self) -> list[int]:
        if self.phase is not P_OVER:
            return []
        best = max(self.totals)
        return [s for s in range(4) if self.totals[s] == best]

    def ranking(self) -> list[int]:
        """Final place of each seat (1 = first; equal totals share a place)."""
        return ranks_by_total(self.totals)

    # --- dealing ------------------------------------------------------------------------------

    def deal(self, hands, trump_card=None) -> None:
        """Start the next deal with these cards.

        ``hands``: four lists of record cards, by seat, each as long as the deal
        (in 9-card deals the first three are the ones seen before the trump
        choice). ``trump_card``: the turned card in 1-8-card deals, else None.
        Raises InvalidDeal and changes nothing when the cards are not a deal.
        """
        self._check_deal_expected()
        n = self._plan[self.deal_index].cards
        if not isinstance(hands, (list, tuple)) or len(hands) != 4:
            raise InvalidDeal("wrong_hand_count", "a classic deal needs four hands")
        for seat, hand in enumerate(hands):
            if not isinstance(hand, (list, tuple)) or len(hand) != n:
                got = len(hand) if isinstance(hand, (list, tuple)) else None
                raise InvalidDeal(
                    "wrong_hand_size", f"seat {seat} must get {n} cards", seat=seat, expected=n, got=got
                )
        indices = [dealt_indices(hand) for hand in hands]
        masks = [hand_mask(row) for row in indices]
        union = masks[0] | masks[1] | masks[2] | masks[3]
        expected = 4 * n
        if n < 9:
            if trump_card is None:
                raise InvalidDeal("trump_card_missing", f"a {n}-card deal needs a turned trump card")
            turned = dealt_indices([trump_card])[0]
            union |= BIT[turned]
            expected += 1
        else:
            if trump_card is not None:
                raise InvalidDeal("trump_card_not_allowed", "9-card deals have no turned trump card")
            turned = -1
        # Hand masks are sums of powers of two: a repeated card leaves the union short.
        if union.bit_count() != expected:
            check_distinct(indices[0] + indices[1] + indices[2] + indices[3] + ([turned] if turned >= 0 else []))
        self._deal_indices(indices, turned, masks)

    def _deal_indices(self, hands: list[list[int]], turned: int, masks: list[int] | None = None) -> None:
        """Start the deal from card indices already checked (fast path); ``masks``: their masks, if known."""
        self._carry_last_trick()
        spec = self._plan[self.deal_index]
        self._dealt = hands
        self._cards = spec.cards
        self.hands = masks if masks is not None else [hand_mask(hands[0]), hand_mask(hands[1]), hand_mask(hands[2]), hand_mask(hands[3])]
        self._trump_card = turned
        self.bids = [None, None, None, None]
        self._bid_count = 0
        self._bid_sum = 0
        self.taken = [0, 0, 0, 0]
        self._pos = 0
        self._last_winner = None
        self._actions = []
        self._tricks_played = 0
        first = (self.dealer + 1) & 3
        self.to_act = first
        self.leader = first
        if spec.cards < 9:
            self._set_trump(SUIT_OF[turned])
            self.phase = P_BID
        elif spec.kind == NO_TRUMP:
            self._set_trump(NO_SUIT)
            self.phase = P_BID
        elif spec.kind == DARK:
            self._set_trump(None)
            self.phase = P_BID
        else:
            self._set_trump(None)
            self.phase = P_TRUMP
        self._moves_done += 1

    def _set_trump(self, trump) -> None:
        self._trump = trump
        if trump is None:
            self._trump_mask = 0
            self._strengths = None
        else:
            self._trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
            self._strengths = STRENGTH[trump + 1]

    # --- legality -----------------------------------------------------------------------------

    def _forbidden_bid(self) -> int:
        if self.phase is not P_BID or self._bid_count != 3:
            return -1
        rest = self._cards - self._bid_sum
        return rest if rest >= 0 else -1

    def _check_bid_values(self, seat, n):
        if self.phase is not P_BID:
            raise self._phase_error("Bid")
        if seat != self.to_act or type(seat) is not int:
            raise self._not_your_turn(seat)
        cards = self._cards
        if type(n) is not int or not 0 <= n <= cards:
            raise IllegalAction("bid_out_of_range", f"a bid is 0 to {cards}", bid=n if type(n) is int else repr(n), max=cards)
        if n == self._forbidden_bid():
            raise IllegalAction("forbidden_bid", f"the dealer may not bid {n}: the bids would add up to {cards}", bid=n)
        return seat, n

    def _unplayable(self, seat: int, card: int, name: str) -> IllegalAction:
        if not self.hands[seat] & BIT[card]:
            return IllegalAction("card_not_available", f"{name} is not in your hand", card=name)
        return self._follow_error(seat)

    def _check_joker(self, joker, suit_name) -> tuple[int, int]:
        """Mode and named suit of a joker play (rules.md 2.5)."""
        if joker is None:
            raise IllegalAction("joker_needs_mode", "say take or discard with a joker")
        mode = MODE_OF.get(joker, 0) if type(joker) is str else 0
        if not mode:
            raise IllegalAction("invalid_joker_mode", f"a joker is take or discard, not {joker!r}", joker=repr(joker))
        return mode, self._named_suit(suit_name)

    def _legal_bids(self, seat: int) -> list:
        forbidden = self._forbidden_bid()
        return [Bid(seat, n) for n in range(self._cards + 1) if n != forbidden]

    # --- moves --------------------------------------------------------------------------------

    def _choose_trump(self, seat: int, trump: int) -> None:
        self._set_trump(trump)
        self._actions.append((H_TRUMP, seat, trump))
        first = (self.dealer + 1) & 3
        self.to_act = first
        if self._plan[self.deal_index].kind == NORMAL:
            self.phase = P_BID
        else:
            self.phase = P_PLAY
            self._mask = self.hands[first]

    def _bid(self, seat: int, n: int) -> None:
        self.bids[seat] = n
        self._actions.append((H_BID, seat, n))
        self._bid_sum += n
        self._bid_count += 1
        if self._bid_count < 4:
            self.to_act = (seat + 1) & 3
            return
        first = self.to_act = (self.dealer + 1) & 3
        if self._trump is None:
            self.phase = P_TRUMP
        else:
            self.phase = P_PLAY
            self._mask = self.hands[first]

    def _play(self, seat: int, card: int, mode: int, suit: int) -> None:
        # Hot path: literals stand for H_PLAY (2) and MODE_TAKE (1).
        hands = self.hands
        hands[seat] ^= BIT[card]
        self._actions.append(PLAIN_PLAYS[seat * 36 + card] if mode == 0 else (2, seat, card, mode, suit))
        pos = self._pos
        if pos == 0:
            led, self._must_highest = lead_of(card, mode, suit)
            row = self._strength_row = self._strengths[led]
            self._win_key = TAKE_STRENGTH if mode == 1 else row[card]  # play_strength at position 0
            self._led = led
            self._win_seat = seat
            self._pos = 1
        else:
            key = TAKE_AT[pos] if mode == 1 else self._strength_row[card]  # play_strength, inlined
            if key > self._win_key:
                self._win_key = key
                self._win_seat = seat
            if pos == 3:  # the fourth card: the trick is over, its winner leads any card
                winner = self._win_seat
                self.taken[winner] += 1
                self._last_winner = winner
                self._pos = 0
                self.leader = winner
                self.to_act = winner
                self._mask = hands[winner]
                played = self._tricks_played = self._tricks_played + 1
                if played == self._cards:
                    self._end_deal()
                return
            self._pos = pos + 1
        follower = self.to_act = (seat + 1) & 3
        # rules.legal_follow, inlined (tests/test_engine_agrees_with_reference.py holds it to the rules)
        hand = hands[follower]
        follow = hand & SUIT_MASK[self._led]
        if follow:
            self._mask = (BIT[follow.bit_length() - 1] if self._must_highest else follow) | (hand & JOKER_MASK)
        else:
            trumps = hand & self._trump_mask
            self._mask = trumps | (hand & JOKER_MASK) if trumps else hand

    def _end_deal(self) -> None:
        spec = self._plan[self.deal_index]
        n = spec.cards
        taken = t0, t1, t2, t3 = tuple(self.taken)
        if spec.kind in BIDDING_KINDS:
            bids = b0, b1, b2, b3 = tuple(self.bids)
            k = self._khishti
            scores = (deal_score(b0, t0, n, k), deal_score(b1, t1, n, k), deal_score(b2, t2, n, k), deal_score(b3, t3, n, k))
            marks = (b0 >= 1 and t0 == 0, b1 >= 1 and t1 == 0, b2 >= 1 and t2 == 0, b3 >= 1 and t3 == 0)
        else:
            bids = None
            kind = spec.kind
            scores = (special_score(kind, t0, n), special_score(kind, t1, n), special_score(kind, t2, n), special_score(kind, t3, n))
            marks = _NO_MARKS
        self._results.append(
            DealResult(spec.index, spec.pulka, spec.kind, n, self.dealer, self._trump, bids, taken, scores, marks)
        )
        self._deals.append(self._current_deal())
        self._moves_done += len(self._actions)
        self._actions = []
        self._dealt = None  # no deal in progress until the next one is dealt
        totals = self.totals
        totals[0] += scores[0]
        totals[1] += scores[1]
        totals[2] += scores[2]
        totals[3] += scores[3]
        if spec.last_of_pulka:
            self._end_pulka(spec)
        self.deal_index += 1
        self.to_act = None
        if self.deal_index == len(self._plan):
            self.phase = P_OVER
        else:
            self.phase = P_DEAL
            self.dealer = (self.dealer + 1) & 3

    def _end_pulka(self, spec: DealSpec) -> None:
        deals = [r for r in self._results if r.pulka == spec.pulka]
        zeros = (0, 0, 0, 0)
        mode = self.options.pulka_bonus
        if spec.kind not in BIDDING_KINDS:
            result = PulkaResult(spec.pulka, spec.kind, (False,) * 4, zeros, zeros)
        else:
            closed, best = pulka_standing((r.bids, r.tricks, r.scores) for r in deals)
            premium, moshla = pulka_bonus(mode, closed, best)
            result = PulkaResult(spec.pulka, spec.kind, closed, premium, moshla)
        self._pulkas.append(result)
        for s, b in enumerate(result.bonus):
            self.totals[s] += b

    def end_game(self, reason: str, seat: int | None = None) -> None:
        """End the game early. Classic games end early only by ``"abort"`` (rules.md 3.6)."""
        if reason != "abort":
            raise IllegalAction(
                "invalid_end", "a classic game ends early only by abort (a leaving player is replaced by a bot)",
                reason=repr(reason),
            )
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise IllegalAction("invalid_end", f"no seat {seat!r}", seat=repr(seat))
        self._end = {"reason": reason, "seat": seat} if seat is not None else {"reason": reason}
        self.phase = P_OVER
        self.to_act = None

    # --- copies and records -------------------------------------------------------------------

    def _current_deal(self) -> tuple:
        return self.dealer, self._dealt, self._trump_card, self._actions

    def _deal_record(self, dealer, dealt, turned, actions) -> dict:
        rec = {"dealer": dealer, "hands": [[CARD_NAMES[c] for c in hand] for hand in dealt]}
        if turned >= 0:
            rec["trump_card"] = CARD_NAMES[turned]
        rec["actions"] = [history_entry_to_record(a) for a in actions]
        return rec

    # --- what a seat may see ------------------------------------------------------------------

    def _cards_shown(self) -> bool:
        return not (self.phase is P_BID and self._plan[self.deal_index].kind == DARK)  # dark: none before the bids

    def _variant_view(self, in_deal: bool) -> dict:
        spec = self.spec
        over = self.phase is P_OVER
        return {
            "deal_count": len(self._plan),
            "pulka": spec.pulka if spec else None,
            "pulka_kind": spec.kind if spec else None,
            "cards_per_player": spec.cards if spec else None,
            "dealer": self.dealer if spec else None,
            "trump_card": self.trump_card if in_deal else None,
            "trump_chooser": self.trump_chooser if in_deal else None,
            "bids": list(self.bids) if in_deal else [None] * 4,
            "forbidden_bid": self.forbidden_bid,
            "ranking": self.ranking() if over else None,
        }

    def _pulka_bonuses(self) -> list[list[int]]:
        return [list(p.bonus) for p in self._pulkas]

    def score_sheet(self) -> dict:
        """The public score sheet: every deal, every pulka's premium and moshla, running totals."""
        running = [0, 0, 0, 0]
        deals = []
        pulkas = []
        pulka_by_index = {p.pulka: p for p in self._pulkas}
        for r in self._results:
            for s in range(4):
                running[s] += r.scores[s]
            deals.append(
                {
                    "deal": r.index,
                    "pulka": r.pulka,
                    "kind": r.kind,
                    "cards": r.cards,
                    "dealer": r.dealer,
                    "trump": "none" if r.trump == NO_SUIT else SUITS[r.trump],
                    "bids": list(r.bids) if r.bids is not None else None,
                    "tricks": list(r.tricks),
                    "scores": list(r.scores),
                    "khishti": list(r.khishti),
                    "running_totals": list(running),
                }
            )
            p = pulka_by_index.get(r.pulka)
            if p is not None and self._plan[r.index].last_of_pulka:
                for s in range(4):
                    running[s] += p.premium[s] + p.moshla[s]
                pulkas.append(
                    {
                        "pulka": p.pulka,
                        "kind": p.kind,
                        "closed": list(p.closed),
                        "premium": list(p.premium),
                        "moshla": list(p.moshla),
                        "bonus": list(p.bonus),
                        "running_totals": list(running),
                    }
                )
        return {"deals": deals, "pulkas": pulkas, "totals": list(self.totals)}


def points_by_deal(sheet: dict) -> list[list[int]]:
    """What each deal of a ``score_sheet`` brought each seat: its scores and, on the last deal of a
    pulka, the pulka's premium and moshla (rules.md 2.8), so that they add up to the totals. The
    level bench counts a deal so, and a deal's review weighs moves so."""
    bonus = {p["pulka"]: p["bonus"] for p in sheet["pulkas"]}  # only the pulkas that ended
    last_row = {row["pulka"]: i for i, row in enumerate(sheet["deals"])}
    return [
        [score + extra for score, extra in zip(row["scores"], bonus[row["pulka"]])]
        if row["pulka"] in bonus and last_row[row["pulka"]] == i else list(row["scores"])
        for i, row in enumerate(sheet["deals"])
    ]
