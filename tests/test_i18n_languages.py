"""Language-prefixed URLs, the language switcher, and the member's remembered language."""

import pytest
from accounts_support import PASSWORD, body, client_for, fast_password_hashing, make_member  # noqa: F401
from django.test import Client

from accounts.models import Player

pytestmark = pytest.mark.django_db


def test_georgian_is_the_default_language():
    response = Client().get("/")
    assert response.status_code == 302 and response["Location"] == "/ka/"
    assert '<html lang="ka" ' in body(Client().get("/ka/"))


def test_a_russian_browser_is_sent_to_the_russian_site():
    response = Client().get("/", HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    assert response["Location"] == "/ru/"


@pytest.mark.parametrize("language, word", [("ka", "მეგობრები"), ("ru", "Друзья"), ("en", "Friends")])
def test_each_prefix_serves_its_language(language, word):
    page = body(Client().get(f"/{language}/friends/"))
    assert f'<html lang="{language}" ' in page and word in page


def test_the_switcher_keeps_the_page_and_query_and_sets_the_cookie():
    response = Client().post("/i18n/setlang/", {"language": "ru", "next": "/ka/friends/?q=nino"})
    assert response.status_code == 302 and response["Location"] == "/ru/friends/?q=nino"
    assert response.cookies["django_language"].value == "ru"


def test_after_switching_the_bare_address_opens_in_the_chosen_language():
    client = Client()
    client.post("/i18n/setlang/", {"language": "en", "next": "/ka/"})
    assert client.get("/")["Location"] == "/en/"


def test_the_switcher_refuses_an_unknown_language_and_changes_nothing():
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/en/friends/"}, follow=True)
    assert response.redirect_chain[0][0] == "/en/friends/"
    assert "This language is not available." in body(response)
    assert "django_language" not in client.cookies


def test_the_switcher_never_sends_you_off_site():
    response = Client().post("/i18n/setlang/", {"language": "ru", "next": "https://evil.example/ka/"})
    assert response["Location"] == "/"


def test_switching_language_while_logged_in_is_remembered_in_the_profile():
    member = make_member("eka", language="ka")
    client_for(member).post("/i18n/setlang/", {"language": "en", "next": "/ka/"})
    assert Player.objects.get(user=member).language == "en"


def test_sign_up_remembers_the_language_it_was_done_in():
    Client().post("/ru/accounts/signup/", {"username": "olga", "password1": PASSWORD, "password2": PASSWORD})
    assert Player.objects.get(user__username="olga").language == "ru"


def test_log_in_switches_to_the_members_language():
    make_member("eka", language="ru")
    client = Client()
    response = client.post("/ka/accounts/login/?next=/ka/friends/", {"login": "eka", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/ru/friends/"
    assert response.cookies["django_language"].value == "ru"
    assert client.get("/")["Location"] == "/ru/"


def test_log_in_without_a_preference_stays_in_the_page_language():
    make_member("eka")
    response = Client().post("/en/accounts/login/?next=/en/friends/", {"login": "eka", "password": PASSWORD})
    assert response["Location"] == "/en/friends/"
    assert "django_language" not in response.cookies


@pytest.mark.parametrize("page_language", ["ka", "ru", "en"])
def test_the_switcher_names_each_language_in_its_own_words_on_every_language_page(page_language):
    page = body(Client().get(f"/{page_language}/"))
    switcher = page[page.index('class="lang-switch"'):page.index("</form>", page.index('class="lang-switch"'))]
    for code, own_name in [("ka", "ქართული"), ("ru", "Русский"), ("en", "English")]:
        assert f'value="{code}" lang="{code}" translate="no"' in switcher
        assert f">{own_name}</button>" in switcher
    assert f'value="{page_language}" lang="{page_language}" translate="no" aria-current="true"' in switcher


@pytest.mark.parametrize("scope, language", [
    ({"query_string": b"lang=en", "headers": [(b"cookie", b"django_language=ru")]}, "en"),
    ({"query_string": b"lang=xx", "headers": [(b"referer", b"http://testserver/ru/tables/4/")]}, "ru"),
    ({"query_string": b"", "headers": [(b"cookie", b"a=1; django_language=ru")]}, "ru"),
    ({"query_string": b"", "headers": []}, "ka"),
])
def test_a_live_socket_speaks_the_language_of_the_page_that_opened_it(scope, language):
    # The page writes its language into the socket's address: browsers send no Referer there.
    from accounts.languages import page_socket_language

    assert page_socket_language(scope) == language
