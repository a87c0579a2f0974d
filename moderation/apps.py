from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self):
        from accounts import access

        from .bans import ban_refusal

        access.register(access.PLAY, ban_refusal)  # a ban refuses every seat, socket and token
