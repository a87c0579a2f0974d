"""A socket does not outlive its session (accounts/sockets.py): the security review's open
`/ws/play/` socket still created a coin table after its session logged out, and after a
password change in another session. Now a log-out closes that session's sockets, and a
changed password or a closed account every socket of the member (code 4401, with why)."""


import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse

from joker_site.asgi import application
from tests.factories import make_player
from tests.protocol_clients import ProgramClient, closed_with

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CLOSE_WITHIN_SECONDS = 3


def _logged_in(user) -> tuple[Client, bytes]:
    """A browser logged in as `user`, and its session as a Cookie header."""
    client = Client()
    client.force_login(user)
    return client, f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


def _headers(cookie: bytes):
    return [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]


async def _program_with_session(cookie: bytes) -> ProgramClient:
    """A page's script on /ws/play/, riding on the browser's session (no token)."""
    client = await ProgramClient.connect(headers=_headers(cookie))
    await client.send({"type": "ping", "id": "open"})
    assert (await client.receive_type("pong"))["id"] == "open"
    return client


async def _lobby(cookie: bytes) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=_headers(cookie))
    assert (await communicator.connect())[0]
    return communicator


async def _refused(cookie: bytes) -> None:
    """A socket opened with this session is told it is not signed in, and closed."""
    client = await ProgramClient.connect(headers=_headers(cookie))
    code, frames = await _closed(client.communicator)
    assert code == 4401 and '"code":"not_authenticated"' in frames[-1]


async def _closed(communicator) -> tuple[int, list[str]]:
    return await closed_with(communicator, CLOSE_WITHIN_SECONDS)


async def test_logging_out_closes_that_sessions_sockets_and_no_other(settings):
    member = await sync_to_async(make_player)("leaving")
    browser, cookie = await sync_to_async(_logged_in)(member.user)
    _phone, phone_cookie = await sync_to_async(_logged_in)(member.user)
    program = await _program_with_session(cookie)
    lobby = await _lobby(cookie)
    phone_program = await _program_with_session(phone_cookie)

    response = await sync_to_async(browser.post)(reverse("account_logout"))
    assert response.status_code == 302
    code, frames = await _closed(program.communicator)
    assert code == 4401 and '"code":"logged_out"' in frames[-1] and "logged out" in frames[-1]
    code, _frames = await _closed(lobby)
    assert code == 4401
    # The member's session on the phone goes on.
    await phone_program.send({"type": "ping", "id": "phone"})
    assert (await phone_program.receive_type("pong"))["id"] == "phone"
    await phone_program.close()
    await _refused(cookie)  # and the logged-out session opens no socket again


async def test_a_password_changed_in_another_session_closes_every_socket_of_the_member():
    member = await sync_to_async(make_player)("changing")
    _laptop, laptop_cookie = await sync_to_async(_logged_in)(member.user)
    program = await _program_with_session(laptop_cookie)

    @sync_to_async
    def change_the_password_elsewhere():
        user = type(member.user).objects.get(pk=member.user_id)
        user.set_password("a new and long password 42")
        user.save()

    await change_the_password_elsewhere()
    code, frames = await _closed(program.communicator)
    assert code == 4401 and '"code":"password_changed"' in frames[-1]
    await _refused(laptop_cookie)  # Django checks the session against the password


async def test_an_account_closed_in_the_admin_loses_its_sockets_and_a_save_of_other_fields_does_not():
    member = await sync_to_async(make_player)("closing")
    _laptop, cookie = await sync_to_async(_logged_in)(member.user)
    program = await _program_with_session(cookie)

    @sync_to_async
    def save(**fields):
        user = type(member.user).objects.get(pk=member.user_id)
        for name, value in fields.items():
            setattr(user, name, value)
        user.save()

    await save(first_name="Nino")  # nothing about the sign-in changed: the socket stays
    await program.send({"type": "ping", "id": "still"})
    assert (await program.receive_type("pong"))["id"] == "still"
    await save(is_active=False)
    code, frames = await _closed(program.communicator)
    assert code == 4401 and '"code":"deactivated"' in frames[-1]
