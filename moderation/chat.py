"""Staff actions on table chat: mutes, and the handling of readers' reports.

Like every staff action (services.py), each runs in one transaction, locks what it
changes and writes its audit entry in that transaction. A refusal raises
`ModerationError` with a sentence for the staff member and changes nothing.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from chat.models import ChatMessage, ChatReport, ReportStatus
from chat.services import announce_hidden

from . import audit
from .models import AuditAction, Mute
from .services import ModerationError, _required


def active_mute(player, now=None):
    return Mute.objects.active(now).filter(player=player).order_by("-until").first()


def _message_details(message):
    return {"table_id": message.table_id, "match_id": message.match_id, "message_id": message.pk,
            "room": message.room, "author": message.author_label,
            "said": message.phrase and f"[{message.phrase}]" or message.text}


def _resolve_reports(message, status, actor, now):
    """Every open report of the message is handled at once; returns their ids."""
    reports = ChatReport.objects.select_for_update().filter(message=message, status=ReportStatus.OPEN)
    ids = list(reports.values_list("pk", flat=True))
    ChatReport.objects.filter(pk__in=ids).update(status=status, handled_by=actor, handled_at=now)
    return ids


# --- mutes --------------------------------------------------------------------------------

def mute_player(player_id, duration, reason, actor, details=None):
    """The player (member or guest) may not write in any table chat for `duration`."""
    reason = _required(reason)
    with transaction.atomic():
        player = Player.objects.select_for_update(of=("self",)).select_related("user").filter(pk=player_id).first()
        if player is None:
            raise ModerationError(message=_("That player does not exist."))
        if player.user_id and (player.user.is_staff or player.user.is_superuser):
            raise ModerationError(message=_("%(player)s is a staff account.") % {"player": player})
        existing = active_mute(player)
        if existing is not None:
            raise ModerationError(message=_("%(player)s is already muted %(period)s: lift that mute first.")
                                          % {"player": player, "period": existing.period()})
        mute = Mute.objects.create(player=player, until=timezone.now() + duration, reason=reason, created_by=actor)
        entry_details = {"mute_id": mute.pk, "until": mute.until.isoformat(), **(details or {})}
        audit.record(actor, AuditAction.MUTE_PLAYER, player, reason, entry_details)
        return mute


def lift_mute(player_id, reason, actor):
    reason = _required(reason)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise ModerationError(message=_("That player does not exist."))
        mutes = list(Mute.objects.active().filter(player=player))
        if not mutes:
            raise ModerationError(message=_("%(player)s is not muted.") % {"player": player})
        Mute.objects.filter(pk__in=[m.pk for m in mutes]).update(lifted_at=timezone.now(), lifted_by=actor)
        return audit.record(actor, AuditAction.LIFT_MUTE, player, reason, {"mute_ids": [m.pk for m in mutes]})


# --- reports --------------------------------------------------------------------------------

def _locked_open_report(report_id):
    report = ChatReport.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise ModerationError(message=_("That report does not exist."))
    if report.status != ReportStatus.OPEN:
        raise ModerationError(message=_("This report has been handled already (%(status)s).")
                                      % {"status": report.get_status_display()})
    return report, ChatMessage.objects.select_for_update().get(pk=report.message_id)


def dismiss_report(report_id, reason, actor):
    """Nothing wrong with the message: its open reports are closed."""
    reason = _required(reason)
    with transaction.atomic():
        report, message = _locked_open_report(report_id)
        ids = _resolve_reports(message, ReportStatus.DISMISSED, actor, timezone.now())
        return audit.record(actor, AuditAction.DISMISS_REPORT, report, reason,
                            {**_message_details(message), "report_ids": ids})


def hide_reported_message(report_id, reason, actor):
    """Nobody at the table sees the message any more (the open pages drop it at once)."""
    reason = _required(reason)
    with transaction.atomic():
        _report, message = _locked_open_report(report_id)
        now = timezone.now()
        if message.hidden_at is None:
            ChatMessage.objects.filter(pk=message.pk).update(hidden_at=now, hidden_by=actor)
            announce_hidden(message)
        ids = _resolve_reports(message, ReportStatus.HIDDEN, actor, now)
        return audit.record(actor, AuditAction.HIDE_MESSAGE, message, reason,
                            {**_message_details(message), "report_ids": ids}, label=str(message)[:200])


def mute_reported_author(report_id, duration, reason, actor):
    """Mute the message's author (and hide the message): its open reports are closed."""
    reason = _required(reason)
    with transaction.atomic():
        _report, message = _locked_open_report(report_id)
        if message.author_id is None:
            raise ModerationError(message=_("The author's account no longer exists."))
        now = timezone.now()
        if message.hidden_at is None:
            ChatMessage.objects.filter(pk=message.pk).update(hidden_at=now, hidden_by=actor)
            announce_hidden(message)
        ids = _resolve_reports(message, ReportStatus.MUTED, actor, now)
        return mute_player(message.author_id, duration, reason, actor,
                           {**_message_details(message), "report_ids": ids})
