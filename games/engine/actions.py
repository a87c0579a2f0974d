"""Actions: small immutable value types that speak the record format.

``ChooseTrump(seat, suit)``, ``Bid(seat, n)`` and ``Play(seat, card, joker,
suit)``. ``to_record()`` gives exactly the record-format action dict and
``action_from_record(d)`` reads one back. An action only says what a player
wants to do; whether it is legal is for the state to decide (``apply`` /
``is_legal``), so an action object can hold any value.

They are NamedTuples (cheap to build: a replay builds hundreds per game) whose
equality also compares the type, so ``Bid(0, 1) != ChooseTrump(0, 1)``.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import IllegalAction

TAKE = "take"
DISCARD = "discard"
NO_TRUMP = "none"


def _typed_eq(self, other):
    return type(self) is type(other) and tuple.__eq__(self, other)


def _typed_ne(self, other):
    return not _typed_eq(self, other)


def _typed_hash(self):
    return hash((type(self).__name__, tuple(self)))


class ChooseTrump(NamedTuple):
    """The trump choice: ``suit`` is "S", "C", "D", "H", or None for no trump."""

    seat: int
    suit: str | None

    def to_record(self) -> dict:
        return {"seat": self.seat, "trump": NO_TRUMP if self.suit is None else self.suit}

    __eq__ = _typed_eq
    __ne__ = _typed_ne
    __hash__ = _typed_hash


class Bid(NamedTuple):
    """A classic bid: how many tricks ``seat`` says it will take (0 is a pass)."""

    seat: int
    n: int

    def to_record(self) -> dict:
        return {"seat": self.seat, "bid": self.n}

    __eq__ = _typed_eq
    __ne__ = _typed_ne
    __hash__ = _typed_hash


class Play(NamedTuple):
    """A card. A joker carries ``joker`` ("take" / "discard") and, when it leads, ``suit``.

    In Japanese Joker a joker always takes: ``joker`` is None (or "take") and
    a leading joker names ``suit``.
    """

    seat: int
    card: str
    joker: str | None = None
    suit: str | None = None

    def to_record(self) -> dict:
        rec = {"seat": self.seat, "play": self.card}
        if self.joker is not None:
            rec["joker"] = self.joker
        if self.suit is not None:
            rec["suit"] = self.suit
        return rec

    __eq__ = _typed_eq
    __ne__ = _typed_ne
    __hash__ = _typed_hash


Action = ChooseTrump | Bid | Play

_PLAY_KEYS = frozenset(("seat", "play", "joker", "suit"))


def _malformed(record, why: str) -> IllegalAction:
    return IllegalAction("invalid_action", f"malformed action {record!r}: {why}", why=why)


_new = tuple.__new__


def action_from_record(record) -> Action:
    """The action a record-format action dict stands for.

    Raises IllegalAction("invalid_action") for a dict of the wrong shape (not a
    dict, no integer seat, not exactly one of trump/bid/play, unknown keys, a
    value of the wrong JSON type). Values of the right type are checked by the
    state when the action is applied.
    """
    if type(record) is not dict:
        raise _malformed(record, "not an object")
    seat = record.get("seat")
    if type(seat) is not int:
        raise _malformed(record, "seat must be an integer")
    card = record.get("play")
    if card is not None:
        if type(card) is not str:
            raise _malformed(record, "play must be a card string")
        if len(record) == 2:  # the common case: an ordinary card
            return _new(Play, (seat, card, None, None))
        if not _PLAY_KEYS.issuperset(record):
            raise _malformed(record, "unknown keys")
        joker = record.get("joker")
        suit = record.get("suit")
        if (joker is not None and type(joker) is not str) or (suit is not None and type(suit) is not str):
            raise _malformed(record, "joker and suit must be strings")
        return _new(Play, (seat, card, joker, suit))
    if len(record) != 2:
        raise _malformed(record, "expected exactly one of trump, bid, play")
    if "bid" in record:
        n = record["bid"]
        if type(n) is not int:
            raise IllegalAction("bid_out_of_range", f"a bid must be a whole number, not {n!r}", bid=repr(n))
        return _new(Bid, (seat, n))
    if "trump" in record:
        suit = record["trump"]
        if type(suit) is not str:
            raise IllegalAction("invalid_trump", f"trump must be S, C, D, H or none, not {suit!r}", trump=repr(suit))
        return ChooseTrump(seat, None if suit == NO_TRUMP else suit)
    raise _malformed(record, "expected exactly one of trump, bid, play")
