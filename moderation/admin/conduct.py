"""The conduct app's walk-outs and pauses in the staff's admin: read-only for everyone,
superusers included; a pause in force can be lifted by the audited staff action
(moderation.services.lift_pause)."""

from dataclasses import dataclass

from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from coins.admin import ReadOnlyAdmin
from conduct.models import Pause, WalkOut

from .. import services
from ..models import about
from .base import StaffAction, StaffActionsMixin, admin_url_for
from .records import BanInForceFilter


@dataclass(frozen=True)
class ConductAction(StaffAction):
    """A staff action whose permission is the conduct app's own."""

    def allowed(self, user):
        return user.is_active and user.is_staff and user.has_perm(f"conduct.{self.permission}")


def _pause_over(pause):
    return None if pause.is_active else gettext("This pause is over or was lifted already.")


LIFT_PAUSE = ConductAction(
    name="lift_pause",
    label=_("Lift the pause"),
    permission="lift_pause",
    refusal=_pause_over,
    explanation=_("The player may play rated tables and quick play again at once. The walk-out that brought "
                  "this pause is forgiven: it no longer counts towards the next pause or in their reliability."),
    perform=lambda pause, form, actor: services.lift_pause(pause.pk, form.cleaned_data["reason"], actor),
)


def _match_link(match_id):
    from games.models import Match

    url = admin_url_for(Match, match_id)
    return format_html('<a href="{}">#{}</a>', url, match_id) if url else f"#{match_id}"


class PauseInForceFilter(BanInForceFilter):
    def in_force(self):
        return Pause.objects.active(timezone.now()).values("pk")


PLAYER_SEARCH = ("player__user__username", "player__display_name")


@admin.register(WalkOut)
class WalkOutAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("created_at", "player", "kind", "match_link", "step", "forgiven", "pause_link")
    list_filter = ("kind", "forgiven", "step", "created_at")
    search_fields = PLAYER_SEARCH
    date_hierarchy = "created_at"
    list_select_related = ("player__user", "pause")
    fields = ("created_at", "player", "kind", "match_link", "step", "forgiven", "pause_link")
    readonly_fields = ("match_link", "pause_link")

    def audit_condition(self, walk_out):
        pause = getattr(walk_out, "pause", None)
        return about(pause) if pause else about()

    @admin.display(description=_("match"), ordering="match_id")
    def match_link(self, walk_out):
        return _match_link(walk_out.match_id)

    @admin.display(description=_("pause"))
    def pause_link(self, walk_out):
        pause = getattr(walk_out, "pause", None)
        if pause is None:
            return gettext("a warning") if walk_out.step == 1 else "—"
        return format_html('<a href="{}">{}</a>', admin_url_for(pause), _until(pause))


def _until(pause):
    from django.utils.formats import date_format

    return date_format(timezone.localtime(pause.ends_at), "DATETIME_FORMAT")


@admin.register(Pause)
class PauseAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("player", "starts_at", "ends_at", "in_force", "walk_out_kind", "match_link", "lifted_at",
                    "lifted_by", "lift_reason")
    list_filter = (PauseInForceFilter, "starts_at")
    search_fields = (*PLAYER_SEARCH, "lift_reason")
    date_hierarchy = "starts_at"
    list_select_related = ("player__user", "walk_out", "lifted_by")
    fields = ("player", "starts_at", "ends_at", "in_force", "walk_out_kind", "match_link", "lifted_at",
              "lifted_by", "lift_reason")
    readonly_fields = ("in_force", "walk_out_kind", "match_link")
    staff_actions = (LIFT_PAUSE,)

    @admin.display(description=_("in force"), boolean=True)
    def in_force(self, pause):
        return pause.is_active

    @admin.display(description=_("how"))
    def walk_out_kind(self, pause):
        return pause.walk_out.get_kind_display()

    @admin.display(description=_("match"))
    def match_link(self, pause):
        return _match_link(pause.walk_out.match_id)
