"""The ledger in the admin is for reading. Coins move only through
coins.services (a staff correction is `staff_adjust`, a new entry), so every
add, change and delete is refused here."""

from django.contrib import admin

from .models import Account, Entry, Payout, Stake


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("key", "kind", "user", "balance", "sealed", "created_at")
    list_filter = ("kind", "sealed")
    search_fields = ("key", "user__username")


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "kind", "amount", "debit", "credit", "table_id", "match_id", "memo")
    list_filter = ("kind", "created_at")
    search_fields = ("debit__key", "credit__key", "debit__user__username", "credit__user__username", "memo",
                     "idempotency_key")
    date_hierarchy = "created_at"
    list_select_related = ("debit", "credit")


@admin.register(Stake)
class StakeAdmin(ReadOnlyAdmin):
    list_display = ("id", "escrow", "wallet", "amount", "state", "payout", "created_at")
    list_filter = ("state",)
    search_fields = ("escrow__key", "wallet__key")
    list_select_related = ("escrow", "wallet", "payout")


@admin.register(Payout)
class PayoutAdmin(ReadOnlyAdmin):
    list_display = ("key", "escrow", "pot", "share", "remainder", "table_id", "match_id", "created_at")
    search_fields = ("key", "escrow__key")
