"""The audit log and the bans: read-only for everyone, superusers included."""

import json

from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from coins.admin import ReadOnlyAdmin
from coins.models import Account

from ..models import AuditEntry, Ban, Wallet, about
from .actions import LIFT_BAN_FROM_BAN
from .base import StaffActionsMixin, admin_url_for


def target_url(entry):
    """The admin page of an audit entry's target (a wallet's page for a wallet)."""
    model = entry.target_type.model_class()
    if model is None:
        return None
    if model is Account:
        model = Wallet
    return admin_url_for(model, entry.target_id)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor_label", "action", "target", "short_reason")
    list_filter = ("action", "created_at", "target_type")
    search_fields = ("reason", "target_label", "actor_label", "target_id")
    date_hierarchy = "created_at"
    list_select_related = ("target_type",)
    fields = ("created_at", "actor_label", "action", "target", "reason", "pretty_details")
    readonly_fields = ("target", "pretty_details")

    @admin.display(description=_("target"), ordering="target_label")
    def target(self, entry):
        url = target_url(entry)
        return format_html('<a href="{}">{}</a>', url, entry.target_label) if url else entry.target_label

    @admin.display(description=_("reason"))
    def short_reason(self, entry):
        return entry.reason if len(entry.reason) <= 80 else entry.reason[:79] + "…"

    @admin.display(description=_("details"))
    def pretty_details(self, entry):
        return format_html("<pre>{}</pre>", json.dumps(entry.details, indent=2, ensure_ascii=False))


class BanInForceFilter(admin.SimpleListFilter):
    title = _("in force")
    parameter_name = "in_force"

    def lookups(self, request, model_admin):
        return [("yes", _("In force")), ("no", _("Ended or lifted"))]

    def in_force(self):
        """The rows in force now (a subclass for another model's rows says which)."""
        return Ban.objects.active(timezone.now()).values("pk")

    def queryset(self, request, queryset):
        in_force = self.in_force()
        if self.value() == "yes":
            return queryset.filter(pk__in=in_force)
        if self.value() == "no":
            return queryset.exclude(pk__in=in_force)
        return queryset


@admin.register(Ban)
class BanAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("user", "period", "in_force", "reason", "created_by", "created_at", "lifted_at", "lifted_by")
    list_filter = (BanInForceFilter, "created_at")
    search_fields = ("user__username", "reason")
    date_hierarchy = "created_at"
    list_select_related = ("user", "created_by", "lifted_by")
    staff_actions = (LIFT_BAN_FROM_BAN,)

    def audit_condition(self, ban):
        return about(ban.user)

    @admin.display(description=_("how long"))
    def period(self, ban):
        return ban.period()

    @admin.display(description=_("in force"), boolean=True)
    def in_force(self, ban):
        return ban.is_active
