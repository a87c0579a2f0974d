"""The word filter: our own lists of insults and obscenities in Georgian, Russian and
English (chat/data/blocked_words.json).

A message is caught when one of its words is on a list: whole words, any case,
after undoing the common disguises: digits and signs for letters (`sh1t`, `@ss`,
`$uka`), Latin look-alike letters inside a Cyrillic word (`xуй` with a Latin x)
and Cyrillic ones inside a Latin word, `ё` for `е`, and a letter held down
(`fuuuck`). A listed word ending in `*` stands for every word it begins, which
covers Russian and Georgian endings. Parts of longer ordinary words never match
(`class`, `assist`, `скипидар`).
"""

import json
import re
from functools import lru_cache
from pathlib import Path

WORDS_FILE = Path(__file__).resolve().parent / "data" / "blocked_words.json"

# A word: letters and digits, and the signs that stand for letters inside a word.
_WORD = re.compile(r"[\w@$!|]+")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN = re.compile(r"[a-z]")

# Signs and digits read as Latin letters, and as Cyrillic ones (`пи3да`, `6ля`).
_TO_LATIN = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a",
                           "$": "s", "!": "i", "|": "i"})
_TO_CYRILLIC_SIGNS = str.maketrans({"0": "о", "3": "з", "4": "ч", "6": "б", "@": "а", "$": "с", "!": "и",
                                    "|": "и"})
# Letters that look alike in the two alphabets.
_LATIN_LOOKALIKES = "aeopcxykmthbu"
_CYRILLIC_LOOKALIKES = "аеорсхукмтнви"
_TO_CYRILLIC = str.maketrans(_LATIN_LOOKALIKES, _CYRILLIC_LOOKALIKES)
_TO_LATIN_LETTERS = str.maketrans(_CYRILLIC_LOOKALIKES, _LATIN_LOOKALIKES)
_HELD = re.compile(r"(\w)\1{2,}")  # three or more of one letter


def _plain(word: str) -> str:
    return word.casefold().replace("ё", "е")


@lru_cache(maxsize=1)
def _lists() -> tuple[frozenset, tuple]:
    """(whole words, beginnings), every language together, in plain spelling."""
    data = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    whole, stems = set(), set()
    for language in ("ka", "ru", "en"):
        for entry in data[language]:
            entry = _plain(entry.strip())
            if entry.endswith("*"):
                stems.add(entry[:-1])
            elif entry:
                whole.add(entry)
    return frozenset(whole), tuple(sorted(stems))


def _readings(token: str) -> set[str]:
    """The ways a written word may be meant: as written, with its disguises undone."""
    token = _plain(token).strip("!|")
    if not token:
        return set()
    readings = {token}
    if _CYRILLIC.search(token):
        readings.add(token.translate(_TO_CYRILLIC_SIGNS).translate(_TO_CYRILLIC))
    else:
        latin = token.translate(_TO_LATIN)
        readings.add(latin)
        if _CYRILLIC.search(latin) or not _LATIN.search(latin):
            readings.add(latin.translate(_TO_LATIN_LETTERS))
    held = {_HELD.sub(r"\1", reading) for reading in readings}
    held |= {_HELD.sub(r"\1\1", reading) for reading in readings}
    return readings | held


def _listed(reading: str, whole, stems) -> bool:
    return reading in whole or any(reading.startswith(stem) for stem in stems)


def blocked_words(text: str) -> list[str]:
    """The words of `text` that the filter catches, as written (empty: the text is clean)."""
    whole, stems = _lists()
    return [token for token in _WORD.findall(text or "")
            if any(_listed(reading, whole, stems) for reading in _readings(token))]


def is_clean(text: str) -> bool:
    return not blocked_words(text)
