from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self):
        from accounts import access

        from .bans import ban_refusal, banned_user_ids, mute_refusal

        access.register(access.PLAY, ban_refusal, many=banned_user_ids)  # a ban: every seat, socket and token
        access.register(access.CHAT, mute_refusal)  # a mute: every table chat
