from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = _("Table chat")

    def ready(self):
        from games import socket_parts

        from .sockets import ChatPagePart, ChatProgramPart

        socket_parts.register_page_part(ChatPagePart)  # the chat on the table page's socket
        socket_parts.register_program_part(ChatProgramPart)  # and on the program's
