from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PwaConfig(AppConfig):
    name = "pwa"
    verbose_name = _("Installable app")
