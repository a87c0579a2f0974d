"""Tables, seats and matches in the admin: for reading, and for the staff
actions. Nobody edits them here (an edited record or seat would bypass the
rules and the ledger); they change only through the audited actions."""

import json

from django.contrib import admin
from django.db.models import Prefetch, Q
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from coins.admin import ReadOnlyAdmin
from games.models import Match, MatchStatus, Seat, Table, TableStatus

from ..models import about
from .actions import ABORT_MATCH, CLOSE_TABLE, KICK_PLAYER
from .base import StaffActionsMixin, admin_url_for
from .chat import chat_log


class IdSearchMixin:
    """A number typed in the search box also finds the rows with that id."""

    id_search_fields = ("pk",)

    def get_search_results(self, request, queryset, search_term):
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lstrip("#")
        if term.isdigit():
            by_id = Q()
            for name in self.id_search_fields:
                by_id |= Q(**{name: int(term)})
            found |= queryset.filter(by_id)
        return found, may_have_duplicates


def _player_names(seats):
    names = [s.player.display_name_text for s in seats if s.player_id and s.left_at is None]
    return ", ".join(names) or "—"


PLAYER_SEARCH = ("seats__player__user__username", "seats__player__display_name")


@admin.register(Table)
class TableAdmin(StaffActionsMixin, IdSearchMixin, ReadOnlyAdmin):
    list_display = ("id", "variant", "stake", "status", "visibility", "creator", "players", "created_at",
                    "started_at")
    list_filter = ("status", "variant", "stake", "visibility", "created_at")
    search_fields = ("creator__user__username", "creator__display_name", *PLAYER_SEARCH)
    date_hierarchy = "created_at"
    list_select_related = ("creator__user",)
    exclude = ("password_hash",)
    readonly_fields = ("seated", "match_link")
    staff_actions = (CLOSE_TABLE,)

    def get_queryset(self, request):
        seats = Seat.objects.select_related("player__user").order_by("index")
        return super().get_queryset(request).prefetch_related(Prefetch("seats", queryset=seats))

    @admin.display(description=_("players"))
    def players(self, table):
        return _player_names(table.seats.all())

    @admin.display(description=_("seats"))
    def seated(self, table):
        rows = []
        for seat in table.seats.all():
            if seat.is_bot:
                who = gettext("Bot")
            elif seat.player_id:
                who = seat.player.display_name_text
            else:
                who = "—"
            if seat.left_at:
                who = gettext("%(name)s (left)") % {"name": who}
            rows.append((admin_url_for(seat), seat.index, who))
        items = format_html_join("", '<li><a href="{}">{}</a>: {}</li>', rows)
        return format_html("<ul>{}</ul>", items) if rows else "—"

    @admin.display(description=_("match"))
    def match_link(self, table):
        match = Match.objects.filter(table=table).first()
        if match is None:
            return "—"
        return format_html('<a href="{}">{}</a> ({})', admin_url_for(match), match, match.get_status_display())

    def audit_condition(self, table):
        return about(table, Match.objects.filter(table=table).first()) | Q(details__table_id=table.pk)

    def extra_staff_buttons(self, request, table):
        buttons = []
        if table.status == TableStatus.OPEN and KICK_PLAYER.allowed(request.user):
            seat_admin = self.admin_site._registry[Seat]
            for seat in table.seats.all():
                if seat.player_id:
                    label = gettext("Remove %(name)s") % {"name": seat.player.display_name_text}
                    buttons.append((label, seat_admin.staff_action_url(KICK_PLAYER, seat.pk)))
        match = Match.objects.filter(table=table, status=MatchStatus.RUNNING).first()
        if match is not None and ABORT_MATCH.allowed(request.user):
            match_admin = self.admin_site._registry[Match]
            buttons.append((ABORT_MATCH.label, match_admin.staff_action_url(ABORT_MATCH, match.pk)))
        return buttons


@admin.register(Seat)
class SeatAdmin(StaffActionsMixin, IdSearchMixin, ReadOnlyAdmin):
    list_display = ("id", "table", "index", "player", "is_bot", "joined_at", "left_at", "connections")
    list_filter = ("table__status", "table__variant", "is_bot", "joined_at")
    search_fields = ("player__user__username", "player__display_name")
    id_search_fields = ("pk", "table_id")
    list_select_related = ("table", "player__user")
    staff_actions = (KICK_PLAYER,)

    def audit_condition(self, seat):
        return about(seat.player) & Q(details__table_id=seat.table_id)


@admin.register(Match)
class MatchAdmin(StaffActionsMixin, IdSearchMixin, ReadOnlyAdmin):
    list_display = ("id", "table", "variant", "stake", "status", "version", "created_at", "finished_at",
                    "end_reason")
    list_filter = ("status", "table__variant", "table__stake", "end_reason", "created_at")
    search_fields = tuple(f"table__{field}" for field in PLAYER_SEARCH)
    id_search_fields = ("pk", "table_id")
    date_hierarchy = "created_at"
    list_select_related = ("table",)
    fields = ("table", "status", "version", "created_at", "turn_started_at", "finished_at", "end_reason",
              "end_seat", "winners", "pretty_record", "chat")
    readonly_fields = ("pretty_record", "chat")
    staff_actions = (ABORT_MATCH,)

    @admin.display(description=_("variant"), ordering="table__variant")
    def variant(self, match):
        return match.table.get_variant_display()

    @admin.display(description=_("stake"), ordering="table__stake")
    def stake(self, match):
        return match.table.stake

    @admin.display(description=_("record"))
    def pretty_record(self, match):
        # A running match's record holds every hand: nobody reads it before the match is over.
        if match.status == MatchStatus.RUNNING:
            return gettext("Hidden while the match is running: it holds every player's cards.")
        return format_html("<pre>{}</pre>", json.dumps(match.record, indent=2, ensure_ascii=False))

    @admin.display(description=_("table chat"))
    def chat(self, match):
        return chat_log(match)

    def audit_condition(self, match):
        return about(match, match.table) | Q(details__table_id=match.table_id)
