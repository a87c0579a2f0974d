from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuickPlayConfig(AppConfig):
    name = "quickplay"
    verbose_name = _("Quick play")

    def ready(self):
        from games.views import add_to_home_page

        from .views import section_context

        add_to_home_page(section_context)  # the one-tap queue on the home page
