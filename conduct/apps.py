from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConductConfig(AppConfig):
    name = "conduct"
    verbose_name = _("Walking out")

    def ready(self):
        from accounts import access

        from . import receivers
        from .services import pause_refusal

        access.register(access.RATED_PLAY, pause_refusal)  # a pause refuses rated play and quick play
        receivers.connect()  # a rated walk-out (games/events.py)
