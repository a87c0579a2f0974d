"""Websocket routes: with joker_site/urls.py and asgi.py, the one place that puts the apps' sockets together."""

from django.urls import path

from chat.sockets import PlaceChatConsumer
from games import consumers, protocol
from notices.consumers import NoticesConsumer
from quickplay.consumers import QuickPlayConsumer
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/table/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/play/", protocol.PlayConsumer.as_asgi()),
    path("ws/quickplay/", QuickPlayConsumer.as_asgi()),
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),  # tournaments/consumers.py
    path("ws/notices/", NoticesConsumer.as_asgi()),
    path("ws/chat/<str:kind>/<int:place_id>/", PlaceChatConsumer.as_asgi()),  # a tournament's chat (chat/sockets.py)  # every page of a member (notices/consumers.py)
]
