from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        from accounts import access
        from games import socket_parts
        from games.views import add_to_home_page

        from . import receivers, services
        from .consumers import ArenaTablePart
        from .views import home_section_context

        receivers.connect()  # a finished arena match scores and seats its players again (games/events.py)
        add_to_home_page(home_section_context)  # what runs now and what comes next, on the home page
        socket_parts.register_page_part(ArenaTablePart)  # at an arena table: there, and on to the next match
        access.register_chat_place("tournament", services.chat_refusal)  # its players write in its chat
