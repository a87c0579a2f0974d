"""The theme and card faces (accounts/appearance.py): a member's choice is kept and comes with
every page; a visitor's is not (their browser keeps it); a value that is not a choice is
refused with a clear message and changes nothing."""

import html
import re

import pytest
from accounts_support import client_for, fast_password_hashing, make_member  # noqa: F401
from django.test import Client

from accounts.models import Player

pytestmark = pytest.mark.django_db


def html_tag(client, path="/ka/"):
    return re.search(r"<html [^>]*>", client.get(path).content.decode()).group(0)


def test_a_page_carries_the_default_appearance_and_leaves_it_to_the_browser_for_a_visitor():
    tag = html_tag(Client())
    assert 'data-theme="system"' in tag and 'data-scheme="light"' in tag and 'data-deck="standard"' in tag
    assert "data-appearance-remembered" not in tag


def test_a_members_choice_is_kept_and_comes_with_every_page():
    member = make_member("nino")
    client = client_for(member)
    response = client.post("/ka/appearance/", {"theme": "dark", "deck": "four-colour", "next": "/ka/rules/"})
    assert response.status_code == 302 and response["Location"] == "/ka/rules/"
    player = Player.objects.get(user=member)
    assert (player.theme, player.card_deck) == ("dark", "four-colour")
    tag = html_tag(client, "/ru/lobby/")
    assert 'data-theme="dark"' in tag and 'data-scheme="dark"' in tag and 'data-deck="four-colour"' in tag
    assert "data-appearance-remembered" in tag
    page = client.get("/ka/").content.decode()
    assert '<option value="dark" selected>' in page and '<option value="four-colour" selected>' in page


def test_a_scripts_save_gets_no_content():
    member = make_member("nino")
    response = client_for(member).post("/ka/appearance/", {"theme": "light", "deck": "large-index"},
                                       HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 204
    assert Player.objects.get(user=member).card_deck == "large-index"


def test_a_visitors_choice_is_not_stored_on_the_server():
    players_before = Player.objects.count()
    response = Client().post("/ka/appearance/", {"theme": "dark", "deck": "standard"}, HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 204 and Player.objects.count() == players_before


@pytest.mark.parametrize("theme, deck, message", [
    ("purple", "standard", "Неизвестная тема 'purple'"),
    ("dark", "tarot", "Неизвестный вид карт 'tarot'"),
    ("", "", "Неизвестная тема ''"),
])
def test_a_value_that_is_not_a_choice_is_refused_and_changes_nothing(theme, deck, message):
    member = make_member("nino")
    client = client_for(member)
    response = client.post("/ru/appearance/", {"theme": theme, "deck": deck}, HTTP_X_REQUESTED_WITH="fetch")
    assert response.status_code == 400 and message in response.content.decode()
    player = Player.objects.get(user=member)
    assert (player.theme, player.card_deck) == ("system", "standard")
    # A form without scripts goes back with the message shown.
    response = client.post("/ru/appearance/", {"theme": theme, "deck": deck, "next": "/ru/"}, follow=True)
    assert message in html.unescape(response.content.decode())


def test_only_a_post_saves():
    assert Client().get("/ka/appearance/").status_code == 405
