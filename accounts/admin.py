from django.contrib import admin

from .models import AccessToken, Block, Friendship, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("id", "__str__", "user", "is_guest", "guest_number", "language", "created_at")
    list_filter = ("is_guest", "language")
    search_fields = ("user__username", "display_name", "guest_number")
    raw_id_fields = ("user",)


@admin.register(Friendship)
class FriendshipAdmin(admin.ModelAdmin):
    list_display = ("user_low", "user_high", "status", "requested_by", "created_at", "accepted_at")
    list_filter = ("status", "created_at")
    search_fields = ("user_low__username", "user_high__username")
    raw_id_fields = ("user_low", "user_high", "requested_by")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    list_filter = ("created_at",)
    search_fields = ("blocker__username", "blocked__username")
    raw_id_fields = ("blocker", "blocked")


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    # The hash is useless to read and the token itself is never stored.
    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    list_filter = ("created_at", "last_used_at")
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("token_hash", "prefix", "created_at", "last_used_at")
    raw_id_fields = ("user",)
