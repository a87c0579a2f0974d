"""The coins page: balance, bonus, history; guests told coins are for accounts;
every language translated."""

import pytest
from coins_helpers import assert_ledger_sound, make_staff, make_user, set_balance
from django.urls import reverse
from django.utils import translation

from coins import services
from coins.models import Entry

pytestmark = pytest.mark.django_db


def page_url(lang="en", **query):
    with translation.override(lang):
        url = reverse("coins:page")
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def bonus_url(lang="en"):
    with translation.override(lang):
        return reverse("coins:claim_bonus")


def logged_in(client, user=None):
    user = user or make_user()
    client.force_login(user)
    return user


def test_the_page_lives_under_each_language_prefix():
    assert page_url("ka") == "/ka/coins/"
    assert page_url("ru") == "/ru/coins/"
    assert bonus_url("en") == "/en/coins/bonus/"


def test_a_guest_learns_that_coins_are_for_accounts(client):
    response = client.get(page_url())
    assert response.status_code == 200
    text = response.content.decode()
    assert "Domino Coins are for registered accounts." in text
    assert "Domino Coin is a play coin: not money, cannot be bought or cashed." in text
    assert reverse("account_signup") in text and reverse("account_login") in text
    assert "id=\"coin-balance\"" not in text


def test_a_player_sees_balance_notice_rules_and_history(client):
    user = logged_in(client)
    services.stake(user, "table:5", 100, table_id=5)
    text = client.get(page_url()).content.decode()
    assert '<strong id="coin-balance">900</strong>' in text
    assert "Domino Coin is a play coin: not money, cannot be bought or cashed." in text
    assert "Coin tables have stakes of 25, 50, 100, 250 coins." in text
    assert "Welcome grant" in text and "+1000" in text
    assert "Stake placed at a table" in text and "table #5" in text and "-100" in text
    assert "there is no bonus to claim now" in text


def test_history_is_paginated_newest_first(client):
    user = logged_in(client)
    staff = make_staff()
    for i in range(1, 25):
        services.staff_adjust(user, 1, f"adjustment {i}", staff)
    first = client.get(page_url()).content.decode()
    assert "adjustment 24" in first and "adjustment 5" in first and "adjustment 4" not in first
    assert "Page 1 of 2" in first and 'rel="next"' in first
    second = client.get(page_url(page=2)).content.decode()
    assert "adjustment 4" in second and "Welcome grant" in second and "adjustment 5" not in second
    # A page past the end or nonsense shows a real page rather than an error.
    assert client.get(page_url(page=99)).status_code == 200
    assert client.get(page_url(page="x")).status_code == 200


def test_a_low_player_claims_the_bonus_with_htmx_and_a_double_click_pays_once(client):
    user = logged_in(client)
    set_balance(user, 40)
    page = client.get(page_url()).content.decode()
    assert 'hx-post="/en/coins/bonus/"' in page and 'hx-disabled-elt="find button"' in page
    first = client.post(bonus_url(), HTTP_HX_REQUEST="true")
    second = client.post(bonus_url(), HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200
    first_text, second_text = first.content.decode(), second.content.decode()
    assert "100 Domino Coins added to your wallet." in first_text
    assert '<strong id="coin-balance" hx-swap-oob="true">140</strong>' in first_text
    assert "already claimed today" in second_text
    assert services.balance_of(user) == 140
    assert Entry.objects.filter(kind="daily_bonus").count() == 1
    assert_ledger_sound()


def test_a_bonus_claim_without_htmx_redirects_with_a_message(client):
    user = logged_in(client)
    response = client.post(bonus_url(), follow=True)
    assert response.redirect_chain[-1][0] == page_url()
    assert "The daily bonus is for players with fewer than 100 coins" in response.content.decode()
    assert services.balance_of(user) == 1000


def test_a_guest_cannot_claim_a_bonus(client):
    assert client.post(bonus_url(), HTTP_HX_REQUEST="true").status_code == 403
    assert client.post(bonus_url()).status_code == 302
    assert client.get(bonus_url()).status_code == 405


@pytest.mark.parametrize(
    "lang, notice",
    [
        ("ka", "Domino Coin სათამაშო ქოინია: ის ფული არ არის, არ იყიდება და ფულად არ იცვლება."),
        ("ru", "Domino Coin — игровая монета: это не деньги, её нельзя купить или обменять на деньги."),
    ],
    ids=["ka", "ru"],
)
def test_the_page_is_translated(client, lang, notice):
    logged_in(client)
    text = client.get(page_url(lang)).content.decode()
    assert notice in text
    assert "Welcome grant" not in text and "Daily bonus" not in text
    client.logout()
    guest_text = client.get(page_url(lang)).content.decode()
    assert notice in guest_text
    assert "Domino Coins are for registered accounts" not in guest_text
