"""Japanese Joker: two players, five table columns, difference scoring (rules.md section 3)."""

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
    H_PLAY,
    H_TRUMP,
    P_DEAL,
    P_OVER,
    P_PLAY,
    P_TRUMP,
    history_entry_to_record,
    trick_to_public,
    trump_from_public,
)
from .errors import IllegalAction, InvalidDeal, InvalidOptions

TARGETS = (11, 15, 21, 31)
TRICKS_PER_DEAL = 18
HAND_SIZE = 8
COLUMNS = 5


@dataclass(frozen=True)
class JapaneseOptions:
    target: int = 21
    first_declarer: int = 0

    RECORD_KEYS = ("target",)

    def __post_init__(self):
        if self.target not in TARGETS or type(self.target) is not int:
            raise InvalidOptions("invalid_option", f"target must be one of {TARGETS}", option="target")
        if type(self.first_declarer) is not int or self.first_declarer not in (0, 1):
            raise InvalidOptions("invalid_option", "first_declarer must be seat 0 or 1", option="first_declarer")

    @classmethod
    def coerce(cls, value) -> JapaneseOptions:
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            unknown = set(value) - set(cls.RECORD_KEYS) - {"first_declarer"}
            if unknown:
                raise InvalidOptions("invalid_option", f"unknown japanese options {sorted(unknown)}", option=min(unknown))
            return cls(**value)
        raise InvalidOptions("invalid_option", "options must be a dict", option="options")

    def to_record(self) -> dict:
        return {"target": self.target}


class JapaneseDealResult(NamedTuple):
    index: int
    declarer: int
    trump: int  # -1 = no trump
    tricks: tuple
    scores: tuple


def follower_wins(lead: int, named: int, follow: int, trump: int) -> bool:
    """Who takes a Japanese trick (rules.md 3.4): True when the follower's card wins.

    ``named`` is the suit a leading joker named (ignored for an ordinary lead),
    ``trump`` the trump suit or -1.
    """
    if follow == X1 or follow == X2:
        return True
    follow_suit = SUIT_OF[follow]
    if lead == X1 or lead == X2:
        return trump != NO_SUIT and named != trump and follow_suit == trump
    lead_suit = SUIT_OF[lead]
    if follow_suit == trump and lead_suit != trump:
        return True
    return follow_suit == lead_suit and follow > lead


def split_deck(items, declarer: int, pairs=list):
    """Hands and columns (by seat) from a deck order, as a dealer deals.

    Declarer first, then the other: 3 cards each; then 5 more each into the
    hand; then each player's ten table cards, column by column, face-down card
    first; each column is ``pairs((face_down, face_up))``. Works on strings and
    on card indices.
    """
    order = (declarer, 1 - declarer)
    hands = [None, None]
    columns = [None, None]
    for k, seat in enumerate(order):
        hands[seat] = list(items[3 * k : 3 * k + 3]) + list(items[6 + 5 * k : 11 + 5 * k])
        table = items[16 + 10 * k : 26 + 10 * k]
        columns[seat] = [pairs((table[2 * c], table[2 * c + 1])) for c in range(COLUMNS)]
    return hands, columns


class JapaneseState:
    """A Japanese Joker match, deal after deal, until someone reaches the target."""

    variant = "japanese"
    seats = 2

    __slots__ = (
        "_actions",
        "_col_of",
        "_cols",
        "_deals",
        "_dealt",
        "_dealt_cols",
        "_end",
        "_first_done",
        "_joker_led",
        "_lead_card",
        "_led",
        "_live",
        "_mask",
        "_moves_done",
        "_pos",
        "_results",
        "_tricks_played",
        "_trump",
        "_trump_mask",
        "_winner",
        "deal_index",
        "declarer",
        "hands",
        "last_trick",
        "leader",
        "options",
        "phase",
        "taken",
        "to_act",
        "totals",
        "up",
    )

    def __init__(self, options=None):
        opts = JapaneseOptions.coerce(options)
        self.options = opts
        self.phase = P_DEAL
        self.deal_index = 0
        self.declarer = opts.first_declarer
        self.to_act = None
        self.hands = [0, 0]
        self.up = [0, 0]
        self._cols = None
        self._live = [0, 0]
        self._col_of = None
        self._first_done = [False, False]
        self._dealt = None
        self._dealt_cols = None
        self._trump = None
        self._trump_mask = 0
        self.taken = [0, 0]
        self._pos = 0  # 1 while the lead card waits for the answer
        self._mask = 0  # in PLAY: the cards the seat to act may play (see _play)
        self._lead_card = -1
        self.leader = None
        self._led = NO_SUIT
        self._joker_led = False
        self._tricks_played = 0
        self.last_trick = None
        self._actions = []
        self._deals = []
        self._results: list[JapaneseDealResult] = []
        self.totals = [0, 0]
        self._winner = None
        self._end = None
        self._moves_done = 0

    # --- read-only facts ----------------------------------------------------------------------

    @property
    def trump(self) -> str | None:
        if self._trump is None:
            return None
        return "none" if self._trump == NO_SUIT else SUITS[self._trump]

    @property
    def trick(self) -> list[tuple]:
        """History entries of the cards on the table in the current trick (0 or 1)."""
        return self._actions[-1:] if self._pos else []

    @property
    def move_count(self) -> int:
        """Deals and actions so far: a version number for the live match."""
        return self._moves_done + len(self._actions)

    @property
    def results(self) -> list[JapaneseDealResult]:
        return list(self._results)

    @property
    def end(self) -> dict | None:
        return dict(self._end) if self._end else None

    def hand(self, seat: int) -> list[str]:
        return mask_to_cards(self.hands[seat])

    def face_up(self, seat: int) -> list[str]:
        return mask_to_cards(self.up[seat])

    def available(self, seat: int) -> list[str]:
        """Cards ``seat`` could play now if it were their move and they led."""
        return mask_to_cards(self._available(seat))

    def is_over(self) -> bool:
        return self.phase is P_OVER

    def winners(self) -> list[int]:
        return [self._winner] if self._winner is not None else []

    def scores(self) -> dict:
        return {
            "tricks": [list(r.tricks) for r in self._results],
            "deal_scores": [list(r.scores) for r in self._results],
            "pulka_bonus": [],
            "totals": list(self.totals),
            "finished": self.phase is P_OVER,
            "winner": self.winners(),
        }

    # --- dealing ------------------------------------------------------------------------------

    def deal(self, hands, columns) -> None:
        """Start the next deal: ``hands`` two lists of 8 record cards (first 3 seen
        before the trump choice), ``columns`` per seat five ``[face_down, face_up]``.
        Raises InvalidDeal and changes nothing when the cards are not the deck."""
        if self.phase is not P_DEAL:
            if self.phase is P_OVER:
                raise IllegalAction("game_over", "the match is over")
            raise InvalidDeal("deal_not_expected", "the current deal is not finished")
        if not isinstance(hands, (list, tuple)) or len(hands) != 2:
            raise InvalidDeal("wrong_hand_count", "a Japanese deal needs two hands")
        if not isinstance(columns, (list, tuple)) or len(columns) != 2:
            raise InvalidDeal("wrong_column_count", "a Japanese deal needs columns for both players")
        hand_idx = []
        for seat, hand in enumerate(hands):
            if not isinstance(hand, (list, tuple)) or len(hand) != HAND_SIZE:
                got = len(hand) if isinstance(hand, (list, tuple)) else None
                raise InvalidDeal(
                    "wrong_hand_size", f"seat {seat} must get {HAND_SIZE} cards in hand", seat=seat, expected=HAND_SIZE, got=got
                )
            hand_idx.append(dealt_indices(hand))
        col_idx = []
        every = hand_idx[0] + hand_idx[1]
        for seat, cols in enumerate(columns):
            if not isinstance(cols, (list, tuple)) or len(cols) != COLUMNS:
                raise InvalidDeal("wrong_column_count", f"seat {seat} needs {COLUMNS} columns", seat=seat)
            row = []
            for col in cols:
                if not isinstance(col, (list, tuple)) or len(col) != 2:
                    raise InvalidDeal("malformed_column", f"a column is [face_down, face_up], not {col!r}", seat=seat)
                down, up = dealt_indices(col)
                row.append((down, up))
                every.append(down)
                every.append(up)
            col_idx.append(row)
        check_distinct(every)
        self._deal_indices(hand_idx, col_idx)

    def _deal_indices(self, hands: list[list[int]], columns: list[list[tuple[int, int]]]) -> None:
        """Start the deal from card indices already checked (fast path)."""
        self._dealt = hands
        self._dealt_cols = columns
        self.hands = [hand_mask(hands[0]), hand_mask(hands[1])]
        self._cols = [list(columns[0]), list(columns[1])]
        col_of = [-1] * 36
        ups = [[], []]
        for seat in (0, 1):
            row = ups[seat]
            for c, (_, up) in enumerate(columns[seat]):
                col_of[up] = c
                row.append(up)
        self.up = [hand_mask(ups[0]), hand_mask(ups[1])]
        self._col_of = col_of
        self._live = [COLUMNS, COLUMNS]
        self._first_done = [False, False]
        self._trump = None
        self._trump_mask = 0
        self.taken = [0, 0]
        self._pos = 0
        self.last_trick = None
        self._actions = []
        self._tricks_played = 0
        self.to_act = self.declarer
        self.leader = self.declarer
        self.phase = P_TRUMP
        self._moves_done += 1

    # --- legality -----------------------------------------------------------------------------

    def _available(self, seat: int) -> int:
        if self._first_done[seat]:
            return self.hands[seat] | self.up[seat]
        return self.hands[seat]

    def _legal_mask(self, seat: int) -> int:
        """Cards the seat to act (in PLAY) may play, as a mask; kept up to date by ``_play``."""
        return self._mask

    def _follow_error(self, seat: int) -> IllegalAction:
        avail = self._available(seat)
        led = SUITS[self._led]
        follow = avail & SUIT_MASK[self._led]
        if follow:
            if self._joker_led:
                high = CARD_NAMES[follow.bit_length() - 1]
                return IllegalAction(
                    "must_play_highest", f"the joker asks for the highest {led}: play {high}", suit=led, card=high
                )
            return IllegalAction("must_follow_suit", f"you hold {led} and must play it", suit=led)
        trump = SUITS[self._trump]
        return IllegalAction("must_trump", f"you have no {led} but hold trumps ({trump}) and must trump", suit=led, trump=trump)

    def _phase_error(self, kind: str) -> IllegalAction:
        if self.phase is P_OVER:
            return IllegalAction("game_over", "the match is over")
        return IllegalAction(
            "wrong_phase", f"{kind} is not possible now (phase: {self.phase.value})", phase=self.phase.value, kind=kind
        )

    def _not_your_turn(self, seat) -> IllegalAction:
        shown = seat if type(seat) is int else repr(seat)
        return IllegalAction("not_your_turn", f"it is seat {self.to_act}'s turn, not {shown}", seat=shown, to_act=self.to_act)

    def _check(self, action):
        kind = type(action)
        if kind is Play:
            return self._check_play(action)
        if kind is ChooseTrump:
            if self.phase is not P_TRUMP:
                raise self._phase_error("ChooseTrump")
            seat = action.seat
            if seat != self.to_act or type(seat) is not int:
                raise self._not_your_turn(seat)
            return seat, trump_from_public(action.suit)
        if self.phase is P_OVER:
            raise IllegalAction("game_over", "the match is over")
        if kind is Bid:
            raise self._phase_error("Bid")  # Japanese Joker has no bidding
        raise IllegalAction("invalid_action", f"not an action: {action!r}")

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
        suit = NO_SUIT
        if card == X1 or card == X2:
            if joker is not None and joker != "take":
                if joker == "discard":
                    raise IllegalAction("joker_cannot_discard", "in Japanese Joker a joker always takes")
                raise IllegalAction("invalid_joker_mode", f"a joker is take or discard, not {joker!r}", joker=repr(joker))
            if not self._pos:
                if suit_name is None:
                    raise IllegalAction("joker_needs_suit", "a joker that leads names a suit")
                suit = SUIT_INDEX.get(suit_name, NO_SUIT) if type(suit_name) is str else NO_SUIT
                if suit == NO_SUIT:
                    raise IllegalAction("invalid_suit", f"name S, C, D or H, not {suit_name!r}", suit=repr(suit_name))
            elif suit_name is not None:
                raise IllegalAction("joker_suit_only_when_leading", "only a joker that leads names a suit")
        elif joker is not None or suit_name is not None:
            raise IllegalAction("joker_fields_on_card", f"{name} is not a joker", card=name)
        bit = BIT[card]
        if not self._mask & bit:  # the legal cards (for a leader, every available card)
            if not self.hands[seat] & bit:
                if not self.up[seat] & bit:
                    raise IllegalAction(
                        "card_not_available", f"{name} is not in your hand or face up in your columns", card=name
                    )
                if not self._first_done[seat]:
                    raise IllegalAction("first_card_from_hand", "your first card of a deal comes from the hand", card=name)
            raise self._follow_error(seat)
        return seat, card, suit

    def is_legal(self, action) -> bool:
        try:
            self._check(action)
        except IllegalAction:
            return False
        return True

    def legal_actions(self, seat: int) -> list:
        """Every legal action of ``seat`` now; a leading joker once per named suit."""
        if seat != self.to_act or type(seat) is not int:
            return []
        if self.phase is P_PLAY:
            leading = not self._pos
            actions = []
            for card in mask_to_indices(self._legal_mask(seat)):
                name = CARD_NAMES[card]
                if leading and (card == X1 or card == X2):
                    actions.extend(Play(seat, name, None, s) for s in SUITS)
                else:
                    actions.append(Play(seat, name))
            return actions
        if self.phase is P_TRUMP:
            return [ChooseTrump(seat, s) for s in SUITS] + [ChooseTrump(seat, None)]
        return []

    # --- moves --------------------------------------------------------------------------------

    def apply(self, action) -> None:
        """Make a move. An illegal one raises IllegalAction and leaves the state untouched."""
        args = self._check(action)
        if type(action) is Play:
            self._play(*args)
        else:
            self._choose_trump(*args)

    def apply_record(self, record: dict) -> None:
        """``apply(action_from_record(record))``."""
        self.apply(action_from_record(record))

    def apply_records(self, records: list) -> None:
        """Apply record-format actions in order (replays).

        Exactly ``apply_record`` on each; plain plays skip building the action
        object and go straight to the same checks. On an illegal action, raises
        IllegalAction with ``params["index"]`` set to its position; the actions
        before it stay applied.
        """
        check_play = self._check_play_values
        play = self._play
        card_of = CARD_INDEX.get
        j = 0
        try:
            for j, record in enumerate(records):
                if type(record) is dict and len(record) == 2:
                    seat = record.get("seat")
                    name = record.get("play")
                    if type(seat) is int and type(name) is str:
                        # An ordinary card among the legal ones (_mask) of the seat to act is
                        # exactly what _check_play_values would pass: play it at once.
                        card = card_of(name, X1)
                        if card != X1 and card != X2 and seat == self.to_act and self._mask & BIT[card] and self.phase is P_PLAY:
                            play(seat, card, NO_SUIT)
                            continue
                        seat, card, suit = check_play(seat, name, None, None)
                        play(seat, card, suit)
                        continue
                self.apply(action_from_record(record))
        except IllegalAction as e:
            e.params["index"] = j
            raise

    def _choose_trump(self, seat: int, trump: int) -> None:
        self._trump = trump
        self._trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        self._actions.append((H_TRUMP, seat, trump))
        self.phase = P_PLAY
        self.to_act = self.declarer
        self._mask = self.hands[self.declarer]  # the first card comes from the hand

    def _play(self, seat: int, card: int, suit: int) -> None:
        bit = BIT[card]
        hands = self.hands
        if hands[seat] & bit:
            hands[seat] ^= bit
        else:
            self._play_from_column(seat, card)
        first_done = self._first_done
        first_done[seat] = True
        actions = self._actions
        actions.append((H_PLAY, seat, card, 0, suit))
        if not self._pos:
            self._pos = 1
            self._lead_card = card
            if card == X1 or card == X2:
                led = self._led = suit
                joker_led = self._joker_led = True
            else:
                led = self._led = SUIT_OF[card]
                joker_led = self._joker_led = False
            other = self.to_act = 1 - seat
            # What the follower may play (rules.md 3.3); the only place these rules are written.
            avail = hands[other] | self.up[other] if first_done[other] else hands[other]
            jokers = avail & JOKER_MASK
            follow = avail & SUIT_MASK[led]
            if follow:
                if joker_led:
                    follow = BIT[follow.bit_length() - 1]
                self._mask = follow | jokers
            else:
                trumps = avail & self._trump_mask
                self._mask = trumps | jokers if trumps else avail
            return
        self._pos = 0
        winner = seat if follower_wins(self._lead_card, self._led, card, self._trump) else 1 - seat
        self.taken[winner] += 1
        self.last_trick = (actions[-2:], winner)
        self.leader = winner
        self.to_act = winner
        self._mask = hands[winner] | self.up[winner] if first_done[winner] else hands[winner]
        played = self._tricks_played = self._tricks_played + 1
        if played == TRICKS_PER_DEAL:
            self._end_deal()

    def _play_from_column(self, seat: int, card: int) -> None:
        """The face-up card leaves its column; the face-down card under it goes to the hand.
        With two columns left, the other column goes to the hand too (rules.md 3.2)."""
        self.up[seat] ^= BIT[card]
        cols = self._cols[seat]
        c = self._col_of[card]
        hand = self.hands[seat] | BIT[cols[c][0]]
        cols[c] = None
        live = self._live[seat] - 1
        if live == 1:
            for i, col in enumerate(cols):
                if col is not None:
                    hand |= BIT[col[0]] | BIT[col[1]]
                    self.up[seat] ^= BIT[col[1]]
                    cols[i] = None
            live = 0
        self._live[seat] = live
        self.hands[seat] = hand

    def _end_deal(self) -> None:
        a, b = self.taken
        scores = (a - b, 0) if a > b else (0, b - a)
        self._results.append(JapaneseDealResult(self.deal_index, self.declarer, self._trump, (a, b), scores))
        self._deals.append((self.declarer, self._dealt, self._dealt_cols, self._actions))
        self._moves_done += len(self._actions)
        self._actions = []
        self._dealt = None
        self.totals[0] += scores[0]
        self.totals[1] += scores[1]
        self.deal_index += 1
        self.to_act = None
        target = self.options.target
        for seat in (0, 1):
            if self.totals[seat] >= target:
                self._winner = seat
                self.phase = P_OVER
                return
        self.phase = P_DEAL
        self.declarer = 1 - self.declarer

    def end_game(self, reason: str, seat: int | None = None) -> None:
        """End the match early: ``resign``/``forfeit`` by ``seat`` (the other seat wins) or ``abort`` (nobody wins)."""
        if reason not in ("resign", "forfeit", "abort"):
            raise IllegalAction("invalid_end", f"unknown end reason {reason!r}", reason=repr(reason))
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise IllegalAction("invalid_end", f"no seat {seat!r}", seat=repr(seat))
        if reason != "abort" and seat is None:
            raise IllegalAction("invalid_end", f"{reason} needs the seat that ends the match", reason=reason)
        self._end = {"reason": reason, "seat": seat} if seat is not None else {"reason": reason}
        if self._winner is None and reason != "abort":
            self._winner = 1 - seat
        self.phase = P_OVER
        self.to_act = None

    # --- copies and records -------------------------------------------------------------------

    def copy(self) -> JapaneseState:
        new = object.__new__(JapaneseState)
        for name in JapaneseState.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new.up = list(self.up)
        if self._cols is not None:
            new._cols = [list(self._cols[0]), list(self._cols[1])]
        new._live = list(self._live)
        new._first_done = list(self._first_done)
        new.taken = list(self.taken)
        new._actions = list(self._actions)
        new._deals = list(self._deals)
        new._results = list(self._results)
        new.totals = list(self.totals)
        return new

    def record_deals(self) -> list[dict]:
        out = [self._deal_record(*d) for d in self._deals]
        if self._dealt is not None:
            out.append(self._deal_record(self.declarer, self._dealt, self._dealt_cols, self._actions))
        return out

    @staticmethod
    def _deal_record(declarer, dealt, cols, actions) -> dict:
        return {
            "declarer": declarer,
            "hands": [[CARD_NAMES[c] for c in hand] for hand in dealt],
            "columns": [[[CARD_NAMES[down], CARD_NAMES[up]] for down, up in seat_cols] for seat_cols in cols],
            "actions": [history_entry_to_record(a) for a in actions],
        }

    # --- what a seat may see ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """Everything ``seat`` may see (None: a spectator), JSON-serialisable.

        Own hand only (the first three cards before the trump choice); both
        players' face-up column cards; of face-down cards only where they lie.
        No face-down card is ever shown, not even to its owner.
        """
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise ValueError(f"no seat {seat!r}")
        phase = self.phase
        in_deal = phase in (P_TRUMP, P_PLAY)
        own: list[str] = []
        counts = [0, 0]
        columns = [[], []]
        if phase is P_TRUMP:
            counts = [3, 3]
            if seat is not None:
                own = mask_to_cards(indices_mask(self._dealt[seat][:3]))
        elif phase is P_PLAY:
            counts = [h.bit_count() for h in self.hands]
            if seat is not None:
                own = mask_to_cards(self.hands[seat])
            columns = [
                [None if col is None else {"up": CARD_NAMES[col[1]], "face_down": True} for col in self._cols[s]]
                for s in (0, 1)
            ]
        legal = [a.to_record() for a in self.legal_actions(seat)] if seat is not None else []
        last = None
        finished_trick = self.last_trick
        if finished_trick is not None:
            last = {"cards": trick_to_public(finished_trick[0]), "winner": finished_trick[1]}
        return {
            "variant": "japanese",
            "seat": seat,
            "phase": phase.value,
            "options": self.options.to_record(),
            "deal_index": self.deal_index,
            "declarer": self.declarer,
            "to_act": self.to_act,
            "trump": self.trump if in_deal else None,
            "hand": own,
            "hand_counts": counts,
            "columns": columns,
            "first_card_played": list(self._first_done) if phase is P_PLAY else [False, False],
            "leader": self.leader if phase is P_PLAY else None,
            "trick": trick_to_public(self.trick) if phase is P_PLAY else [],
            "last_trick": last,
            "tricks_taken": list(self.taken) if in_deal else [0, 0],
            "score_sheet": self.score_sheet(),
            "totals": list(self.totals),
            "target": self.options.target,
            "legal_actions": legal,
            "move_count": self.move_count,
            "finished": phase is P_OVER,
            "winner": self.winners(),
            "end": self.end,
        }

    def score_sheet(self) -> dict:
        running = [0, 0]
        deals = []
        for r in self._results:
            running[0] += r.scores[0]
            running[1] += r.scores[1]
            deals.append(
                {
                    "deal": r.index,
                    "declarer": r.declarer,
                    "trump": "none" if r.trump == NO_SUIT else SUITS[r.trump],
                    "tricks": list(r.tricks),
                    "scores": list(r.scores),
                    "running_totals": list(running),
                }
            )
        return {"deals": deals, "totals": list(self.totals)}

