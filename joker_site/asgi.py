"""ASGI entry point: Django for HTTP, Channels consumers for websockets."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "joker_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter

from games.protocol import TokenOrSameOrigin
from joker_site.heap import settle
from joker_site.routing import websocket_urlpatterns

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Browsers must come from our own pages; programs with a token from anywhere.
        "websocket": TokenOrSameOrigin(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
settle()  # ready before it serves: URL patterns indexed, templates compiled, start-up heap frozen
