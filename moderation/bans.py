"""Who is banned or muted, and the sentence they are shown.

A ban refuses every seat, socket and access token, a mute every table chat:
`ban_refusal`, `banned_user_ids` and `mute_refusal` are registered with
accounts/access.py (ModerationConfig.ready), which the accounts, games, chat and
quick play code ask; they never import this module.
"""

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from joker_site.refusals import Refusal

from .models import Ban, Mute


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


def banned_user_ids(user_ids) -> set:
    """accounts/access.py's PLAY check of many accounts: which of them are banned now (one query)."""
    return set(Ban.objects.active(timezone.now()).filter(user_id__in=list(user_ids)).values_list("user_id", flat=True))


def mute_refusal(player) -> Refusal | None:
    """accounts/access.py's CHAT check: the refusal of a muted player (member or guest), or None."""
    mute = Mute.objects.active(timezone.now()).filter(player=player).order_by("-until").first()
    if mute is None:
        return None
    return Refusal("muted", gettext("The moderators have muted you in chat %(period)s.") % {"period": mute.period()},
                   {"until": mute.until.isoformat()})
