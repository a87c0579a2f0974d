"""Tournaments in the staff's admin (docs/tournaments.md, docs/moderation.md): the staff create
and edit a tournament before it starts, each save audited; calling one off and taking a player
out are audited staff actions (the players' scores stay). Players and results are read-only."""

from dataclasses import dataclass

from django.contrib import admin
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from coins.admin import ReadOnlyAdmin
from tournaments.models import Participant, ParticipantStatus, Status, Tournament

from .. import services
from ..models import about
from .base import StaffAction, StaffActionsMixin

# An arena lasts `minutes`; a Swiss (`kind`) plays `rounds` (docs/tournaments.md "The Swiss").
EDITABLE = ("name", "kind", "variant", "starts_at", "minutes", "rounds", "clock_seconds", "bank_seconds", "game_type",
            "target", "rated", "entry_fee", "fill_with_bots")


@dataclass(frozen=True)
class TournamentAction(StaffAction):
    """A staff action whose permission is the tournaments app's own."""

    def allowed(self, user):
        return user.is_active and user.is_staff and user.has_perm(f"tournaments.{self.permission}")


def _over(tournament):
    if tournament.status in (Status.UPCOMING, Status.RUNNING):
        return None
    return gettext("This tournament is over or was cancelled already.")


def _removed(participant):
    return gettext("This player was removed already.") if participant.status == ParticipantStatus.REMOVED else None


CANCEL_TOURNAMENT = TournamentAction(
    name="cancel_tournament",
    label=_("Cancel the tournament"),
    permission="cancel_tournament",
    refusal=_over,
    explanation=_("Nobody is paired any more and nothing more is scored; matches being played are played out."),
    perform=lambda tournament, form, actor: services.cancel_tournament(tournament.pk, form.cleaned_data["reason"],
                                                                       actor),
)

REMOVE_FROM_TOURNAMENT = TournamentAction(
    name="remove_from_tournament",
    label=_("Remove from the tournament"),
    permission="remove_participant",
    refusal=_removed,
    explanation=_("The player is not paired again and cannot join this tournament again. The scores stay."),
    perform=lambda participant, form, actor: services.remove_from_tournament(
        participant.pk, form.cleaned_data["reason"], actor),
)


@admin.register(Tournament)
class TournamentAdmin(StaffActionsMixin, admin.ModelAdmin):
    list_display = ("name", "kind", "variant", "starts_at", "minutes", "rounds", "status", "rated", "fill_with_bots")
    list_filter = ("status", "kind", "variant", "starts_at")
    search_fields = ("name",)
    date_hierarchy = "starts_at"
    fields = (*EDITABLE, "status", "current_round", "schedule_key")
    staff_actions = (CANCEL_TOURNAMENT,)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != Status.UPCOMING:  # once it started, it stays as it was played
            return (*EDITABLE, "status", "current_round", "schedule_key")
        return ("status", "current_round", "schedule_key")

    def has_delete_permission(self, request, obj=None):
        return False  # cancel instead: the audited action

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            services.tournament_saved(obj, not change, list(form.changed_data), request.user)

    def audit_condition(self, tournament):
        return about(tournament, *tournament.participants.all())


@admin.register(Participant)
class ParticipantAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("player", "tournament", "status", "score", "streak", "played", "wins")
    list_filter = ("status", "tournament__variant")
    search_fields = ("player__user__username", "player__display_name", "tournament__name")
    list_select_related = ("player__user", "tournament")
    fields = ("player", "tournament", "status", "score", "streak", "played", "wins", "tie_break", "second_tie_break",
              "joined_at")
    readonly_fields = ("joined_at",)
    staff_actions = (REMOVE_FROM_TOURNAMENT,)
