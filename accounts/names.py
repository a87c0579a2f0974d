"""Names people choose (usernames at sign-up, display names on the profile).

A name may not pose as someone else: not as the site or its staff ("admin",
"Joker", "модератор"…), not as a practice bot ("Bot 2") or a guest
("Guest 4821", "სტუმარი 4821"), and not as another member. Look-alikes are
caught by folding every character to one representative of its class of
Unicode confusables (the `confusable-homoglyphs` package carries Unicode's
confusables table), after NFKC and case folding: "Guеst" with a Cyrillic е,
"B0t" and "ADMlN" fold to what they imitate. A name also keeps to one script
(digits and signs aside), since mixing Latin and Cyrillic is the usual disguise.

`refusal_for_name(name, user=None)` is the one check; it answers None or the
translated reason. `NameKey` rows (kept by accounts/signals.py) hold the folded
form of every member's username and display name, so "looks like another
member's name" is one indexed query.
"""

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import confusables
from confusable_homoglyphs.confusables import confusables_data
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# Names of the site and of its roles, in the three languages; compared after folding,
# with digits and separators removed, alone or run together ("joker_admin", "admin2").
SITE_AND_STAFF_WORDS = (
    "admin", "administrator", "moderator", "mod", "staff", "joker", "support", "system",
    "root", "official", "owner", "team", "help",
    "админ", "администратор", "модератор", "персонал", "джокер", "поддержка", "система",
    "официальный", "помощь",
    "ადმინი", "ადმინისტრატორი", "მოდერატორი", "პერსონალი", "ჯოკერი", "მხარდაჭერა",
    "სისტემა", "ოფიციალური", "დახმარება",
)  # fmt: skip
# How the tables name practice bots and guests ("Bot %(seat)s" lives in the games
# catalogue, "Guest %(number)s" in ours); their words in every language are kept.
BOT_NAME = "Bot %(seat)s"
GUEST_NAME = "Guest %(number)s"
EXTRA_BOT_WORDS = ("bot", "robot", "бот", "робот", "ბოტი", "რობოტი")

TRAILING_NUMBER = re.compile(r"[\d\W_]+$")

# Scripts a name may add to its own: digits, spaces, signs and combining marks.
SHARED_SCRIPTS = ["COMMON", "INHERITED"]

REFUSALS = {
    "site": _("This name is kept for the site and its staff. Please choose another."),
    "bot": _("Names like this are kept for the practice bots. Please choose another."),
    "guest": _("Names like this are kept for guests. Please choose another."),
    "mixed_scripts": _(
        "A name keeps to one alphabet (Georgian, Latin or Cyrillic); digits and signs may be added. "
        "Please choose another."
    ),
    "taken": _("This name looks too much like another player's name. Please choose another."),
}


def _preference(char):
    """Plain ASCII lower-case letters first, then other ASCII, then the rest."""
    return (not (char.isascii() and char.islower()), not char.isascii(), ord(char))


@cache
def _representative(char):
    """The character that stands for `char` and its direct look-alikes (a lower-case letter).

    Only direct pairs of Unicode's table count: following chains of pairs (and of cases)
    would join letters nobody confuses ("t", "u" and "r" end up in one class). Both the
    character and its capital are looked up, since a name is compared in any case.
    """
    candidates = {char}
    for form in (char, char.upper()):
        for look_alike in confusables_data.get(form, ()):
            other = look_alike["c"].strip("\u200e\u200f").lower()  # the table wraps right-to-left ones
            if len(other) == 1:
                candidates.add(other)
    chosen = min(candidates, key=_preference)
    # "1" stands next to "l", and "l" next to "i": follow to where a letter stands for itself.
    return chosen if chosen == char else _representative(chosen)


def name_key(name):
    """The folded form of a name: two names with the same key look the same.

    Only letters and digits count (spaces, separators and marks are dropped).
    """
    folded = []
    for char in unicodedata.normalize("NFKC", name).casefold():
        char = _representative(char)
        if unicodedata.category(char)[0] in "LN":
            folded.append(char)
    return "".join(folded)


def _letters_key(name):
    """The key without the number at the end and other digits: "Bot 2", "B0t5" and "bot" are one
    word (the end is cut before folding, where "5" would still fold to "s")."""
    without_number = TRAILING_NUMBER.sub("", unicodedata.normalize("NFKC", name))
    return "".join(char for char in name_key(without_number) if not char.isdigit())


def _words_of(msgid):
    """The word of a table name ("Bot %(seat)s") in every site language."""
    words = set()
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            words.add(translation.gettext(msgid).split("%")[0])
    return words


@cache
def _reserved_keys():
    def keys(words):
        return frozenset(_letters_key(word) for word in words) - {""}

    return {
        "guest": keys(_words_of(GUEST_NAME)),
        "bot": keys(_words_of(BOT_NAME) | set(EXTRA_BOT_WORDS)),
        "site": keys(SITE_AND_STAFF_WORDS),
    }


def _made_of(key, words):
    """Whether `key` is one or more of `words` run together ("jokeradmin")."""
    if not key:
        return False
    can_end_at = [True] + [False] * len(key)
    for end in range(1, len(key) + 1):
        can_end_at[end] = any(
            can_end_at[end - len(word)] and key.endswith(word, 0, end) for word in words if len(word) <= end
        )
    return can_end_at[-1]


def reserved_kind(name):
    """Which reserved kind ("guest", "bot" or "site") the name is or imitates, else None."""
    key = _letters_key(name)
    reserved = _reserved_keys()
    for kind in ("guest", "bot"):
        if key in reserved[kind]:
            return kind
    if _made_of(key, reserved["site"] | reserved["bot"] | reserved["guest"]):
        return "site"
    return None


def mixes_scripts(name):
    return confusables.is_mixed_script(name, allowed_aliases=SHARED_SCRIPTS)


def looks_like_another_members(name, user=None):
    """Whether another member's username or display name folds to the same key."""
    from .models import NameKey

    taken = NameKey.objects.filter(key=name_key(name))
    if user is not None and user.pk is not None:
        taken = taken.exclude(user=user)
    return taken.exists()


def refusal_code_for_name(name, user=None):
    """Why `name` may not be chosen by `user` (None at sign-up): a key of REFUSALS, or None."""
    kind = reserved_kind(name)
    if kind is not None:
        return kind
    if mixes_scripts(name):
        return "mixed_scripts"
    if looks_like_another_members(name, user):
        return "taken"
    return None


def refusal_for_name(name, user=None):
    """The translated reason `name` may not be chosen, or None when it may."""
    code = refusal_code_for_name(name, user)
    return None if code is None else REFUSALS[code]


def remember_names(user):
    """Store the keys of `user`'s username and display name (after either changes)."""
    from .models import NameKey, Player

    display_name = Player.objects.filter(user=user).values_list("display_name", flat=True).first() or ""
    keys = {name_key(user.get_username()), name_key(display_name)} - {""}
    NameKey.objects.filter(user=user).exclude(key__in=keys).delete()
    existing = set(NameKey.objects.filter(user=user).values_list("key", flat=True))
    NameKey.objects.bulk_create([NameKey(user=user, key=key) for key in keys - existing])
