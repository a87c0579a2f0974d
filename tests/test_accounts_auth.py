"""Sign-up, log-in, log-out, password change and reset, e-mail verification, rate limits."""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from accounts_support import PASSWORD, body, client_for, fast_password_hashing, make_member  # noqa: F401
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from accounts.models import Player

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
NEW_PASSWORD = "Mtatsminda-Funicular-1905"


def signup(client, username, email="", language="en", password=PASSWORD):
    return client.post(
        f"/{language}/accounts/signup/",
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def link_in(message, pattern):
    match = re.search(r"https?://\S+" + pattern + r"\S*", message.body)
    assert match, message.body
    return urlsplit(match.group(0)).path


def test_signup_with_username_and_password_only_logs_the_new_member_in():
    client = Client()
    response = signup(client, "nino_k")
    assert response.status_code == 302
    user = get_user_model().objects.get(username="nino_k")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert mail.outbox == []  # no e-mail given, nothing to verify
    assert Player.objects.get(user=user).is_member


def test_signup_refuses_mismatched_passwords_and_creates_nothing():
    client = Client()
    response = client.post(
        "/en/accounts/signup/",
        {"username": "nino_k", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert "You must type the same password each time." in body(response)
    assert not get_user_model().objects.filter(username="nino_k").exists()


def test_signup_refuses_a_taken_username():
    make_member("nino_k")
    response = signup(Client(), "nino_k")
    assert response.status_code == 200
    assert "A user with that username already exists." in body(response)
    assert get_user_model().objects.filter(username="nino_k").count() == 1


def test_signup_with_email_sends_a_verification_link_that_verifies_it():
    client = Client()
    signup(client, "nino_k", email="nino@example.org")
    address = EmailAddress.objects.get(email="nino@example.org")
    assert not address.verified
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["nino@example.org"]
    confirm_url = link_in(mail.outbox[0], "/accounts/confirm-email/")
    assert client.get(confirm_url).status_code == 200
    assert client.post(confirm_url).status_code == 302
    address.refresh_from_db()
    assert address.verified


def test_login_and_logout():
    user = make_member("giorgi")
    client = Client()
    response = client.post("/en/accounts/login/", {"login": "giorgi", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    response = client.post("/en/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_with_a_wrong_password_is_refused_with_a_message():
    make_member("giorgi")
    client = Client()
    response = client.post("/en/accounts/login/", {"login": "giorgi", "password": "wrong-password"})
    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in body(response)
    assert re.search(r'<div role="alert"><ul class="errorlist nonfield"><li>The username', body(response))
    assert "_auth_user_id" not in client.session


def test_password_change_replaces_the_password():
    user = make_member("giorgi")
    client = client_for(user)
    response = client.post(
        "/en/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_change_with_a_wrong_old_password_changes_nothing():
    user = make_member("giorgi")
    response = client_for(user).post(
        "/en/accounts/password/change/",
        {"oldpassword": "not-it", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_password_reset_by_email_link_sets_a_new_password():
    user = make_member("tamar", email="tamar@example.org")
    EmailAddress.objects.create(user=user, email="tamar@example.org", verified=True, primary=True)
    client = Client()
    response = client.post("/en/accounts/password/reset/", {"email": "tamar@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    reset_url = link_in(mail.outbox[0], "/accounts/password/reset/key/")
    response = client.get(reset_url)
    assert response.status_code == 302  # allauth moves the key into the session
    set_password_url = response["Location"]
    response = client.post(set_password_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_login_rate_limit_stops_guessing_after_five_failures_even_with_the_right_password():
    make_member("giorgi")
    client = Client()
    for _attempt in range(5):
        client.post("/en/accounts/login/", {"login": "giorgi", "password": "guess"})
    response = client.post("/en/accounts/login/", {"login": "giorgi", "password": PASSWORD})
    assert response.status_code == 200
    assert "Too many failed login attempts. Try again later." in body(response)
    assert "_auth_user_id" not in client.session


def test_signup_rate_limit_answers_429_with_a_translated_page():
    client = Client()
    for number in range(20):
        signup(client, f"player_{number}", language="ru")
        client.post("/ru/accounts/logout/")
    response = signup(client, "one_too_many", language="ru")
    assert response.status_code == 429
    assert "Слишком много попыток" in body(response)
    assert not get_user_model().objects.filter(username="one_too_many").exists()


def _settings_in_subprocess(env_extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_")} | env_extra
    code = (
        "import django, json; from django.conf import settings; django.setup();"
        "print(json.dumps([settings.EMAIL_BACKEND, getattr(settings, 'EMAIL_HOST', ''),"
        " getattr(settings, 'EMAIL_PORT', 0)]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env | {"DJANGO_SETTINGS_MODULE": "joker_site.settings"},
        capture_output=True, text=True, check=True,
    ).stdout


def test_mail_goes_to_the_console_unless_smtp_is_configured():
    assert "console.EmailBackend" in _settings_in_subprocess({})
    smtp = _settings_in_subprocess({"EMAIL_HOST": "mail.example.org", "EMAIL_PORT": "2525"})
    assert "smtp.EmailBackend" in smtp and "mail.example.org" in smtp and "2525" in smtp
