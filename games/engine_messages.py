"""The engine's refusals in the player's language.

The engine speaks English and gives each refusal a stable code; this table
turns a code into a sentence for people. A test checks that every code the
engine can raise has a sentence here.
"""

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "invalid_action": _("That action is not understood."),
    "game_over": _("This match is over."),
    "wrong_phase": _("That move does not fit this moment of the deal."),
    "not_your_turn": _("It is not your turn."),
    "invalid_trump": _("Trump must be spades, clubs, diamonds, hearts or no trump."),
    "bid_out_of_range": _("A bid must be between pass and the number of cards in the deal."),
    "forbidden_bid": _("As the dealer you may not make the bids add up to the number of cards."),
    "unknown_card": _("There is no such card in the deck."),
    "card_not_available": _("You do not have that card to play."),
    "first_card_from_hand": _("Your first card of a deal must come from your hand, not from the table."),
    "must_follow_suit": _("You have the suit that was led: you must play it."),
    "must_play_highest": _("The joker asked for the highest card of its suit: you must play your highest one."),
    "must_trump": _("You have none of the suit that was led but you have trumps: you must play a trump."),
    "joker_needs_mode": _("Say whether the joker takes or discards."),
    "invalid_joker_mode": _("A joker either takes or discards."),
    "joker_cannot_discard": _("In Japanese Joker the joker always takes."),
    "joker_needs_suit": _("A joker that leads must name a suit."),
    "invalid_suit": _("Name spades, clubs, diamonds or hearts."),
    "joker_suit_only_when_leading": _("Only a joker that leads names a suit."),
    "joker_fields_on_card": _("Only a joker is played as take or discard."),
    "invalid_end": _("The match cannot end that way."),
}

FALLBACK = _("That move is not allowed.")


def message_for(error) -> str:
    """A sentence for an engine error (anything with a `code`)."""
    return str(MESSAGES.get(getattr(error, "code", None), FALLBACK))
