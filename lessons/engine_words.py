"""The engine's refusals, in this app's catalogue too.

An illegal move in the lesson is explained by the engine's own refusal:
`games.engine_messages.message_for(error)`, never by a sentence written for a
step. Those sentences belong to games/engine_messages.py. This module only
repeats their msgids so that the lessons catalogue carries Georgian and Russian
for them; Django looks a msgid up in every catalogue (the games app's first), so
once the games catalogue translates them, its words win. A test keeps this list
equal to the engine's sentences.
"""

from django.utils.translation import gettext_noop

ENGINE_SENTENCES = (
    gettext_noop('That action is not understood.'),  # invalid_action
    gettext_noop('This match is over.'),  # game_over
    gettext_noop('That move does not fit this moment of the deal.'),  # wrong_phase
    gettext_noop('It is not your turn.'),  # not_your_turn
    gettext_noop('Trump must be spades, clubs, diamonds, hearts or no trump.'),  # invalid_trump
    gettext_noop('A bid must be between pass and the number of cards in the deal.'),  # bid_out_of_range
    gettext_noop('As the dealer you may not make the bids add up to the number of cards.'),  # forbidden_bid
    gettext_noop('There is no such card in the deck.'),  # unknown_card
    gettext_noop('You do not have that card to play.'),  # card_not_available
    gettext_noop('Your first card of a deal must come from your hand, not from the table.'),  # first_card_from_hand
    gettext_noop('You have the suit that was led: you must play it.'),  # must_follow_suit
    gettext_noop('The joker asked for the highest card of its suit: you must play your highest one.'),  # must_play_highest
    gettext_noop('You have none of the suit that was led but you have trumps: you must play a trump.'),  # must_trump
    gettext_noop('Say whether the joker takes or discards.'),  # joker_needs_mode
    gettext_noop('A joker either takes or discards.'),  # invalid_joker_mode
    gettext_noop('In Japanese Joker the joker always takes.'),  # joker_cannot_discard
    gettext_noop('A joker that leads must name a suit.'),  # joker_needs_suit
    gettext_noop('Name spades, clubs, diamonds or hearts.'),  # invalid_suit
    gettext_noop('Only a joker that leads names a suit.'),  # joker_suit_only_when_leading
    gettext_noop('Only a joker is played as take or discard.'),  # joker_fields_on_card
    gettext_noop('The match cannot end that way.'),  # invalid_end
    gettext_noop('That move is not allowed.'),  # any other refusal
)
