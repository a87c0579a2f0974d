from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuickPlayConfig(AppConfig):
    name = "quickplay"
    verbose_name = _("Quick play")

    def ready(self):
        from games import socket_parts
        from games.views import add_to_home_page

        from .protocol import QuickPlayProgramPart
        from .views import section_context

        add_to_home_page(section_context)  # the one-tap queue on the home page
        socket_parts.register_program_part(QuickPlayProgramPart)  # `quick_play` on the program's socket
