"""Personal access tokens: made and named by a member, shown once, stored as a hash, revocable."""

import hashlib

import pytest
from accounts_support import body, client_for, fast_password_hashing, make_member  # noqa: F401
from django.test import Client

from accounts.models import AccessToken
from accounts.tokens import bearer_token, create_token, user_for_token

pytestmark = pytest.mark.django_db


def create_via_page(client, name):
    response = client.post("/en/accounts/tokens/", {"name": name})
    assert response.status_code == 302
    page = body(client.get("/en/accounts/tokens/"))
    token = AccessToken.objects.get(name=name)
    return page, token


def raw_token_in(page):
    marker = 'id="fresh-token-value" class="token-value" type="text" readonly value="'
    start = page.index(marker) + len(marker)
    return page[start:page.index('"', start)]


def test_a_member_creates_a_named_token_and_sees_it_once():
    member = make_member("bot_owner")
    client = client_for(member)
    page, token = create_via_page(client, "my bot")
    raw = raw_token_in(page)
    assert raw.startswith("jkr_") and len(raw) > 40
    assert "Copy it now" in page and "my bot" in page
    again = body(client.get("/en/accounts/tokens/"))
    assert raw not in again and "Copy it now" not in again
    assert token.prefix in again  # the owner can still tell it apart


def test_only_a_sha256_of_the_token_is_stored():
    member = make_member("bot_owner")
    token, raw = create_token(member, "load test")
    token.refresh_from_db()
    assert token.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    stored = [str(value) for value in AccessToken.objects.values_list(flat=False).get(pk=token.pk)]
    assert raw not in stored


def test_user_for_token_finds_the_owner_and_notes_the_use():
    member = make_member("bot_owner")
    token, raw = create_token(member, "bot")
    assert user_for_token(raw) == member
    token.refresh_from_db()
    assert token.last_used_at is not None


@pytest.mark.parametrize("raw", ["", None, "jkr_not-a-real-token", "garbage", 12345])
def test_unknown_tokens_name_nobody(raw):
    make_member("bot_owner")
    assert user_for_token(raw) is None


def test_a_revoked_token_stops_working_at_once():
    member = make_member("bot_owner")
    client = client_for(member)
    page, token = create_via_page(client, "bot")
    raw = raw_token_in(page)
    response = client.post(f"/en/accounts/tokens/{token.pk}/revoke/", follow=True)
    assert "The token is revoked" in body(response)
    assert user_for_token(raw) is None
    assert not AccessToken.objects.exists()


def test_nobody_can_revoke_someone_elses_token():
    owner, other = make_member("bot_owner"), make_member("other")
    token, raw = create_token(owner, "bot")
    response = client_for(other).post(f"/en/accounts/tokens/{token.pk}/revoke/", follow=True)
    assert "There is no such token." in body(response)
    assert user_for_token(raw) == owner


def test_a_deactivated_members_tokens_stop_working():
    member = make_member("bot_owner")
    _token, raw = create_token(member, "bot")
    member.is_active = False
    member.save()
    assert user_for_token(raw) is None


def test_a_token_needs_a_name():
    member = make_member("bot_owner")
    response = client_for(member).post("/en/accounts/tokens/", {"name": "   "})
    assert response.status_code == 200
    assert "Give the token a name." in body(response) or "This field is required." in body(response)
    assert not AccessToken.objects.exists()


def test_token_pages_need_a_signed_in_member():
    response = Client().get("/en/accounts/tokens/")
    assert response.status_code == 302 and response["Location"].startswith("/en/accounts/login/")
    assert Client().post("/en/accounts/tokens/", {"name": "x"}).status_code == 302
    assert not AccessToken.objects.exists()


def test_bearer_header_parsing():
    assert bearer_token("Bearer abc") == "abc"
    assert bearer_token("bearer   abc  ") == "abc"
    assert bearer_token("Basic abc") is None
    assert bearer_token("Bearer ") is None
    assert bearer_token(None) is None


def test_api_me_answers_who_a_bearer_token_belongs_to():
    member = make_member("bot_owner", display_name="Botmaker")
    _token, raw = create_token(member, "bot")
    response = Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert response.status_code == 200
    assert response.json()["username"] == "bot_owner" and response.json()["display_name"] == "Botmaker"


@pytest.mark.parametrize("header", [None, "Bearer jkr_wrong", "Token abc"])
def test_api_me_refuses_missing_or_wrong_tokens_with_401(header):
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    response = Client().get("/api/v1/me", **extra)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response.json()["error"] == "invalid_token"
