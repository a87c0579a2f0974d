"""Typed engine errors with stable machine codes.

Every refusal carries ``code`` (stable, for translation on the Django side),
``params`` (a JSON-serialisable dict) and an English ``message``. The complete
list of codes is ``ERROR_CODES`` below; docs/engine.md repeats it and a test
keeps the two in step.
"""

from __future__ import annotations

ERROR_CODES: dict[str, str] = {
    # --- actions (IllegalAction) ---
    "invalid_action": "not an action object, or a record action of the wrong shape",
    "game_over": "the game has ended; no more actions or deals",
    "wrong_phase": "this kind of action is not expected now (e.g. a bid during play, a trump choice in the no-trump pulka, a play before the dark pulka's trump choice)",
    "not_your_turn": "the action names a seat that is not the one to act",
    "invalid_trump": "the trump is not one of S, C, D, H or none",
    "bid_out_of_range": "a bid below 0 or above the number of cards in the deal (or not a whole number)",
    "forbidden_bid": "the dealer may not bid the number that makes the four bids add up to the number of tricks",
    "unknown_card": "the card is not one of the 36 cards of the deck",
    "card_not_available": "the card is not in the player's hand (or, in Japanese Joker, among their face-up column cards)",
    "first_card_from_hand": "Japanese: a player's first card of a deal must come from the hand, not the columns",
    "must_follow_suit": "the player holds the led (or named) suit and must play it",
    "must_play_highest": "after a joker led as take (Japanese: any joker lead) the player must play their highest card of the named suit",
    "must_trump": "the player has none of the led suit but holds a trump, so must play a trump",
    "joker_needs_mode": "classic: a joker must be played as take or discard",
    "invalid_joker_mode": "the joker mode is not take or discard",
    "joker_cannot_discard": "Japanese: a joker is always played to take",
    "joker_needs_suit": "a joker that leads a trick must name a suit",
    "invalid_suit": "the named suit is not one of S, C, D, H",
    "joker_suit_only_when_leading": "only a joker that leads a trick names a suit",
    "joker_fields_on_card": "joker or suit given with an ordinary card",
    "invalid_end": "an early end with an unknown reason or seat (classic games end early only by abort)",
    # --- deals (InvalidDeal) ---
    "invalid_deck": "deal_from_deck was not given the 36 distinct cards",
    "deal_not_expected": "cards were dealt while the current deal is still being played",
    "wrong_hand_count": "the deal does not give a hand to every seat",
    "wrong_hand_size": "a hand has the wrong number of cards for this deal",
    "duplicate_card": "a card appears twice in the deal",
    "trump_card_missing": "a deal of 1-8 cards needs a turned trump card",
    "trump_card_not_allowed": "9-card deals have no turned trump card",
    "wrong_column_count": "Japanese: a player needs five columns",
    "malformed_column": "Japanese: a column is not a [face_down, face_up] pair",
    "wrong_dealer": "the record's dealer does not follow the rotation",
    "wrong_declarer": "the record's declarer does not alternate",
    # --- options (InvalidOptions) ---
    "invalid_option": "an unknown option, or a value the option does not allow",
    # --- records (RecordError) ---
    "not_json": "the file is not JSON",
    "not_a_record": "the document is not a joker-record/1 document",
    "invalid_players": "the players list is missing or has the wrong number of names",
    "malformed_deal": "a deal is not an object with the fields of its variant",
    "deal_incomplete": "a deal other than the last stops before its end",
    "deal_after_game_over": "a deal follows the end of the game",
}


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""

    def __init__(self, code: str, message: str, **params):
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.params = params
        self.message = message

    def as_dict(self) -> dict:
        return {"code": self.code, "params": self.params, "message": self.message}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, **{self.params!r})"


class IllegalAction(EngineError):
    """An action (trump choice, bid, card, early end) that the rules do not allow now."""


class InvalidDeal(IllegalAction):
    """Cards handed to ``deal()`` that are not a correct deal for this moment of the game."""


class InvalidOptions(EngineError):
    """Table options the rules do not know."""


class RecordError(EngineError):
    """A game record that cannot be read or replayed.

    ``deal`` and ``action`` point at the first thing that breaks the rules
    (both None for a document-level problem, ``action`` None for a malformed
    deal), as in record-format.md.
    """

    def __init__(self, code: str, message: str, deal: int | None = None, action: int | None = None, params=None):
        super().__init__(code, message, **(params or {}))
        self.deal = deal
        self.action = action
