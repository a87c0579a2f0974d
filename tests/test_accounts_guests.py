"""Guests: an identity tied to the session, a readable name, a note, sign-up keeps their games,
and the things only members may do."""

import pytest
from accounts_support import PASSWORD, body, client_for, fast_password_hashing, guest_client, make_member  # noqa: F401
from channels.auth import AuthMiddlewareStack
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.utils import translation

from accounts.models import Friendship, Player
from accounts.players import (
    GUEST_SESSION_KEY,
    MEMBER_ONLY_ACTIONS,
    MembersOnly,
    claim_guest_player,
    create_guest_player,
    player_for_request,
    player_for_scope,
    require_member,
)

pytestmark = pytest.mark.django_db


def test_pressing_play_as_guest_gives_a_guest_identity_tied_to_the_session():
    client, guest = guest_client()
    assert guest.is_guest and guest.user is None
    assert 1000 <= guest.guest_number <= 9999
    # The same browser keeps the same identity; another browser gets none.
    client.post("/ka/accounts/guest/")
    assert client.session[GUEST_SESSION_KEY] == guest.pk
    assert Player.objects.filter(is_guest=True).count() == 1


def test_guest_name_is_readable_in_each_language():
    guest = create_guest_player()
    number = guest.guest_number
    expected = {"ka": f"სტუმარი {number}", "ru": f"Гость {number}", "en": f"Guest {number}"}
    for language, name in expected.items():
        with translation.override(language):
            assert guest.display_name_text == name


def test_guest_sees_a_note_that_an_account_keeps_their_history_on_every_page():
    client, guest = guest_client()
    for path in ["/ka/", "/ka/friends/", "/ka/accounts/guest/"]:
        page = body(client.get(path))
        assert f"სტუმარი {guest.guest_number}" in page
        assert "ანგარიში ინახავს თქვენი თამაშების ისტორიას" in page
    page = body(client.get("/ru/"))
    assert f"Гость {guest.guest_number}" in page and "Учётная запись хранит историю ваших игр" in page


def test_a_visitor_who_never_chose_to_be_a_guest_has_no_identity_and_no_note():
    client = Client()
    page = body(client.get("/en/"))
    assert "You are playing as" not in page
    request = client.get("/en/").wsgi_request
    assert player_for_request(request) is None
    assert not Player.objects.exists()


def test_guest_numbers_are_unique_among_guests():
    numbers = [create_guest_player().guest_number for _ in range(200)]
    assert len(set(numbers)) == 200


def test_signing_up_as_a_guest_keeps_the_same_player_row_and_so_the_games():
    client, guest = guest_client("ru")
    response = client.post(
        "/ru/accounts/signup/",
        {"username": "levan", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="levan")
    guest.refresh_from_db()
    assert guest.user == user and not guest.is_guest and guest.guest_number is None
    assert guest.claimed_at is not None
    assert Player.objects.count() == 1
    assert GUEST_SESSION_KEY not in client.session
    assert "Зарегистрируйтесь и сохраните партии, сыгранные гостем" not in body(client.get("/ru/"))


def test_signup_page_tells_the_guest_their_games_will_be_kept():
    client, guest = guest_client("en")
    page = body(client.get("/en/accounts/signup/"))
    assert f"You are playing as Guest {guest.guest_number}: the games you played as a guest will be kept" in page


def test_logging_into_an_existing_account_does_not_take_over_a_guest_identity():
    member = make_member("levan")
    member_player = Player.objects.get(user=member)
    client, guest = guest_client("en")
    client.post("/en/accounts/login/", {"login": "levan", "password": PASSWORD})
    guest.refresh_from_db()
    assert guest.is_guest and guest.user is None
    assert player_for_request(client.get("/en/").wsgi_request) == member_player


def test_claim_guest_player_leaves_the_guest_alone_when_the_member_already_has_a_player():
    member = make_member("levan")
    guest = create_guest_player()
    assert claim_guest_player(guest, member) is None
    guest.refresh_from_db()
    assert guest.is_guest


def test_logging_out_ends_the_guest_identity_of_that_browser():
    member = make_member("levan")
    client = client_for(member)
    client.post("/en/accounts/logout/")
    assert player_for_request(client.get("/en/").wsgi_request) is None


def test_members_get_their_player_from_player_for_request():
    member = make_member("levan", display_name="Levani")
    request = client_for(member).get("/en/").wsgi_request
    player = player_for_request(request)
    assert player.user == member and player.display_name_text == "Levani"


@pytest.mark.parametrize("action", sorted(MEMBER_ONLY_ACTIONS))
def test_guests_are_refused_member_only_actions_with_a_clear_message(action):
    guest = create_guest_player()
    with pytest.raises(MembersOnly) as refusal:
        require_member(guest, action)
    with translation.override("en"):
        assert "Sign up" in str(refusal.value.message)
    with translation.override("ka"):
        assert "დარეგისტრირდით" in str(refusal.value.message)
    require_member(Player.objects.get(user=make_member(f"m_{action}")), action)  # members pass


def test_require_member_refuses_an_unknown_action_name():
    with pytest.raises(ValueError):
        require_member(create_guest_player(), "fly_to_the_moon")


def test_a_guest_sending_a_friend_request_gets_the_members_only_message_and_nothing_changes():
    target = make_member("levan")
    client, _guest = guest_client("en")
    response = client.post("/en/friends/request/", {"user": target.pk}, follow=True)
    assert "Friends are for members." in body(response)
    assert not Friendship.objects.exists()


def test_a_display_name_cannot_pose_as_a_guest():
    member = make_member("levan")
    client = client_for(member)
    for fake in ["Guest 4821", "სტუმარი 4821", "гость 12"]:
        response = client.post("/en/accounts/profile/", {"display_name": fake, "language": "en"})
        assert response.status_code == 200
        assert "Names like this are kept for guests." in body(response)
    assert Player.objects.get(user=member).display_name == ""


class _WhoAmI(AsyncJsonWebsocketConsumer):
    async def connect(self):
        await self.accept()
        player = await player_for_scope(self.scope)
        await self.send_json({"player": player.pk if player else None})


async def _player_id_over_websocket(cookie):
    application = AuthMiddlewareStack(_WhoAmI.as_asgi())
    communicator = WebsocketCommunicator(application, "/ws/whoami/", headers=[(b"cookie", cookie.encode())])
    connected, _code = await communicator.connect()
    assert connected
    reply = await communicator.receive_json_from()
    await communicator.disconnect()
    return reply["player"]


def _session_cookie(client):
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_player_for_scope_finds_the_guest_and_the_member_behind_a_websocket():
    from asgiref.sync import sync_to_async

    try:
        await _websocket_identities(sync_to_async)
    finally:
        # The worker thread's connection would keep the test database busy at teardown.
        await sync_to_async(connections.close_all)()


async def _websocket_identities(sync_to_async):
    client, guest = await sync_to_async(guest_client)("en")
    assert await _player_id_over_websocket(_session_cookie(client)) == guest.pk

    member = await sync_to_async(make_member)("levan")
    member_client = Client()
    await sync_to_async(member_client.force_login)(member)
    member_player = await sync_to_async(Player.objects.get)(user=member)
    assert await _player_id_over_websocket(_session_cookie(member_client)) == member_player.pk

    assert await _player_id_over_websocket(f"{settings.SESSION_COOKIE_NAME}=nonsense") is None
