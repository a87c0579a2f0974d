"""The quick phrases: sent as a key, shown to each reader in the reader's own language."""

from django.utils.translation import pgettext_lazy

PHRASES = {
    "hello": pgettext_lazy("chat phrase", "Hello!"),
    "good_luck": pgettext_lazy("chat phrase", "Good luck!"),
    "well_played": pgettext_lazy("chat phrase", "Well played!"),
    "nice_trick": pgettext_lazy("chat phrase", "Nice trick!"),
    "thanks": pgettext_lazy("chat phrase", "Thanks!"),
    "sorry": pgettext_lazy("chat phrase", "Sorry!"),
    "one_moment": pgettext_lazy("chat phrase", "One moment, please."),
    "hurry_please": pgettext_lazy("chat phrase", "Hurry up, please."),
    "good_game": pgettext_lazy("chat phrase", "Good game!"),
}

# What is said to the others at one table, about its trick or its turn: no phrase of a place's
# chat (a tournament's page), whose readers play at different tables or at none.
AT_ONE_TABLE = ("nice_trick", "one_moment", "hurry_please")
PLACE_PHRASES = {key: words for key, words in PHRASES.items() if key not in AT_ONE_TABLE}


def phrase_text(key: str) -> str:
    """The phrase in the active language (a key no longer known reads as itself)."""
    phrase = PHRASES.get(key)
    return str(phrase) if phrase is not None else key
