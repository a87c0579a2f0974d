"""Revoking a token or banning a member closes their open sockets at once (code 4401),
in the production shape (the Redis channel layer) and in the embedded default (in memory)."""

import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.urls import reverse

from accounts.models import AccessToken
from accounts.tokens import create_token
from joker_site.asgi import application
from tests.accounts_support import client_for
from tests.live_clients import connect, session_cookie_for
from tests.moderation_support import confirm, moderator_client, running_match
from tests.protocol_clients import (
    ProgramClient,
    closed_with,
    make_program_player,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CLOSE_WITHIN_SECONDS = 3  # from the commit (the admin's or the page's response), on a loaded machine


@pytest.fixture(params=["redis", "in_memory"])
def layer_shape(request, settings):
    """Each test runs with the production shape's Redis layer and with the embedded default's."""
    if request.param == "redis":
        if not django_settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("RedisChannelLayer"):
            pytest.skip("REDIS_URL is not set: no Redis channel layer to test")
    else:
        settings.CHANNEL_LAYERS = IN_MEMORY
    return request.param


async def _closed(communicator, timeout=CLOSE_WITHIN_SECONDS) -> tuple[int, list[str]]:
    return await closed_with(communicator, timeout)


async def _answers_ping(client):
    await client.send({"type": "ping", "id": "still open"})
    assert (await client.receive_type("pong"))["id"] == "still open"


@sync_to_async
def _revoke_on_the_tokens_page(user, token_id):
    response = client_for(user).post(reverse("accounts:token_revoke", args=[token_id]))
    assert response.status_code == 302


async def test_revoking_a_token_closes_every_socket_opened_with_it(layer_shape):
    player, raw = await make_program_player("revoker")
    _other, other_raw = await sync_to_async(create_token)(player.user, "the other bot")
    revoked = [await ProgramClient.connect(raw), await ProgramClient.connect(raw)]
    kept = await ProgramClient.connect(other_raw)
    for client in (*revoked, kept):
        await _answers_ping(client)
    token_id = await sync_to_async(lambda: AccessToken.objects.get(user=player.user, name="revoker's bot").pk)()

    await _revoke_on_the_tokens_page(player.user, token_id)
    committed = time.monotonic()
    for client in revoked:
        code, frames = await _closed(client.communicator)
        assert code == 4401
        assert '"code":"token_revoked"' in frames[-1]
    assert time.monotonic() - committed < CLOSE_WITHIN_SECONDS
    await _answers_ping(kept)  # another token of the same member still works
    again = await ProgramClient.connect(raw)
    assert (await again.receive())["code"] == "invalid_token"
    await kept.close()


async def test_a_token_deleted_in_the_admin_closes_its_sockets(layer_shape):
    player, raw = await make_program_player("admin_deleted")
    client = await ProgramClient.connect(raw)
    await _answers_ping(client)
    await sync_to_async(lambda: AccessToken.objects.filter(user=player.user).delete())()
    code, _frames = await _closed(client.communicator)
    assert code == 4401


async def _lobby_socket(player):
    cookie = await sync_to_async(session_cookie_for)(player)
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie.encode())]
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _code = await communicator.connect()
    assert connected
    return communicator


@sync_to_async
def _ban_in_the_admin(player):
    client, _moderator = moderator_client()
    response = confirm(client, "auth", "user", "ban_user", [player.user_id], duration="1d", reason="Bot abuse.")
    assert response.status_code == 302


async def test_a_ban_closes_the_members_protocol_and_page_sockets(layer_shape):
    match, (banned, opponent) = await sync_to_async(running_match)(("banned_one", "fair_one"), "japanese", 0)
    _token, raw = await sync_to_async(create_token)(banned.user, "banned bot")
    program = await ProgramClient.connect(raw)
    await _answers_ping(program)
    table_page = await connect(match.table_id, banned)
    await table_page.receive_from()  # the position
    lobby_page = await _lobby_socket(banned)
    opponent_page = await connect(match.table_id, opponent)
    await opponent_page.receive_from()

    await _ban_in_the_admin(banned)
    committed = time.monotonic()
    code, frames = await _closed(program.communicator)
    assert code == 4401 and '"code":"banned"' in frames[-1] and "banned your account" in frames[-1]
    code, frames = await _closed(table_page)
    assert code == 4401 and "banned your account" in frames[-1]
    code, _frames = await _closed(lobby_page)
    assert code == 4401
    assert time.monotonic() - committed < CLOSE_WITHIN_SECONDS

    # The opponent's page stays open and sees the match end (the banned seat counts as left).
    frame = await opponent_page.receive_from()
    assert 'id="match"' in frame
    await opponent_page.send_to(text_data='{"type": "resync"}')
    assert 'id="match"' in await opponent_page.receive_from()
    await opponent_page.disconnect()
