"""The shape both variants share: ``GameState``, the base of ClassicState and JapaneseState,
and ``GameOptions``, the base of their options.

What is the same in the two games is written here once: option coercion, the
checks every move goes through (phase, turn, card, joker fields), ``is_legal``,
``apply``, ``apply_records``, ``legal_actions``, ``copy``, ``record_deals``,
``scores`` and the common part of ``view``. Each variant supplies its own deal,
mutators (``_deal_indices``, ``_choose_trump``, ``_bid``, ``_play``), its view's
extra keys and its score sheet.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .actions import Bid, ChooseTrump, Play, action_from_record
from .cards import (
    BIT,
    CARD_INDEX,
    CARD_NAMES,
    NO_SUIT,
    SUIT_INDEX,
    SUIT_MASK,
    SUITS,
    X1,
    X2,
    indices_mask,
    mask_to_cards,
    mask_to_indices,
)
from .common import (
    H_PLAY,
    MODE_NONE,
    P_BID,
    P_DEAL,
    P_OVER,
    P_PLAY,
    P_TRUMP,
    trick_to_public,
    trump_from_public,
)
from .errors import IllegalAction, InvalidDeal, InvalidOptions
from .outcome import decide


class GameOptions:
    """Coercion and record form of a variant's options (the subclasses are frozen dataclasses).

    ``RECORD_KEYS`` are the options a record carries; ``SEAT_KEY`` names the one
    that only places the first dealer or declarer (a record gives it by its first deal).
    """

    VARIANT = ""
    RECORD_KEYS: tuple[str, ...] = ()
    SEAT_KEY = ""

    @classmethod
    def coerce(cls, value):
        """The options from None (the defaults), an instance, or a dict of option values."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            unknown = set(value) - set(cls.RECORD_KEYS) - {cls.SEAT_KEY}
            if unknown:
                raise InvalidOptions(
                    "invalid_option", f"unknown {cls.VARIANT} options {sorted(unknown)}", option=min(unknown)
                )
            return cls(**value)
        raise InvalidOptions("invalid_option", "options must be a dict", option="options")

    def to_record(self) -> dict:
        return {key: getattr(self, key) for key in self.RECORD_KEYS}


class GameState(ABC):
    """A game of either variant, from the first deal to its end (docs/engine.md, "States").

    Every game keeps the attributes of ``__slots__`` (set by ``_start``): among them
    ``hands`` (masks by seat), ``_trump`` (None unknown, -1 none, 0-3), ``_mask``
    (the cards the seat to act may play), ``_pos`` (cards on the table in the
    current trick), ``_dealt`` (the current deal's cards, None between deals),
    ``_actions`` (its history) and ``_deals`` (finished deals).
    """

    __slots__ = (
        "_actions",
        "_carried_trick",
        "_deals",
        "_dealt",
        "_end",
        "_led",
        "_mask",
        "_moves_done",
        "_must_highest",
        "_pos",
        "_results",
        "_tricks_played",
        "_trump",
        "_trump_mask",
        "deal_index",
        "hands",
        "leader",
        "options",
        "phase",
        "taken",
        "to_act",
        "totals",
    )

    variant: str
    seats: int
    # Lists a copy must not share with the original (everything else is immutable or replaced).
    _OWN_LISTS: tuple[str, ...] = ()
    # The modes a joker is offered in (legal_actions): classic take/discard, Japanese none.
    _JOKER_MODES: tuple = ()
    _OVER_MESSAGE = "the game is over"

    # --- what each variant supplies ---------------------------------------------------------------

    @abstractmethod
    def deal(self, *cards) -> None:
        """Start the next deal with these cards (InvalidDeal, state untouched, when they are not a deal)."""

    @abstractmethod
    def _choose_trump(self, seat: int, trump: int) -> None: ...

    @abstractmethod
    def _play(self, seat: int, card: int, mode: int, suit: int) -> None: ...

    @abstractmethod
    def _check_joker(self, joker, suit_name) -> tuple[int, int]:
        """(mode, named suit) of a joker play, or IllegalAction."""

    @abstractmethod
    def _unplayable(self, seat: int, card: int, name: str) -> IllegalAction:
        """Why ``card`` may not be played now by ``seat``."""

    @abstractmethod
    def _current_deal(self) -> tuple:
        """The deal in play as it is kept in ``_deals`` once finished."""

    @abstractmethod
    def _deal_record(self, *deal) -> dict: ...

    @abstractmethod
    def _cards_shown(self) -> bool:
        """Whether the players see their dealt cards now (beyond the trump choice's three)."""

    @abstractmethod
    def _variant_view(self, in_deal: bool) -> dict:
        """The view's keys of this variant only (the same for every seat)."""

    @abstractmethod
    def score_sheet(self) -> dict: ...

    @abstractmethod
    def winners(self) -> list[int]: ...

    @abstractmethod
    def end_game(self, reason: str, seat: int | None = None) -> None: ...

    @property
    @abstractmethod
    def trick(self) -> list[tuple]:
        """History entries of the cards on the table in the current trick."""

    @property
    @abstractmethod
    def last_trick(self) -> tuple[list[tuple], int] | None:
        """(history entries, winner) of the last finished trick, also of the previous deal while waiting for cards."""

    def _start(self, options):
        """Set what every fresh game holds; returns the options (the variant's ``__init__`` sets the rest)."""
        seats = self.seats
        self.options = options
        self.phase = P_DEAL
        self.deal_index = 0
        self.to_act = None
        self.hands = [0] * seats
        self.taken = [0] * seats
        self.totals = [0] * seats
        self.leader = None
        self._dealt = None
        self._trump = None
        self._trump_mask = 0
        self._pos = 0  # cards in the current trick: the last _pos entries of _actions
        self._mask = 0  # in PLAY: the cards the seat to act may play (see _play)
        self._led = NO_SUIT
        self._must_highest = False  # the follower must play their highest card of the led suit
        self._tricks_played = 0
        self._actions = []
        self._deals = []  # finished deals, as _current_deal gives them
        self._carried_trick = None  # the previous deal's final trick, shown until this deal's first card
        self._results = []
        self._end = None
        self._moves_done = 0  # deals dealt + actions of finished deals
        return options

    # --- read-only facts ----------------------------------------------------------------------

    @property
    def trump(self) -> str | None:
        """"S"/"C"/"D"/"H", "none" for no trump, None while not yet known."""
        if self._trump is None:
            return None
        return "none" if self._trump == NO_SUIT else SUITS[self._trump]

    @property
    def move_count(self) -> int:
        """Deals and actions so far: a version number for the live match."""
        return self._moves_done + len(self._actions)

    @property
    def end(self) -> dict | None:
        return dict(self._end) if self._end else None

    def hand(self, seat: int) -> list[str]:
        """Cards a seat holds (server side; what a client may see is ``view``)."""
        return mask_to_cards(self.hands[seat])

    def is_over(self) -> bool:
        return self.phase is P_OVER

    def outcome(self, left=frozenset()):
        """Every seat's place and the winners (games/engine/outcome.py), `left`: the seats whose
        player left the game; None while the game runs or when it was aborted."""
        if self.phase is not P_OVER or (self._end or {}).get("reason") == "abort":
            return None
        return decide(self.variant, list(self.totals), self.winners(), left)

    def scores(self) -> dict:
        """The scores part of a replay verdict (record-format.md)."""
        return {
            "tricks": [list(r.tricks) for r in self._results],
            "deal_scores": [list(r.scores) for r in self._results],
            "pulka_bonus": self._pulka_bonuses(),
            "totals": list(self.totals),
            "finished": self.phase is P_OVER,
            "winner": self.winners(),
        }

    def _pulka_bonuses(self) -> list[list[int]]:
        return []

    # --- checks -------------------------------------------------------------------------------

    def _check_deal_expected(self) -> None:
        if self.phase is not P_DEAL:
            if self.phase is P_OVER:
                raise IllegalAction("game_over", self._OVER_MESSAGE)
            raise InvalidDeal("deal_not_expected", "the current deal is not finished")

    def _legal_mask(self, seat: int) -> int:
        """Cards the seat to act (in PLAY) may play, as a mask; kept up to date by ``_play``."""
        return self._mask

    def _available(self, seat: int) -> int:
        """The cards ``seat`` may play from (the hand; in Japanese also face-up cards)."""
        return self.hands[seat]

    def _phase_error(self, kind: str) -> IllegalAction:
        if self.phase is P_OVER:
            return IllegalAction("game_over", self._OVER_MESSAGE)
        return IllegalAction(
            "wrong_phase", f"{kind} is not possible now (phase: {self.phase.value})", phase=self.phase.value, kind=kind
        )

    def _not_your_turn(self, seat) -> IllegalAction:
        shown = seat if type(seat) is int else repr(seat)
        return IllegalAction("not_your_turn", f"it is seat {self.to_act}'s turn, not {shown}", seat=shown, to_act=self.to_act)

    def _follow_error(self, seat: int) -> IllegalAction:
        """Why a card the seat holds does not answer the trick (rules.md 2.4-2.5, 3.3)."""
        led = SUITS[self._led]
        follow = self._available(seat) & SUIT_MASK[self._led]
        if follow:
            if self._must_highest:
                high = CARD_NAMES[follow.bit_length() - 1]
                return IllegalAction(
                    "must_play_highest", f"the joker asks for the highest {led}: play {high}", suit=led, card=high
                )
            return IllegalAction("must_follow_suit", f"you hold {led} and must play it", suit=led)
        trump = SUITS[self._trump]
        return IllegalAction("must_trump", f"you have no {led} but hold trumps ({trump}) and must trump", suit=led, trump=trump)

    def _check(self, action):
        """Validate ``action``; return the internal arguments of its mutator, or raise."""
        kind = type(action)
        if kind is Play:
            return self._check_play_values(action[0], action[1], action[2], action[3])
        if kind is Bid:
            return self._check_bid_values(action[0], action[1])
        if kind is ChooseTrump:
            return self._check_trump(action)
        if self.phase is P_OVER:
            raise IllegalAction("game_over", self._OVER_MESSAGE)
        raise IllegalAction("invalid_action", f"not an action: {action!r}")

    def _check_trump(self, action: ChooseTrump):
        if self.phase is not P_TRUMP:
            raise self._phase_error("ChooseTrump")
        seat = action.seat
        if seat != self.to_act or type(seat) is not int:
            raise self._not_your_turn(seat)
        return seat, trump_from_public(action.suit)

    def _check_bid_values(self, seat, n):
        raise self._phase_error("Bid")  # a variant without bidding

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
            mode = MODE_NONE
            suit = NO_SUIT
        if not self._mask & BIT[card]:  # the legal cards (for a leader, every available card)
            raise self._unplayable(seat, card, name)
        return seat, card, mode, suit

    def _named_suit(self, suit_name) -> int:
        """The suit a joker names: a leading joker must name one, a following one none (rules.md 2.5)."""
        if self._pos:
            if suit_name is not None:
                raise IllegalAction("joker_suit_only_when_leading", "only a joker that leads names a suit")
            return NO_SUIT
        if suit_name is None:
            raise IllegalAction("joker_needs_suit", "a joker that leads names a suit")
        suit = SUIT_INDEX.get(suit_name, NO_SUIT) if type(suit_name) is str else NO_SUIT
        if suit == NO_SUIT:
            raise IllegalAction("invalid_suit", f"name S, C, D or H, not {suit_name!r}", suit=repr(suit_name))
        return suit

    def is_legal(self, action) -> bool:
        """True/False, never raises."""
        try:
            self._check(action)
        except IllegalAction:
            return False
        return True

    def legal_actions(self, seat: int) -> list:
        """Every legal action of ``seat`` now (empty when it is not their move).

        A joker appears once per variant: each mode it may be played in and,
        when leading, each named suit.
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
                    for mode in self._JOKER_MODES:
                        if leading:
                            actions.extend(Play(seat, name, mode, s) for s in SUITS)
                        else:
                            actions.append(Play(seat, name, mode))
                else:
                    actions.append(Play(seat, name))
            return actions
        if phase is P_BID:
            return self._legal_bids(seat)
        if phase is P_TRUMP:
            return [ChooseTrump(seat, s) for s in SUITS] + [ChooseTrump(seat, None)]
        return []

    def _legal_bids(self, seat: int) -> list:
        return []

    # --- moves --------------------------------------------------------------------------------

    def apply(self, action) -> None:
        """Make a move. An illegal one raises IllegalAction and leaves the state untouched."""
        kind = type(action)
        if kind is Play:
            seat, card, mode, suit = self._check_play_values(action[0], action[1], action[2], action[3])
            self._play(seat, card, mode, suit)
        elif kind is Bid:
            seat, n = self._check_bid_values(action[0], action[1])
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
                                play(seat, card, MODE_NONE, NO_SUIT)
                                continue
                            play(*check_play(seat, name, None, None))
                            continue
                        n = record.get("bid")
                        if type(n) is int:
                            seat, n = check_bid(seat, n)
                            self._bid(seat, n)
                            continue
                self.apply(action_from_record(record))
        except IllegalAction as e:
            e.params["index"] = j
            raise

    # --- copies and records -------------------------------------------------------------------

    def copy(self):
        """An independent copy (cheap: finished history is shared, it never changes)."""
        cls = type(self)
        new = object.__new__(cls)
        for name in GameState.__slots__ + cls.__slots__:
            setattr(new, name, getattr(self, name))
        for name in cls._OWN_LISTS:
            setattr(new, name, list(getattr(self, name)))
        return new

    def record_deals(self) -> list[dict]:
        """The deals so far (finished ones and the one in play) in record format."""
        out = [self._deal_record(*d) for d in self._deals]
        if self._dealt is not None:
            out.append(self._deal_record(*self._current_deal()))
        return out

    def record_mark(self) -> tuple[int, int, bool]:
        """Where the record of this position ends: (deals, actions of the last deal, ended).
        Pass it to ``record_since`` on a later position of the same game."""
        deals = len(self._deals) + (self._dealt is not None)
        if self._dealt is not None:
            last = len(self._actions)
        else:
            last = len(self._deals[-1][-1]) if self._deals else 0
        return deals, last, bool(self._end)

    def record_since(self, mark: tuple[int, int, bool]) -> list[dict]:
        """What the record gained since the position ``mark`` was taken of, as log entries:
        {"actions": [...]} (more actions of the deal that was last), {"deal": {...}, "index": n} (a
        new deal with its actions, and its place in the record), {"end": {...}}. Only the deals touched are converted."""
        deals, last, ended = mark
        entries = []
        finished = len(self._deals)
        start = max(deals - 1, 0)
        touched = [self._deal_record(*d) for d in self._deals[start:]]
        if self._dealt is not None and start <= finished:
            touched.append(self._deal_record(*self._current_deal()))
        if deals > 0 and touched:
            more = touched[0]["actions"][last:]
            if more:
                entries.append({"actions": more})
            touched = touched[1:]
        entries.extend({"deal": deal, "index": deals + i} for i, deal in enumerate(touched))
        if self._end and not ended:
            entries.append({"end": self.end})
        return entries

    # --- what a seat may see ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """Everything ``seat`` may see, as a JSON-serialisable dict (None: a spectator).

        This is the only place that decides visibility: a seat sees its own
        hand (only the first three cards before a trump choice, nothing while
        the cards are not shown yet), never another hand; every card played in
        the current deal, trick by trick, is public.
        """
        seats = self.seats
        if seat is not None and (type(seat) is not int or not 0 <= seat < seats):
            raise ValueError(f"no seat {seat!r}")
        phase = self.phase
        in_deal = phase is P_TRUMP or phase is P_BID or phase is P_PLAY
        counts = [0] * seats
        own: list[str] = []
        if phase is P_TRUMP:
            counts = [3] * seats
            if seat is not None:
                own = mask_to_cards(indices_mask(self._dealt[seat][:3]))
        elif in_deal and self._cards_shown():
            counts = [h.bit_count() for h in self.hands]
            if seat is not None:
                own = mask_to_cards(self.hands[seat])
        last = None
        finished_trick, trick_deal = self._shown_last_trick()
        if finished_trick is not None:
            last = {"cards": trick_to_public(finished_trick[0]), "winner": finished_trick[1], "deal": trick_deal}
        view = {
            "variant": self.variant,
            "seat": seat,
            "phase": phase.value,
            "options": self.options.to_record(),
            "deal_index": self.deal_index,
            "to_act": self.to_act,
            "trump": self.trump if in_deal else None,
            "hand": own,
            "hand_counts": counts,
            "leader": self.leader if phase is P_PLAY else None,
            "trick": trick_to_public(self.trick) if phase is P_PLAY else [],
            "last_trick": last,
            "tricks": self._finished_tricks(finished_trick),
            "tricks_taken": list(self.taken) if in_deal else [0] * seats,
            "score_sheet": self.score_sheet(),
            "totals": list(self.totals),
            "legal_actions": [a.to_record() for a in self.legal_actions(seat)] if seat is not None else [],
            "move_count": self.move_count,
            "finished": phase is P_OVER,
            "winner": self.winners(),
            "end": self.end,
        }
        view.update(self._variant_view(in_deal))
        return view

    def _carry_last_trick(self) -> None:
        """Called as a deal is dealt: remember the previous deal's final trick, which the views
        go on showing until the new deal's first card (perfect recall across the deal boundary)."""
        self._carried_trick = self.last_trick if self._deals else None

    def _shown_last_trick(self) -> tuple[tuple[list[tuple], int] | None, int | None]:
        """(the last finished trick a view shows, the index of its deal): within a deal its own last
        trick; from a new deal's dealing until its first card, the previous deal's final trick."""
        finished_trick = self.last_trick
        if finished_trick is not None:
            return finished_trick, self.deal_index if self._dealt is not None else self.deal_index - 1
        if self._dealt is not None and not self.trick and self._carried_trick is not None:
            return self._carried_trick, self.deal_index - 1  # nothing of this deal is played yet
        return None, None

    def _finished_tricks(self, finished_trick) -> list[dict]:
        """Every finished trick of the deal ``finished_trick`` (the view's last trick) belongs to:
        leader, cards, winner.

        A trick's winner leads the next one; the last finished trick's winner is
        ``finished_trick``'s.
        """
        if finished_trick is None:
            return []
        in_this_deal = self._dealt is not None and self.last_trick is not None
        actions = self._actions if in_this_deal else self._deals[-1][-1]
        plays = [entry for entry in actions if entry[0] == H_PLAY]
        size = self.seats
        count = len(plays) // size * size
        tricks = []
        for start in range(0, count, size):
            cards = plays[start : start + size]
            winner = plays[start + size][1] if start + size < len(plays) else finished_trick[1]
            tricks.append({"leader": cards[0][1], "cards": trick_to_public(cards), "winner": winner})
        return tricks
