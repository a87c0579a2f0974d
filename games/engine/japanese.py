"""Japanese Joker: two players, five table columns, difference scoring (rules.md section 3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import (
    BIT,
    CARD_NAMES,
    JOKER_MASK,
    NO_SUIT,
    SUIT_OF,
    SUITS,
    X1,
    X2,
    check_distinct,
    dealt_indices,
    hand_mask,
    mask_to_cards,
)
from .common import (
    H_PLAY,
    H_TRUMP,
    MODE_NONE,
    P_DEAL,
    P_OVER,
    P_PLAY,
    P_TRUMP,
    PLAIN_PLAYS,
    history_entry_to_record,
)
from .errors import IllegalAction, InvalidDeal, InvalidOptions
from .rules import (
    SUIT_MASK,
    japanese_deal_scores,
    play_from_column,
)
from .state import GameOptions, GameState

TARGETS = (11, 15, 21, 31)
TRICKS_PER_DEAL = 18
if (X1, X2) != (0, 9):  # _play tests a joker by its index
    raise ImportError("JapaneseState._play expects the jokers at indices 0 and 9")
HAND_SIZE = 8
COLUMNS = 5


@dataclass(frozen=True)
class JapaneseOptions(GameOptions):
    target: int = 21
    first_declarer: int = 0

    VARIANT = "japanese"
    RECORD_KEYS = ("target",)
    SEAT_KEY = "first_declarer"

    def __post_init__(self):
        if self.target not in TARGETS or type(self.target) is not int:
            raise InvalidOptions("invalid_option", f"target must be one of {TARGETS}", option="target")
        if type(self.first_declarer) is not int or self.first_declarer not in (0, 1):
            raise InvalidOptions("invalid_option", "first_declarer must be seat 0 or 1", option="first_declarer")



class JapaneseDealResult(NamedTuple):
    index: int
    declarer: int
    trump: int  # -1 = no trump
    tricks: tuple
    scores: tuple


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


class JapaneseState(GameState):
    """A Japanese Joker match, deal after deal, until someone reaches the target."""

    variant = "japanese"
    seats = 2
    _OWN_LISTS = ("hands", "up", "_first_done", "taken", "_actions", "_deals", "_results", "totals")
    _JOKER_MODES = (None,)
    _OVER_MESSAGE = "the match is over"

    # Beside GameState.__slots__, what this variant keeps.
    __slots__ = (
        "_col_of", "_cols", "_dealt_cols", "_first_done", "_last_trick", "_lead_card", "_winner",
        "declarer", "up",
    )

    def __init__(self, options=None):
        opts = self._start(JapaneseOptions.coerce(options))
        self.declarer = opts.first_declarer
        self.up = [0, 0]
        self._cols = None
        self._col_of = None
        self._first_done = [False, False]
        self._dealt_cols = None
        self._lead_card = -1
        self._last_trick = None
        self._winner = None

    # --- read-only facts ----------------------------------------------------------------------

    @property
    def trick(self) -> list[tuple]:
        return self._actions[-1:] if self._pos else []

    @property
    def last_trick(self) -> tuple[list[tuple], int] | None:
        if self._last_trick is not None:  # the final trick of a finished deal
            return self._last_trick
        if not self._tricks_played:
            return None
        # Within a deal: the two plays before the current trick's; its winner leads the current one.
        actions = self._actions
        end = len(actions) - self._pos
        return actions[end - 2 : end], self.leader

    @property
    def results(self) -> list[JapaneseDealResult]:
        return list(self._results)

    def face_up(self, seat: int) -> list[str]:
        return mask_to_cards(self.up[seat])

    def available(self, seat: int) -> list[str]:
        """Cards ``seat`` could play now if it were their move and they led."""
        return mask_to_cards(self._available(seat))

    def winners(self) -> list[int]:
        return [self._winner] if self._winner is not None else []

    # --- dealing ------------------------------------------------------------------------------

    def deal(self, hands, columns) -> None:
        """Start the next deal: ``hands`` two lists of 8 record cards (first 3 seen
        before the trump choice), ``columns`` per seat five ``[face_down, face_up]``.
        Raises InvalidDeal and changes nothing when the cards are not the deck."""
        self._check_deal_expected()
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
        self._carry_last_trick()
        self._dealt = hands
        self._dealt_cols = columns
        self.hands = [hand_mask(hands[0]), hand_mask(hands[1])]
        cols0, cols1 = self._cols = [list(columns[0]), list(columns[1])]
        col_of = self._col_of = [-1] * 36  # the column of each face-up card
        # The face-up cards' masks and columns in one pass (five columns a seat).
        (_, a), (_, b), (_, c), (_, d), (_, e) = cols0
        col_of[a], col_of[b], col_of[c], col_of[d], col_of[e] = 0, 1, 2, 3, 4
        up0 = BIT[a] | BIT[b] | BIT[c] | BIT[d] | BIT[e]
        (_, a), (_, b), (_, c), (_, d), (_, e) = cols1
        col_of[a], col_of[b], col_of[c], col_of[d], col_of[e] = 0, 1, 2, 3, 4
        self.up = [up0, BIT[a] | BIT[b] | BIT[c] | BIT[d] | BIT[e]]
        self._first_done = [False, False]
        self._trump = None
        self._trump_mask = 0
        self.taken = [0, 0]
        self._pos = 0
        self._last_trick = None
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

    def _check_joker(self, joker, suit_name) -> tuple[int, int]:
        """A Japanese joker always takes (rules.md 3.3): no mode, or "take"; a leading one names a suit."""
        if joker is not None and joker != "take":
            if joker == "discard":
                raise IllegalAction("joker_cannot_discard", "in Japanese Joker a joker always takes")
            raise IllegalAction("invalid_joker_mode", f"a joker is take or discard, not {joker!r}", joker=repr(joker))
        return MODE_NONE, self._named_suit(suit_name)

    def _unplayable(self, seat: int, card: int, name: str) -> IllegalAction:
        bit = BIT[card]
        if not self.hands[seat] & bit:
            if not self.up[seat] & bit:
                return IllegalAction(
                    "card_not_available", f"{name} is not in your hand or face up in your columns", card=name
                )
            if not self._first_done[seat]:
                return IllegalAction("first_card_from_hand", "your first card of a deal comes from the hand", card=name)
        return self._follow_error(seat)

    # --- moves --------------------------------------------------------------------------------

    def _choose_trump(self, seat: int, trump: int) -> None:
        self._trump = trump
        self._trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        self._actions.append((H_TRUMP, seat, trump))
        self.phase = P_PLAY
        self.to_act = self.declarer
        self._mask = self.hands[self.declarer]  # the first card comes from the hand

    def _play(self, seat: int, card: int, mode: int, suit: int, _bit=BIT, _suit_of=SUIT_OF, _suit_mask=SUIT_MASK,
              _plain=PLAIN_PLAYS, _jokers=JOKER_MASK) -> None:
        # ``mode`` is always MODE_NONE: a Japanese joker takes. Hot path: the rules of rules.py
        # (lead_of, legal_follow, japanese_follower_wins) are inlined here, the tables bound as
        # defaults; tests/test_engine_agrees_with_reference.py and the rules tests hold them
        # to the same moves. A joker is card 0 (X1) or 9 (X2).
        bit = _bit[card]
        hands = self.hands
        hand = hands[seat]
        if hand & bit:
            hands[seat] = hand ^ bit
        else:
            hands[seat], self.up[seat] = play_from_column(self._cols[seat], self._col_of[card], hand, self.up[seat])
        first_done = self._first_done
        first_done[seat] = True
        actions = self._actions
        actions.append(_plain[seat * 36 + card] if suit < 0 else (H_PLAY, seat, card, MODE_NONE, suit))
        if not self._pos:
            self._pos = 1
            self._lead_card = card
            if card == 0 or card == 9:  # a joker leads the suit it names; followers play their highest
                led = self._led = suit
                must_highest = self._must_highest = True
            else:
                led = self._led = _suit_of[card]
                must_highest = self._must_highest = False
            other = self.to_act = 1 - seat
            avail = hands[other] | self.up[other] if first_done[other] else hands[other]
            follow = avail & _suit_mask[led]
            if follow:
                self._mask = (_bit[follow.bit_length() - 1] if must_highest else follow) | (avail & _jokers)
            else:
                trumps = avail & self._trump_mask
                self._mask = trumps | (avail & _jokers) if trumps else avail
            return
        self._pos = 0
        lead = self._lead_card
        trump = self._trump
        if card == 0 or card == 9:
            follower_wins = True
        elif lead == 0 or lead == 9:
            follower_wins = trump >= 0 and self._led != trump and _suit_of[card] == trump
        else:
            follow_suit = _suit_of[card]
            lead_suit = _suit_of[lead]
            follower_wins = (follow_suit == trump and lead_suit != trump) or (follow_suit == lead_suit and card > lead)
        winner = seat if follower_wins else 1 - seat
        self.taken[winner] += 1
        self.leader = winner
        self.to_act = winner
        self._mask = hands[winner] | self.up[winner] if first_done[winner] else hands[winner]
        played = self._tricks_played = self._tricks_played + 1
        if played == TRICKS_PER_DEAL:
            self._last_trick = (actions[-2:], winner)  # kept: the deal's actions are filed away
            self._end_deal()

    def _end_deal(self) -> None:
        taken = tuple(self.taken)
        scores = japanese_deal_scores(taken)
        self._results.append(JapaneseDealResult(self.deal_index, self.declarer, self._trump, taken, scores))
        self._deals.append(self._current_deal())
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
        new = super().copy()
        if self._cols is not None:
            new._cols = [list(self._cols[0]), list(self._cols[1])]
        return new

    def _current_deal(self) -> tuple:
        return self.declarer, self._dealt, self._dealt_cols, self._actions

    def _deal_record(self, declarer, dealt, cols, actions) -> dict:
        return {
            "declarer": declarer,
            "hands": [[CARD_NAMES[c] for c in hand] for hand in dealt],
            "columns": [[[CARD_NAMES[down], CARD_NAMES[up]] for down, up in seat_cols] for seat_cols in cols],
            "actions": [history_entry_to_record(a) for a in actions],
        }

    # --- what a seat may see ------------------------------------------------------------------

    def _cards_shown(self) -> bool:
        return True

    def _variant_view(self, in_deal: bool) -> dict:
        """Both players' face-up column cards; of a face-down card only where it lies (never the
        card, not even to its owner: it is seen once it has moved into the owner's hand)."""
        playing = self.phase is P_PLAY
        columns = [[], []]
        if playing:
            columns = [
                [None if col is None else {"up": CARD_NAMES[col[1]], "face_down": True} for col in self._cols[s]]
                for s in (0, 1)
            ]
        return {
            "declarer": self.declarer,
            "columns": columns,
            "first_card_played": list(self._first_done) if playing else [False, False],
            "target": self.options.target,
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

