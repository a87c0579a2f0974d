from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuickPlayConfig(AppConfig):
    name = "quickplay"
    verbose_name = _("Quick play")
