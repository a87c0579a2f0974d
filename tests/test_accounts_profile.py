"""Profile pages: display name, language, member since, games per variant, friends count."""

import pytest
from accounts_support import body, client_for, fast_password_hashing, make_member  # noqa: F401
from django.test import Client
from django.utils import timezone

from accounts import friends
from accounts.models import Player
from games.models import Variant
from games.stats import player_stats

pytestmark = pytest.mark.django_db


def test_own_profile_shows_name_language_member_since_games_and_friends():
    member = make_member("tamar", display_name="Tamari", language="ru")
    member.date_joined = timezone.datetime(2024, 3, 8, 12, tzinfo=timezone.get_current_timezone())
    member.save()
    for other in ("a1", "a2"):
        friend = make_member(other)
        friends.send_friend_request(member, friend)
        friends.accept_friend_request(friend, member)
    page = body(client_for(member).get("/en/accounts/profile/"))
    assert "Tamari" in page and "tamar" in page
    assert "Русский" in page  # preferred language, in its own words
    assert "March 8, 2024" in page
    assert "Classic Joker" in page and "Japanese Joker" in page
    assert "<dt>Friends</dt><dd>2</dd>" in page


def test_profile_dates_and_names_follow_the_page_language():
    member = make_member("tamar")
    member.date_joined = timezone.datetime(2024, 3, 8, 12, tzinfo=timezone.get_current_timezone())
    member.save()
    client = client_for(member)
    assert "მარტი" in body(client.get("/ka/accounts/profile/"))
    page = body(client.get("/ru/accounts/profile/"))
    assert "марта" in page and "Классический джокер" in page


def test_games_are_counted_as_zero_before_the_first_match():
    # Counting real matches is proved in test_replay_history.py.
    member = make_member("tamar")
    stats = player_stats(member)
    assert [s.variant for s in stats] == list(Variant.values)
    assert all(s.played == 0 and s.won == 0 for s in stats)


def test_editing_the_profile_saves_display_name_and_language_and_switches_the_page():
    member = make_member("tamar")
    client = client_for(member)
    response = client.post("/en/accounts/profile/", {"display_name": "  Tamari   B ", "language": "ka"})
    assert response.status_code == 302 and response["Location"] == "/ka/accounts/profile/"
    assert response.cookies["django_language"].value == "ka"
    player = Player.objects.get(user=member)
    assert player.display_name == "Tamari B" and player.language == "ka"


def test_a_member_who_never_chose_a_language_is_offered_the_pages_own():
    """Saving a new name from the form as offered keeps the page in the language being read."""
    member = make_member("tamar")
    assert Player.objects.get(user=member).language == ""
    page = body(client_for(member).get("/ru/accounts/profile/"))
    choices = page[page.index('<select name="language"'):]
    choices = choices[: choices.index("</select>")]
    assert '<option value="ru" selected>' in choices and choices.count(" selected>") == 1
    chosen = client_for(member).get("/ka/accounts/profile/").context["form"]["language"].value()
    assert chosen == "ka"


def test_editing_the_profile_refuses_an_unknown_language():
    member = make_member("tamar", language="en")
    response = client_for(member).post("/en/accounts/profile/", {"display_name": "", "language": "xx"})
    assert response.status_code == 200 and "Select a valid choice." in body(response)
    assert Player.objects.get(user=member).language == "en"


def test_own_profile_needs_log_in():
    response = Client().get("/ru/accounts/profile/")
    assert response.status_code == 302 and response["Location"].startswith("/ru/accounts/login/")


def test_public_profile_shows_games_and_friends_but_not_the_language():
    make_member("tamar", display_name="Tamari", language="ru")
    page = body(Client().get("/en/players/tamar/"))
    assert "Tamari" in page and "Classic Joker" in page and "Friends" in page
    assert "Preferred language" not in page


def test_unknown_or_deactivated_players_have_no_profile():
    member = make_member("gone")
    member.is_active = False
    member.save()
    assert Client().get("/en/players/gone/").status_code == 404
    assert Client().get("/en/players/nobody/").status_code == 404
