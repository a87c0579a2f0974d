"""Helpers shared by the accounts and i18n tests (members, guests, htmx posts)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.players import player_for_user

PASSWORD = "Tbilisi-Kartuli-77"


def make_member(username, *, display_name="", language="", email=None, password=PASSWORD):
    user = get_user_model().objects.create_user(username=username, password=password, email=email or "")
    player = player_for_user(user)
    if display_name or language:
        player.display_name = display_name
        player.language = language
        player.save()
    return user


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def guest_client(language="ka"):
    """A browser that pressed "Play as a guest"; returns (client, guest player)."""
    from accounts.models import Player

    client = Client()
    response = client.post(f"/{language}/accounts/guest/")
    assert response.status_code == 302, response.status_code
    player_id = client.session["accounts.guest_player_id"]
    return client, Player.objects.get(pk=player_id)


def htmx_post(client, url, data, target="friends-panel"):
    return client.post(url, data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET=target)


def body(response):
    return response.content.decode()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """The production hasher is slow on purpose; these tests are about flows, not hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
