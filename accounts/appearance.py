"""How the site looks for a reader: the theme (light, dark or as the device) and the card
faces (standard, four colours, large index). A member's choice is kept on their Player;
a guest's or visitor's in their browser's storage (static/js/appearance.js). The page
carries the choice on <html> (data-theme, data-deck); the stylesheets do the rest
(docs/accounts.md, "Appearance")."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from .models import DECK_CHOICES, DECK_STANDARD, THEME_CHOICES, THEME_SYSTEM
from .players import player_for_request


@dataclass(frozen=True)
class Appearance:
    theme: str = THEME_SYSTEM
    deck: str = DECK_STANDARD
    remembered: bool = False  # kept on the server (a member): the browser's own copy yields

    theme_choices = THEME_CHOICES
    deck_choices = DECK_CHOICES

    @property
    def scheme(self):
        """The colour scheme before any script runs: "system" is settled by the script."""
        return "dark" if self.theme == "dark" else "light"


THEMES = {value for value, _label in THEME_CHOICES}
DECKS = {value for value, _label in DECK_CHOICES}


def member_player(request):
    if not getattr(request, "user", None) or not request.user.is_authenticated:
        return None
    player = player_for_request(request)
    return player if player is not None and player.is_member else None


def appearance_for(request):
    player = member_player(request)
    if player is None:
        return Appearance()
    return Appearance(theme=player.theme, deck=player.card_deck, remembered=True)


def refusal_for(theme, deck):
    """What is wrong with a choice, in the reader's language; None when it is one of the choices."""
    if theme not in THEMES:
        return _("Unknown theme %(value)r: choose one of %(choices)s.") % {
            "value": theme, "choices": ", ".join(sorted(THEMES))}
    if deck not in DECKS:
        return _("Unknown card faces %(value)r: choose one of %(choices)s.") % {
            "value": deck, "choices": ", ".join(sorted(DECKS))}
    return None
