from django.contrib import admin

from .models import QueueEntry


@admin.register(QueueEntry)
class QueueEntryAdmin(admin.ModelAdmin):
    list_display = ("player", "variant", "stake", "rated", "bots", "rating", "status", "joined_at", "table")
    list_filter = ("status", "variant", "rated")
    raw_id_fields = ("player", "table")
    readonly_fields = [field.name for field in QueueEntry._meta.fields]

    def has_add_permission(self, request):
        return False
