"""Classic Joker: four players, bids, pulkas, the score sheet (rules.md section 2).

Speed matters (bots and benchmarks play many thousands of games), so a state
keeps hands as 36-bit masks, the current trick's winner incrementally, and a
precomputed "strength" table per (trump, led suit). The public API (``apply``,
``legal_actions``, ``view``) validates and then calls the same internal
mutators (``_choose_trump``, ``_bid``, ``_play``) and the same legality code
(``_legal_mask``) that the fast random-play path in ``randomplay.py`` uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .actions import Bid, ChooseTrump, Play, action_from_record
from .cards import (
    BIT,
    CARD_INDEX,
    CARD_NAMES,
    JOKER_MASK,
    NO_SUIT,
    SUIT_INDEX,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    X1,
    X2,
    check_distinct,
    dealt_indices,
    hand_mask,
    indices_mask,
    mask_to_cards,
    mask_to_indices,
)
from .common import (
    H_BID,
    H_PLAY,
    H_TRUMP,
    MODE_OF,
    P_BID,
    P_DEAL,
    P_OVER,
    P_PLAY,
    P_TRUMP,
    history_entry_to_record,
    ranks_by_total,
    trick_to_public,
    trump_from_public,
)
from .errors import IllegalAction, InvalidDeal, InvalidOptions

# --- the schedule of deals -------------------------------------------------------------------

NORMAL = "normal"
GOLDEN = "golden"
NO_TRUMP = "no_trump"
DARK = "dark"
MISERE = "misere"
BIDDING_KINDS = (NORMAL, NO_TRUMP, DARK)

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

# Trick strength of an ordinary card, by (trump + 1, led suit, card): 200+ for a trump,
# 100+ for the led suit, -1 for anything that can never win. Jokers are -1 here; a
# joker played as take gets 1000 + its position in the trick (a later take beats it).
_KEYS = tuple(
    tuple(
        tuple(
            -1
            if SUIT_OF[c] == NO_SUIT
            else 200 + c
            if SUIT_OF[c] == trump
            else 100 + c
            if SUIT_OF[c] == led
            else -1
            for c in range(36)
        )
        for led in range(4)
    )
    for trump in range(-1, 4)
)


_NO_MARKS = (False, False, False, False)
# History entries of ordinary cards, shared (tuples are immutable): no tuple to build per card.
_PLAIN_PLAYS = tuple((H_PLAY, seat, card, 0, NO_SUIT) for seat in range(4) for card in range(36))


def deal_score(bid: int, took: int, cards: int, khishti) -> int:
    """Score of one player in a bidding deal (rules.md 2.7)."""
    if took == bid:
        if bid == 0:
            return 50
        if bid == cards:
            return 100 * cards
        return 50 * (bid + 1)
    if took == 0:  # and bid >= 1: khishti
        return -(100 * cards if khishti == "per_card" else khishti)
    return 10 * took


def special_score(kind: str, took: int, cards: int) -> int:
    """Score in the golden and misère pulkas (no bidding)."""
    if kind == GOLDEN:
        return 100 * took
    return 100 * cards if took == cards else -100 * took


@dataclass(frozen=True)
class ClassicOptions:
    game_type: str = "standard"
    khishti: int | str = 200
    pulka_bonus: str = "premium_moshla"
    first_dealer: int = 0

    RECORD_KEYS = ("game_type", "khishti", "pulka_bonus")

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

    @classmethod
    def coerce(cls, value) -> ClassicOptions:
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            unknown = set(value) - set(cls.RECORD_KEYS) - {"first_dealer"}
            if unknown:
                raise InvalidOptions("invalid_option", f"unknown classic options {sorted(unknown)}", option=min(unknown))
            return cls(**value)
        raise InvalidOptions("invalid_option", "options must be a dict", option="options")

    def to_record(self) -> dict:
        return {"game_type": self.game_type, "khishti": self.khishti, "pulka_bonus": self.pulka_bonus}


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


class ClassicState:
    """A classic Joker game from the first deal to the final ranking."""

    variant = "classic"
    seats = 4

    __slots__ = (
        "_actions",
        "_bid_count",
        "_bid_sum",
        "_cards",
        "_deals",
        "_dealt",
        "_end",
        "_jokers",
        "_keyrow",
        "_keytab",
        "_khishti",
        "_last_winner",
        "_led",
        "_led_mask",
        "_mask",
        "_moves_done",
        "_must_highest",
        "_plan",
        "_pos",
        "_pulkas",
        "_results",
        "_tricks_played",
        "_trump",
        "_trump_card",
        "_trump_mask",
        "_win_key",
        "_win_seat",
        "bids",
        "deal_index",
        "dealer",
        "hands",
        "leader",
        "options",
        "phase",
        "taken",
        "to_act",
        "totals",
    )

    def __init__(self, options=None):
        opts = ClassicOptions.coerce(options)
        self.options = opts
        self._plan = PLANS[opts.game_type]
        self._khishti = opts.khishti
        self.phase = P_DEAL
        self.deal_index = 0
        self.dealer = opts.first_dealer
        self.to_act = None
        self.hands = [0, 0, 0, 0]
        self._dealt = None
        self._trump_card = -1
        self._trump = None
        self._trump_mask = 0
        self._keytab = None
        self._keyrow = None
        self.bids = [None, None, None, None]
        self._bid_count = 0
        self._bid_sum = 0
        self.taken = [0, 0, 0, 0]
        self._pos = 0  # cards in the current trick: the last _pos entries of _actions
        self._mask = 0  # in PLAY: the cards the seat to act may play (see _play)
        self._jokers = [0, 0, 0, 0]  # the jokers each seat holds (a mask)
        self.leader = None
        self._led = NO_SUIT
        self._led_mask = 0
        self._must_highest = False
        self._win_seat = None
        self._win_key = -1
        self._tricks_played = 0
        self._cards = 0
        self._last_winner = None
        self._actions = []
        self._deals = []  # finished deals: (dealer, dealt hands, trump card, history)
        self._results: list[DealResult] = []
        self._pulkas: list[PulkaResult] = []
        self.totals = [0, 0, 0, 0]
        self._end = None
        self._moves_done = 0  # deals dealt + actions of finished deals

    # --- read-only facts ----------------------------------------------------------------------

    @property
    def spec(self) -> DealSpec | None:
        """The current (or next, in DEAL) deal's place in the schedule; None once the game is over."""
        return self._plan[self.deal_index] if self.deal_index < len(self._plan) else None

    @property
    def trick(self) -> list[tuple]:
        """History entries of the cards on the table in the current trick."""
        return self._actions[len(self._actions) - self._pos :] if self._pos else []

    @property
    def last_trick(self) -> tuple[list[tuple], int] | None:
        """(history entries, winner) of the last finished trick, also of the previous deal while waiting for cards."""
        if self._last_winner is None:
            return None
        if self._dealt is None:
            return self._deals[-1][3][-4:], self._last_winner
        end = len(self._actions) - self._pos
        return self._actions[end - 4 : end], self._last_winner

    @property
    def move_count(self) -> int:
        """Deals and actions so far: a version number for the live match."""
        return self._moves_done + len(self._actions)

    @property
    def deal_count(self) -> int:
        return len(self._plan)

    @property
    def cards_per_player(self) -> int | None:
        spec = self.spec
        return spec.cards if spec else None

    @property
    def trump(self) -> str | None:
        """"S"/"C"/"D"/"H", "none" for no trump, None while not yet known."""
        if self._trump is None:
            return None
        return "none" if self._trump == NO_SUIT else SUITS[self._trump]

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

    @property
    def end(self) -> dict | None:
        return dict(self._end) if self._end else None

    def hand(self, seat: int) -> list[str]:
        """Cards a seat holds (server side; what a client may see is ``view``)."""
        return mask_to_cards(self.hands[seat])

    def is_over(self) -> bool:
        return self.phase is P_OVER

    def winners(self) -> list[int]:
        if self.phase is not P_OVER:
            return []
        best = max(self.totals)
        return [s for s in range(4) if self.totals[s] == best]

    def ranking(self) -> list[int]:
        """Final place of each seat (1 = first; equal totals share a place)."""
        return ranks_by_total(self.totals)

    def scores(self) -> dict:
        """The scores part of a replay verdict (record-format.md)."""
        return {
            "tricks": [list(r.tricks) for r in self._results],
            "deal_scores": [list(r.scores) for r in self._results],
            "pulka_bonus": [list(p.bonus) for p in self._pulkas],
            "totals": list(self.totals),
            "finished": self.phase is P_OVER,
            "winner": self.winners(),
        }

    # --- dealing ------------------------------------------------------------------------------

    def deal(self, hands, trump_card=None) -> None:
        """Start the next deal with these cards.

        ``hands``: four lists of record cards, by seat, each as long as the deal
        (in 9-card deals the first three are the ones seen before the trump
        choice). ``trump_card``: the turned card in 1-8-card deals, else None.
        Raises InvalidDeal and changes nothing when the cards are not a deal.
        """
        if self.phase is not P_DEAL:
            if self.phase is P_OVER:
                raise IllegalAction("game_over", "the game is over")
            raise InvalidDeal("deal_not_expected", "the current deal is not finished")
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
        spec = self._plan[self.deal_index]
        self._dealt = hands
        self._cards = spec.cards
        self.hands = masks if masks is not None else [hand_mask(hands[0]), hand_mask(hands[1]), hand_mask(hands[2]), hand_mask(hands[3])]
        self._jokers = [m & JOKER_MASK for m in self.hands]
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
            self._keytab = None
        else:
            self._trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
            self._keytab = _KEYS[trump + 1]

    # --- legality -----------------------------------------------------------------------------

    def _forbidden_bid(self) -> int:
        if self.phase is not P_BID or self._bid_count != 3:
            return -1
        rest = self._cards - self._bid_sum
        return rest if rest >= 0 else -1

    def _legal_mask(self, seat: int) -> int:
        """Cards the seat to act (in PLAY) may play, as a mask; kept up to date by ``_play``."""
        return self._mask

    def _follow_error(self, seat: int, card: int) -> IllegalAction:
        hand = self.hands[seat]
        led = SUITS[self._led]
        follow = hand & SUIT_MASK[self._led]
        if follow:
            if self._must_highest:
                high = CARD_NAMES[follow.bit_length() - 1]
                return IllegalAction(
                    "must_play_highest",
                    f"the joker asks for the highest {led}: play {high}",
                    suit=led,
                    card=high,
                )
            return IllegalAction("must_follow_suit", f"you hold {led} and must play it", suit=led)
        trump = SUITS[self._trump]
        return IllegalAction("must_trump", f"you have no {led} but hold trumps ({trump}) and must trump", suit=led, trump=trump)

    def _phase_error(self, kind: str) -> IllegalAction:
        if self.phase is P_OVER:
            return IllegalAction("game_over", "the game is over")
        return IllegalAction(
            "wrong_phase", f"{kind} is not possible now (phase: {self.phase.value})", phase=self.phase.value, kind=kind
        )

    def _check(self, action):
        """Validate ``action``; return the internal arguments of its mutator, or raise."""
        kind = type(action)
        if kind is Play:
            return self._check_play(action)
        if kind is Bid:
            return self._check_bid(action)
        if kind is ChooseTrump:
            return self._check_trump(action)
        if self.phase is P_OVER:
            raise IllegalAction("game_over", "the game is over")
        raise IllegalAction("invalid_action", f"not an action: {action!r}")

    def _not_your_turn(self, seat) -> IllegalAction:
        shown = seat if type(seat) is int else repr(seat)
        return IllegalAction("not_your_turn", f"it is seat {self.to_act}'s turn, not {shown}", seat=shown, to_act=self.to_act)

    def _check_trump(self, action: ChooseTrump):
        if self.phase is not P_TRUMP:
            raise self._phase_error("ChooseTrump")
        seat = action.seat
        if seat != self.to_act or type(seat) is not int:
            raise self._not_your_turn(seat)
        return seat, trump_from_public(action.suit)

    def _check_bid(self, action: Bid):
        return self._check_bid_values(action[0], action[1])

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

    def _check_play(self, action: Play):
        return self._check_play_values(action[0], action[1], action[2], action[3])

    def _check_play_values(self, seat, name, joker, suit_name):
        if self.phase is not P_PLAY:
            raise self._phase_error("Play")
        if seat != self.to_act or type(seat) is not int:
            raise self._not_your_turn(seat)
        card = CARD_INDEX.get(name, -1) if type(name) is str else -1
        if card < 0:
            raise IllegalAction("unknown_card", f"{name!r} is not a card", card=repr(name))
        if card == X1 or card == X2:
            mode, suit = self._check_joker(joker, suit_name)
        elif joker is not None or suit_name is not None:
            raise IllegalAction("joker_fields_on_card", f"{name} is not a joker", card=name)
        else:
            mode = 0
            suit = NO_SUIT
        if not self._mask & BIT[card]:  # the legal cards (for a leader, the whole hand)
            if not self.hands[seat] & BIT[card]:
                raise IllegalAction("card_not_available", f"{name} is not in your hand", card=name)
            raise self._follow_error(seat, card)
        return seat, card, mode, suit

    def _check_joker(self, joker, suit_name) -> tuple[int, int]:
        """Mode and named suit of a joker play (rules.md 2.5)."""
        if joker is None:
            raise IllegalAction("joker_needs_mode", "say take or discard with a joker")
        mode = MODE_OF.get(joker, 0) if type(joker) is str else 0
        if not mode:
            raise IllegalAction("invalid_joker_mode", f"a joker is take or discard, not {joker!r}", joker=repr(joker))
        if self._pos:
            if suit_name is not None:
                raise IllegalAction("joker_suit_only_when_leading", "only a joker that leads names a suit")
            return mode, NO_SUIT
        if suit_name is None:
            raise IllegalAction("joker_needs_suit", "a joker that leads names a suit")
        suit = SUIT_INDEX.get(suit_name, NO_SUIT) if type(suit_name) is str else NO_SUIT
        if suit == NO_SUIT:
            raise IllegalAction("invalid_suit", f"name S, C, D or H, not {suit_name!r}", suit=repr(suit_name))
        return mode, suit

    def is_legal(self, action) -> bool:
        try:
            self._check(action)
        except IllegalAction:
            return False
        return True

    def legal_actions(self, seat: int) -> list:
        """Every legal action of ``seat`` now (empty when it is not their move).

        A joker appears once per variant: take/discard and, when leading, each
        named suit.
        """
        if seat != self.to_act or type(seat) is not int:
            return []
        phase = self.phase
        if phase is P_PLAY:
            leading = not self._pos
            actions = []
            for card in mask_to_indices(self._legal_mask(seat)):
                name = CARD_NAMES[card]
                if card == X1 or card == X2:
                    for mode in ("take", "discard"):
                        if leading:
                            actions.extend(Play(seat, name, mode, s) for s in SUITS)
                        else:
                            actions.append(Play(seat, name, mode))
                else:
                    actions.append(Play(seat, name))
            return actions
        if phase is P_BID:
            forbidden = self._forbidden_bid()
            return [Bid(seat, n) for n in range(self._cards + 1) if n != forbidden]
        if phase is P_TRUMP:
            return [ChooseTrump(seat, s) for s in SUITS] + [ChooseTrump(seat, None)]
        return []

    # --- moves --------------------------------------------------------------------------------

    def apply(self, action) -> None:
        """Make a move. An illegal one raises IllegalAction and leaves the state untouched."""
        kind = type(action)
        if kind is Play:
            seat, card, mode, suit = self._check_play(action)
            self._play(seat, card, mode, suit)
        elif kind is Bid:
            seat, n = self._check_bid(action)
            self._bid(seat, n)
        else:
            seat, trump = self._check(action)
            self._choose_trump(seat, trump)

    def apply_record(self, record: dict) -> None:
        """``apply(action_from_record(record))``."""
        self.apply(action_from_record(record))

    def apply_records(self, records: list) -> None:
        """Apply record-format actions in order (replays).

        Exactly ``apply_record`` on each; plain plays and bids skip building
        the action object and go straight to the same checks. On an illegal
        action, raises IllegalAction with ``params["index"]`` set to its
        position; the actions before it stay applied.
        """
        check_play = self._check_play_values
        check_bid = self._check_bid_values
        play = self._play
        bid = self._bid
        card_of = CARD_INDEX.get
        j = 0
        try:
            for j, record in enumerate(records):
                if type(record) is dict and len(record) == 2:
                    seat = record.get("seat")
                    if type(seat) is int:
                        name = record.get("play")
                        if type(name) is str:
                            # An ordinary card among the legal ones (_mask) of the seat to act is
                            # exactly what _check_play_values would pass: play it at once.
                            card = card_of(name, X1)
                            if card != X1 and card != X2 and seat == self.to_act and self._mask & BIT[card] and self.phase is P_PLAY:
                                play(seat, card, 0, NO_SUIT)
                                continue
                            seat, card, mode, suit = check_play(seat, name, None, None)
                            play(seat, card, mode, suit)
                            continue
                        n = record.get("bid")
                        if type(n) is int:
                            seat, n = check_bid(seat, n)
                            bid(seat, n)
                            continue
                self.apply(action_from_record(record))
        except IllegalAction as e:
            e.params["index"] = j
            raise

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
        self._actions.append(_PLAIN_PLAYS[seat * 36 + card] if mode == 0 else (2, seat, card, mode, suit))
        pos = self._pos
        if pos == 0:
            if card == X1 or card == X2:
                self._jokers[seat] ^= BIT[card]
                led = suit
                self._must_highest = mode == 1
                self._keyrow = self._keytab[suit]
                self._win_key = 1000 if mode == 1 else -1
            else:
                led = SUIT_OF[card]
                self._must_highest = False
                row = self._keyrow = self._keytab[led]
                self._win_key = row[card]
            self._led = led
            self._led_mask = SUIT_MASK[led]
            self._win_seat = seat
            self._pos = 1
        else:
            if mode:
                self._jokers[seat] ^= BIT[card]
            key = 1000 + pos if mode == 1 else self._keyrow[card]
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
        # What the follower may play (rules.md 2.4-2.5); the only place these rules are written.
        hand = hands[follower]
        jokers = self._jokers[follower]
        follow = hand & self._led_mask
        if follow:
            if self._must_highest:
                follow = BIT[follow.bit_length() - 1]
            self._mask = follow | jokers if jokers else follow
        else:
            trumps = hand & self._trump_mask
            if trumps:
                self._mask = trumps | jokers if jokers else trumps
            else:
                self._mask = hand

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
        self._deals.append((self.dealer, self._dealt, self._trump_card, self._actions))
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
            closed = tuple(all(r.bids[s] == r.tricks[s] for r in deals) for s in range(4))
            best = tuple(max(r.scores[s] for r in deals) for s in range(4))
            premium = zeros
            moshla = zeros
            if mode != "none":
                premium = tuple(best[s] if closed[s] else 0 for s in range(4))
            if mode == "premium_moshla" and any(closed):
                moshla = tuple(-best[s] if not closed[s] and best[s] > 0 else 0 for s in range(4))
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

    def copy(self) -> ClassicState:
        """An independent copy (cheap: finished history is shared, it never changes)."""
        new = object.__new__(ClassicState)
        for name in ClassicState.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new._jokers = list(self._jokers)
        new.bids = list(self.bids)
        new.taken = list(self.taken)
        new._actions = list(self._actions)
        new._deals = list(self._deals)
        new._results = list(self._results)
        new._pulkas = list(self._pulkas)
        new.totals = list(self.totals)
        return new

    def record_deals(self) -> list[dict]:
        """The deals so far (finished ones and the one in play) in record format."""
        out = [self._deal_record(*d) for d in self._deals]
        if self._dealt is not None:
            out.append(self._deal_record(self.dealer, self._dealt, self._trump_card, self._actions))
        return out

    def _deal_record(self, dealer, dealt, turned, actions) -> dict:
        rec = {"dealer": dealer, "hands": [[CARD_NAMES[c] for c in hand] for hand in dealt]}
        if turned >= 0:
            rec["trump_card"] = CARD_NAMES[turned]
        rec["actions"] = [history_entry_to_record(a) for a in actions]
        return rec

    # --- what a seat may see ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """Everything ``seat`` may see, as a JSON-serialisable dict (None: a spectator).

        This is the only place that decides visibility: a seat sees its own
        hand (only the first three cards before a 9-card trump choice, nothing
        before the dark pulka's bids), never another hand.
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise ValueError(f"no seat {seat!r}")
        phase = self.phase
        spec = self.spec
        in_deal = phase in (P_TRUMP, P_BID, P_PLAY)
        counts = [0, 0, 0, 0]
        own: list[str] = []
        if in_deal:
            if spec.kind == DARK and phase is P_BID:
                counts = [0, 0, 0, 0]  # nothing dealt yet, as far as anyone may know
            elif phase is P_TRUMP:
                counts = [3, 3, 3, 3]
                if seat is not None:
                    own = mask_to_cards(indices_mask(self._dealt[seat][:3]))
            else:
                counts = [h.bit_count() for h in self.hands]
                if seat is not None:
                    own = mask_to_cards(self.hands[seat])
        legal = [a.to_record() for a in self.legal_actions(seat)] if seat is not None else []
        last = None
        finished_trick = self.last_trick
        if finished_trick is not None:
            last = {"cards": trick_to_public(finished_trick[0]), "winner": finished_trick[1]}
        return {
            "variant": "classic",
            "seat": seat,
            "phase": phase.value,
            "options": self.options.to_record(),
            "deal_index": self.deal_index,
            "deal_count": len(self._plan),
            "pulka": spec.pulka if spec else None,
            "pulka_kind": spec.kind if spec else None,
            "cards_per_player": spec.cards if spec else None,
            "dealer": self.dealer if spec else None,
            "to_act": self.to_act,
            "trump": self.trump if in_deal else None,
            "trump_card": self.trump_card if in_deal else None,
            "trump_chooser": self.trump_chooser if in_deal else None,
            "hand": own,
            "hand_counts": counts,
            "bids": list(self.bids) if in_deal else [None] * 4,
            "forbidden_bid": self.forbidden_bid,
            "leader": self.leader if phase is P_PLAY else None,
            "trick": trick_to_public(self.trick) if phase is P_PLAY else [],
            "last_trick": last,
            "tricks_taken": list(self.taken) if in_deal else [0, 0, 0, 0],
            "score_sheet": self.score_sheet(),
            "totals": list(self.totals),
            "legal_actions": legal,
            "move_count": self.move_count,
            "finished": phase is P_OVER,
            "winner": self.winners(),
            "ranking": self.ranking() if phase is P_OVER else None,
            "end": self.end,
        }

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
