"""Names that pose as someone else are refused, at sign-up and on the profile (issue 36, item 8)."""

import pytest
from accounts_support import PASSWORD, body, client_for, fast_password_hashing, make_member  # noqa: F401
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import NameKey, Player
from accounts.names import mixes_scripts, name_key, refusal_code_for_name

pytestmark = pytest.mark.django_db

CYRILLIC_E = "\u0435"
CYRILLIC_A = "\u0430"
CYRILLIC_O = "\u043e"


def signup(username, language="en"):
    client = Client()
    response = client.post(
        f"/{language}/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )
    return response


def assert_signup_refused(username, message, language="en"):
    response = signup(username, language)
    assert response.status_code == 200, username
    assert message in body(response), username
    assert not get_user_model().objects.filter(username=username).exists()


@pytest.mark.parametrize("username", ["admin", "Moderator", "staff", "Joker", "support", "system", "joker_admin",
                                      "admin2", "ADMlN", "модератор", "ადმინი", "ჯოკერი"])  # fmt: skip
def test_signup_refuses_names_of_the_site_and_its_staff(username):
    assert_signup_refused(username, "This name is kept for the site and its staff.")


def test_signup_refuses_a_cyrillic_look_alike_of_an_existing_superusers_name():
    get_user_model().objects.create_superuser("oscar", password=PASSWORD)
    assert_signup_refused(f"osc{CYRILLIC_A}r", "A name keeps to one alphabet")
    # Cyrillic letters only (о ѕ с а г), so not mixed: it still reads "oscar".
    assert_signup_refused("\u043e\u0455\u0441\u0430\u0433", "looks too much like another player")
    assert_signup_refused("0SCAR", "looks too much like another player")


def test_signup_refuses_a_name_that_folds_to_another_members_display_name():
    make_member("tamar_b", display_name="Tamar")
    assert_signup_refused("tamar", "looks too much like another player")
    assert_signup_refused("T-a-m-a-r", "looks too much like another player")


def test_signup_refuses_bot_and_guest_names_in_every_language():
    for username in ["Bot_2", "бот3", "ბოტი4", "B0t5"]:
        assert_signup_refused(username, "kept for the practice bots")
    for username in ["Guest4821", "гость12", "სტუმარი77", f"Gu{CYRILLIC_E}st4821"]:
        assert_signup_refused(username, "kept for guests")


def test_signup_refusals_are_in_georgian_and_russian():
    assert_signup_refused("admin", "ეს სახელი", language="ka")
    assert_signup_refused("admin", "Это имя", language="ru")


def test_signup_still_accepts_ordinary_names_in_each_alphabet():
    for username in ["nino_k", "გიორგი", "Сергей_77", "badminton"]:
        assert signup(username).status_code == 302, username
    assert NameKey.objects.filter(key=name_key("გიორგი")).exists()


@pytest.mark.parametrize("display_name", ["Bot 2", "ბოტი 3", "Бот 4", f"Gu{CYRILLIC_E}st 4821", "Admin",
                                          f"T{CYRILLIC_O}mas", "tomas"])  # fmt: skip
def test_a_display_name_cannot_pose_as_a_bot_a_guest_staff_or_another_member(display_name):
    make_member("tomas")
    member = make_member("levan")
    response = client_for(member).post(
        "/en/accounts/profile/", {"display_name": display_name, "language": "en"}
    )
    assert response.status_code == 200
    assert "Please choose another." in body(response)
    assert Player.objects.get(user=member).display_name == ""


def test_a_member_may_use_their_own_username_as_display_name_and_keep_it():
    member = make_member("levan")
    client = client_for(member)
    for display_name in ["Levan", "Levan"]:  # saving it twice: the member's own key is not "another"
        response = client.post("/en/accounts/profile/", {"display_name": display_name, "language": "en"})
        assert response.status_code == 302
    assert Player.objects.get(user=member).display_name == "Levan"


def test_a_changed_display_name_frees_the_old_one():
    make_member("levan", display_name="Lion")
    player = Player.objects.get(user__username="levan")
    player.display_name = "Tiger"
    player.save()
    assert refusal_code_for_name("Lion") is None
    assert refusal_code_for_name("Tiger") == "taken"


def test_look_alikes_fold_to_one_key_and_scripts_are_told_apart():
    assert name_key("B0T") == name_key("bot") == name_key("b o t")
    assert name_key(f"Gu{CYRILLIC_E}st") == name_key("guest")
    assert name_key("ADMlN") == name_key("admin")
    assert mixes_scripts(f"Gu{CYRILLIC_E}st")
    assert not mixes_scripts("გიორგი 2")
    assert not mixes_scripts("Сергей_77")
