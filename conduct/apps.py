from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConductConfig(AppConfig):
    name = "conduct"
    verbose_name = _("Walking out")
