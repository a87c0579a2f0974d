"""Strings of Django and allauth that their own Georgian or Russian catalogues leave in English,
or translate wrongly (Django's Georgian words two password hints as if the password
were already refused: "the password is too short", on an empty sign-up form).

Nothing calls this module at run time. It exists so that `makemessages` keeps
these msgids in the project catalogue (locale/), where our translations take
precedence over the packages' own. The i18n page tests name any new ones.
"""

from django.utils.translation import gettext_noop, ngettext


def _catalogue_only():  # pragma: no cover - read by makemessages, never run
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."
    )
    ngettext(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        0,
    )
    # The password hints the sign-up and password-change forms list under the field.
    gettext_noop("Your password can’t be too similar to your other personal information.")
    ngettext(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        0,
    )
