"""Table chat in the admin: the moderators' queue of reports, the messages, the mutes,
and the chat log on a match's page."""

from datetime import timedelta

from django import forms
from django.contrib import admin
from django.db.models import Q
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from chat.models import ChatMessage, ChatReport, ReportStatus
from chat.services import context_of
from coins.admin import ReadOnlyAdmin

from .. import chat as chat_actions
from ..forms import ReasonForm
from ..models import Mute, about
from .base import StaffAction, StaffActionsMixin, admin_url_for


class MuteForm(ReasonForm):
    DURATIONS = {
        "15m": timedelta(minutes=15),
        "1h": timedelta(hours=1),
        "1d": timedelta(days=1),
        "7d": timedelta(days=7),
        "30d": timedelta(days=30),
    }
    duration = forms.ChoiceField(
        label=_("For how long"),
        choices=[("15m", _("15 minutes")), ("1h", _("One hour")), ("1d", _("One day")), ("7d", _("A week")),
                 ("30d", _("30 days"))],
        initial="1h",
        widget=forms.RadioSelect,
    )
    field_order = ["duration", "reason"]

    def mute_duration(self):
        return self.DURATIONS[self.cleaned_data["duration"]]


def _not_mutable(player):
    if player.user_id and (player.user.is_staff or player.user.is_superuser):
        return gettext("A staff account.")
    if chat_actions.active_mute(player) is not None:
        return gettext("Already muted.")
    return None


def _not_muted(player):
    return None if chat_actions.active_mute(player) is not None else gettext("Not muted.")


def _report_handled(report):
    if report.status != ReportStatus.OPEN:
        return gettext("Handled already (%(status)s).") % {"status": report.get_status_display()}
    return None


def _author_not_mutable(report):
    handled = _report_handled(report)
    if handled:
        return handled
    author = report.message.author
    return gettext("The author's account no longer exists.") if author is None else _not_mutable(author)


MUTE_PLAYER = StaffAction(
    name="mute_player",
    label=_("Mute in chat"),
    permission="mute_player",
    refusal=_not_mutable,
    form_class=MuteForm,
    explanation=_("The player may not write in any table chat until the mute ends; they are told until when."),
    perform=lambda player, form, actor: chat_actions.mute_player(player.pk, form.mute_duration(),
                                                                 form.cleaned_data["reason"], actor),
)

LIFT_MUTE = StaffAction(
    name="lift_mute",
    label=_("Lift the chat mute"),
    permission="mute_player",
    refusal=_not_muted,
    explanation=_("The player may write in table chat again at once."),
    perform=lambda player, form, actor: chat_actions.lift_mute(player.pk, form.cleaned_data["reason"], actor),
)

LIFT_MUTE_FROM_MUTE = StaffAction(
    name="lift_mute",
    label=_("Lift the chat mute"),
    permission="mute_player",
    refusal=lambda mute: None if mute.is_active else gettext("This mute is no longer in force."),
    explanation=_("The player may write in table chat again at once."),
    perform=lambda mute, form, actor: chat_actions.lift_mute(mute.player_id, form.cleaned_data["reason"], actor),
)

DISMISS_REPORT = StaffAction(
    name="dismiss_report",
    label=_("Dismiss the report"),
    permission="handle_chat_report",
    refusal=_report_handled,
    explanation=_("The message stays as it is; every open report of it is closed."),
    perform=lambda report, form, actor: chat_actions.dismiss_report(report.pk, form.cleaned_data["reason"], actor),
)

HIDE_MESSAGE = StaffAction(
    name="hide_message",
    label=_("Hide the message"),
    permission="handle_chat_report",
    refusal=_report_handled,
    explanation=_("Nobody at the table sees the message any more; open pages drop it at once."),
    perform=lambda report, form, actor: chat_actions.hide_reported_message(report.pk, form.cleaned_data["reason"],
                                                                           actor),
)

MUTE_AUTHOR = StaffAction(
    name="mute_author",
    label=_("Hide the message and mute its author"),
    permission="handle_chat_report",
    refusal=_author_not_mutable,
    form_class=MuteForm,
    explanation=_("The message is hidden, and its author may not write in any table chat until the mute ends."),
    perform=lambda report, form, actor: chat_actions.mute_reported_author(
        report.pk, form.mute_duration(), form.cleaned_data["reason"], actor),
)


def said(message):
    """A message as staff read it: a phrase by its key and its words, a text as written."""
    if message.phrase:
        return f"[{message.phrase}] {message.shown_text()}"
    return message.text


def message_rows(messages, marked=None):
    """A table of messages for an admin page (`marked`: the one a report is about)."""
    rows = []
    for m in messages:
        notes = []
        if m.filtered:
            notes.append(gettext("caught by the word filter"))
        if m.hidden_at:
            notes.append(gettext("hidden"))
        rows.append((
            "selected" if marked is not None and m.pk == marked.pk else "",
            f"{m.created_at:%H:%M:%S}", m.get_room_display(), m.author_label, said(m), ", ".join(notes),
        ))
    if not rows:
        return "—"
    body = format_html_join("", '<tr class="{}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>', rows)
    return format_html('<table class="chat-log"><tbody>{}</tbody></table>', body)


def chat_log(match):
    """Everything said at the match's table, in both rooms (for the match's admin page)."""
    messages = ChatMessage.objects.filter(table_id=match.table_id).order_by("created_at", "id")
    return message_rows(messages)


class StatusFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("open", _("waiting")), ("handled", _("handled")), ("all", _("all"))]

    def choices(self, changelist):
        for lookup, title in self.lookup_choices:
            yield {"selected": (self.value() or "open") == lookup, "display": title,
                   "query_string": changelist.get_query_string({self.parameter_name: lookup})}

    def queryset(self, request, queryset):
        value = self.value() or "open"
        if value == "open":
            return queryset.filter(status=ReportStatus.OPEN)
        if value == "handled":
            return queryset.exclude(status=ReportStatus.OPEN)
        return queryset


@admin.register(ChatReport)
class ChatReportAdmin(StaffActionsMixin, ReadOnlyAdmin):
    """The moderators' queue: waiting reports first, oldest first."""

    list_display = ("created_at", "status", "reported_text", "author", "table_link", "reporter_label")
    list_filter = (StatusFilter, "created_at")
    search_fields = ("message__text", "message__author_label", "reporter_label")
    list_select_related = ("message__table",)
    ordering = ("created_at", "id")
    fields = ("status", "created_at", "reporter_label", "reported_text", "author", "table_link", "match_link",
              "context", "handled_by", "handled_at")
    readonly_fields = ("reported_text", "author", "table_link", "match_link", "context")
    staff_actions = (DISMISS_REPORT, HIDE_MESSAGE, MUTE_AUTHOR)

    @admin.display(description=_("message"))
    def reported_text(self, report):
        return said(report.message)

    @admin.display(description=_("author"))
    def author(self, report):
        author = report.message.author
        if author is None:
            return report.message.author_label
        return format_html('<a href="{}">{}</a>', admin_url_for(author), report.message.author_label)

    @admin.display(description=_("table"))
    def table_link(self, report):
        table = report.message.table
        if table is None:  # a place's chat (a tournament's)
            return report.message.place
        return format_html('<a href="{}">{}</a> ({})', admin_url_for(table), table, report.message.get_room_display())

    @admin.display(description=_("match"))
    def match_link(self, report):
        match = report.message.match
        return format_html('<a href="{}">{}</a>', admin_url_for(match), match) if match else "—"

    @admin.display(description=_("what was said around it"))
    def context(self, report):
        return message_rows(context_of(report.message), marked=report.message)

    def audit_condition(self, report):
        return about(report, report.message) | Q(details__message_id=report.message_id)


@admin.register(ChatMessage)
class ChatMessageAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("created_at", "table", "room", "author_label", "shown", "filtered", "hidden_at")
    list_filter = ("room", "filtered", "created_at")
    search_fields = ("text", "author_label", "phrase")
    list_select_related = ("table",)
    date_hierarchy = "created_at"
    fields = ("created_at", "table", "match", "room", "author", "author_label", "phrase", "text", "filtered",
              "hidden_at", "hidden_by")

    @admin.display(description=_("message"))
    def shown(self, message):
        return said(message)

    def audit_condition(self, message):
        return about(message) | Q(details__message_id=message.pk)


@admin.register(Mute)
class MuteAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("player", "period", "created_at", "created_by", "lifted_at")
    list_filter = ("created_at",)
    search_fields = ("player__user__username", "player__display_name")
    list_select_related = ("player__user", "created_by")
    fields = ("player", "until", "reason", "created_by", "created_at", "lifted_at", "lifted_by")
    staff_actions = (LIFT_MUTE_FROM_MUTE,)

    @admin.display(description=_("until"))
    def period(self, mute):
        return mute.period() if mute.is_active else gettext("ended")

    def audit_condition(self, mute):
        return about(mute.player)
