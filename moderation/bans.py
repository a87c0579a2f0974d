"""Who is banned, and the sentence a banned person is shown.

A ban refuses every seat, socket and access token: `ban_refusal` is registered
with accounts/access.py (ModerationConfig.ready), which the games and accounts
code ask; they never import this module.
"""

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from joker_site.refusals import Refusal

from .models import Ban


def active_ban(user):
    """The user's ban in force now (the one ending last), or None."""
    if user is None or user.pk is None:
        return None
    bans = list(Ban.objects.active().filter(user_id=user.pk))
    if not bans:
        return None
    # A ban for good outlasts any ban with an end.
    return max(bans, key=lambda ban: (ban.until is None, ban.until))


def is_banned(user):
    return active_ban(user) is not None


def refusal_message(ban):
    if ban.until is None:
        return gettext("The site staff have banned your account for good.")
    # The time last, in 24-hour digits: a format ending in "a.m." or "г." would meet the
    # sentence's own full stop ("a.m..").
    until = timezone.localtime(ban.until)
    return gettext("The site staff have banned your account until %(date)s, %(time)s.") % {
        "date": date_format(until, "DATE_FORMAT"), "time": date_format(until, "H:i"),
    }


def refusal_for_player(player):
    """The message refusing a banned member a seat, or None when they may play.
    Guests have no account and cannot be banned."""
    if player is None or player.user_id is None:
        return None
    ban = active_ban(player.user)
    return refusal_message(ban) if ban else None


def ban_refusal(user) -> Refusal | None:
    """accounts/access.py's PLAY check: the refusal of a banned member, or None."""
    ban = active_ban(user)
    return Refusal("banned", refusal_message(ban)) if ban else None
