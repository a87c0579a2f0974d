"""The admin's login goes through the site's rate-limited log-in, and staff actions that ban or
move coins ask for the password again when it was not given recently (issue 36, item 2)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from coins import services as coins
from moderation.bans import active_ban
from tests.factories import PASSWORD, make_player, make_user
from tests.moderation_support import action_url, client_for, confirm, make_moderator

pytestmark = pytest.mark.django_db


def test_wrong_passwords_at_the_admin_login_never_log_in_and_the_site_limit_then_holds():
    make_moderator("warden")
    client = Client()
    for _ in range(18):
        client.post("/admin/login/", {"username": "warden", "password": "wrong-guess"})
    response = client.post("/admin/login/?next=/admin/", {"username": "warden", "password": PASSWORD})
    # The admin's own form no longer checks passwords: it sends everyone to the site's log-in.
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert "_auth_user_id" not in client.session
    for _ in range(5):
        client.post("/en/accounts/login/", {"login": "warden", "password": "wrong-guess"})
    response = client.post("/en/accounts/login/", {"login": "warden", "password": PASSWORD})
    assert "_auth_user_id" not in client.session, "the sixth try within 5 minutes must be refused"
    assert client.get("/admin/").status_code == 302


def test_staff_logged_in_at_the_site_reach_the_admin_and_members_do_not():
    make_moderator("warden")
    client = Client()
    response = client.post("/en/accounts/login/", {"login": "warden", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/admin/login/?next=/admin/")["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    member = Client()
    member.force_login(make_user("levan"))
    assert member.get("/admin/login/?next=/admin/").status_code == 403


@pytest.fixture
def staff_without_recent_password():
    moderator = make_moderator("warden")
    return client_for(moderator, reauthenticated=False), moderator


def test_a_ban_asks_for_the_password_again_and_bans_nobody_until_it_is_given(staff_without_recent_password):
    client, _moderator = staff_without_recent_password
    target = make_player("levan").user
    response = confirm(client, "auth", "user", "ban_user", [target.pk], duration="1d", reason="Abuse.")
    assert response.status_code == 302 and "/accounts/reauthenticate/" in response["Location"]
    assert active_ban(target) is None
    # After the password, the suspended request goes on where it stopped: the ban is made.
    response = client.post(response["Location"], {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == f"/admin/auth/user/{target.pk}/change/"
    assert active_ban(target) is not None


def test_a_wallet_adjustment_asks_for_the_password_again(staff_without_recent_password):
    client, _moderator = staff_without_recent_password
    player = make_player("levan")
    before = coins.balance_of(player.user)
    wallet_id = coins.wallet_for(player.user).pk
    response = client.get(action_url("moderation", "wallet", "adjust_wallet", wallet_id))
    assert response.status_code == 302 and "/accounts/reauthenticate/" in response["Location"]
    response = confirm(client, "moderation", "wallet", "adjust_wallet", [wallet_id], amount="500", reason="Gift")
    assert response.status_code == 302 and "/accounts/reauthenticate/" in response["Location"]
    assert coins.balance_of(player.user) == before


def test_a_wrong_password_on_the_reauthentication_page_does_not_unlock_the_ban(staff_without_recent_password):
    client, _moderator = staff_without_recent_password
    target = make_player("levan").user
    confirm(client, "auth", "user", "ban_user", [target.pk], duration="1d", reason="Abuse.")
    response = client.post("/en/accounts/reauthenticate/", {"password": "not-it"})
    assert response.status_code == 200
    response = confirm(client, "auth", "user", "ban_user", [target.pk], duration="1d", reason="Abuse.")
    assert "/accounts/reauthenticate/" in response["Location"]
    assert active_ban(target) is None


def test_actions_that_neither_ban_nor_move_coins_need_no_fresh_password(staff_without_recent_password):
    client, _moderator = staff_without_recent_password
    table_page = client.get(action_url("games", "table", "close_table"))  # no ids: back to the list
    assert table_page.status_code == 302 and table_page["Location"] == "/admin/games/table/"
    assert get_user_model().objects.filter(username="warden").exists()
