from django.contrib import admin

from .models import Invitation, Notice, SiteConnection


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "created_at", "read_at")
    list_filter = ("kind",)
    raw_id_fields = ("user", "actor", "table", "invitation")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("table", "inviter", "invitee", "created_at", "expires_at", "used_at", "withdrawn_at")
    raw_id_fields = ("table", "inviter", "invitee")


@admin.register(SiteConnection)
class SiteConnectionAdmin(admin.ModelAdmin):
    list_display = ("user", "process", "connections", "seen_at")
    raw_id_fields = ("user",)
