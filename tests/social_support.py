"""Shared helpers for the friends-online, notices and invitations tests (not a test module)."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation

from joker_site.asgi import application
from tests.live_clients import session_cookie_for


async def open_page(player, language="en", friends_page=False):
    """One page of the site open in a browser: its site-wide socket (ws/notices/)."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if player is not None:
        cookie = await sync_to_async(session_cookie_for)(player)
        headers.append((b"cookie", cookie.encode()))
    path = f"/ws/notices/?lang={language}" + ("&friends=1" if friends_page else "")
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


async def frames_until(communicator, needle, timeout=5):
    """Frames received until one contains `needle` (fails on a timeout)."""
    seen = []
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        seen.append(frame)
        if needle in frame:
            return seen


@pytest.fixture(autouse=True)
def english():
    """Outside a request the site speaks Georgian; these tests read the English words."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def forget_site_holds():
    """Pages a test counted and never closed must not keep this process's beat writing."""
    yield
    from notices import presence

    presence.forget_holds()


def client_of(player):
    client = Client()
    client.force_login(player.user)
    return client
