"""Users, players and guests: the accounts' own admin pages, with bans, the
wallet button and the audit panel added."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import accounts.admin  # noqa: F401  (registers the accounts' pages, which we extend)
from accounts.models import Player
from coins.admin import ReadOnlyAdmin
from coins.models import Account

from ..bans import active_ban
from ..models import Ban, Guest, Wallet, about
from .actions import ADJUST_WALLET, BAN_USER, LIFT_BAN
from .base import StaffActionsMixin, admin_url_for
from .chat import LIFT_MUTE, MUTE_PLAYER

User = get_user_model()
BaseUserAdmin = type(admin.site._registry[User])
BasePlayerAdmin = type(admin.site._registry[Player])


class BannedFilter(admin.SimpleListFilter):
    title = _("ban")
    parameter_name = "banned"

    def lookups(self, request, model_admin):
        return [("yes", _("Banned now")), ("no", _("Not banned"))]

    def queryset(self, request, queryset):
        banned = Ban.objects.active().values("user_id")
        if self.value() == "yes":
            return queryset.filter(pk__in=banned)
        if self.value() == "no":
            return queryset.exclude(pk__in=banned)
        return queryset


def _wallet_of(user):
    return Account.objects.filter(user=user, kind=Account.Kind.WALLET).first() if user else None


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(StaffActionsMixin, BaseUserAdmin):
    list_display = (*BaseUserAdmin.list_display, "ban_status", "date_joined", "last_login")
    list_filter = (*BaseUserAdmin.list_filter, BannedFilter, "date_joined")
    readonly_fields = (*BaseUserAdmin.readonly_fields, "ban_status", "wallet_link", "player_link")
    fieldsets = (*BaseUserAdmin.fieldsets,
                 (_("At the tables"), {"fields": ("ban_status", "player_link", "wallet_link")}))
    staff_actions = (BAN_USER, LIFT_BAN)

    def get_queryset(self, request):
        active = Prefetch("bans", queryset=Ban.objects.active(), to_attr="active_bans")
        return super().get_queryset(request).prefetch_related(active)

    @admin.display(description=_("ban"))
    def ban_status(self, user):
        bans = getattr(user, "active_bans", None)
        ban = max(bans, key=lambda b: (b.until is None, b.until)) if bans else active_ban(user)
        return gettext("banned %(period)s") % {"period": ban.period()} if ban else "—"

    @admin.display(description=_("wallet"))
    def wallet_link(self, user):
        wallet = _wallet_of(user)
        if wallet is None:
            return "—"
        return format_html('<a href="{}">{}</a>', admin_url_for(Wallet, wallet.pk), wallet.balance)

    @admin.display(description=_("player"))
    def player_link(self, user):
        player = Player.objects.filter(user=user).first()
        return format_html('<a href="{}">{}</a>', admin_url_for(player), player) if player else "—"

    def audit_condition(self, user):
        return about(user, Player.objects.filter(user=user).first(), _wallet_of(user))

    def extra_staff_buttons(self, request, user):
        wallet = _wallet_of(user)
        if wallet is None or not ADJUST_WALLET.allowed(request.user):
            return []
        wallet_admin = self.admin_site._registry[Wallet]
        return [(ADJUST_WALLET.label, wallet_admin.staff_action_url(ADJUST_WALLET, wallet.pk))]


admin.site.unregister(Player)


@admin.register(Player)
class PlayerAdmin(StaffActionsMixin, BasePlayerAdmin):
    list_filter = (*BasePlayerAdmin.list_filter, "created_at")
    staff_actions = (MUTE_PLAYER, LIFT_MUTE)

    def audit_condition(self, player):
        return about(player, player.user, _wallet_of(player.user))


@admin.register(Guest)
class GuestAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("id", "__str__", "guest_number", "language", "created_at")
    list_filter = ("language", "created_at")
    search_fields = ("guest_number",)
    date_hierarchy = "created_at"
    fields = ("guest_number", "language", "created_at")
    staff_actions = (MUTE_PLAYER, LIFT_MUTE)

    def get_queryset(self, request):
        return super().get_queryset(request).filter(is_guest=True)
