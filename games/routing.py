"""Websocket routes. The live-match consumers register here."""

websocket_urlpatterns = []
