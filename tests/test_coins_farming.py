"""Coins farmed by throw-away accounts (issue 36, item 9): the welcome grant waits for a
confirmed e-mail address, unconfirmed members play free tables only, and staff see the pairs
of accounts that keep losing coins to each other."""

import pytest
from django.test import Client

from coins import services
from coins.farming import losing_pairs
from games.models import Seat, Visibility
from games.services import tables as table_service
from games.services.tables import TableError, TableSettings
from tests.factories import PASSWORD, make_player, make_unconfirmed_user
from tests.moderation_support import client_for, make_moderator

pytestmark = pytest.mark.django_db


def signup(username, email=""):
    client = Client()
    client.post("/en/accounts/signup/", {"username": username, "email": email,
                                         "password1": PASSWORD, "password2": PASSWORD})
    return client


def test_a_sign_up_gets_no_coins_until_its_address_is_confirmed_by_the_link(mailoutbox):
    from django.contrib.auth import get_user_model

    client = signup("nino_k", "nino@example.com")
    user = get_user_model().objects.get(username="nino_k")
    assert services.balance_of(user) == 0
    link = next(word for word in mailoutbox[0].body.split() if "/accounts/confirm-email/" in word)
    client.post(link[link.index("/en/"):])
    assert services.balance_of(user) == services.WELCOME_GRANT


def test_an_unconfirmed_member_plays_free_tables_but_no_coin_table():
    member = make_unconfirmed_user("levan")
    from accounts.players import player_for_user

    player = player_for_user(member)
    with pytest.raises(TableError) as refusal:
        table_service.create_table(player, TableSettings(variant="japanese", stake=25))
    assert refusal.value.code == "email_unverified"
    coin_table = table_service.create_table(make_player("tamar"), TableSettings(variant="japanese", stake=25))
    with pytest.raises(TableError):
        table_service.sit(coin_table.pk, player)
    assert Seat.objects.filter(table=coin_table, player=player).count() == 0
    free = table_service.create_table(player, TableSettings(variant="japanese", visibility=Visibility.OPEN))
    assert Seat.objects.filter(table=free, player=player).exists()
    client = Client()
    client.force_login(member)
    page = client.get("/ru/coins/").content.decode()
    assert "Подтвердите адрес электронной почты" in page


def lose_matches(loser, winner, count, stake=25, tag="x"):
    for number in range(count):
        escrow = f"table:{tag}{number}"
        services.stake(loser.user, escrow, stake)
        services.stake(winner.user, escrow, stake)
        services.pay_out(escrow, [winner.user], f"match:{tag}{number}")


def test_staff_see_the_pairs_that_keep_losing_coins_to_each_other():
    main, throwaway, rival, other = (make_player(name) for name in ("main", "throwaway", "rival", "other"))
    lose_matches(throwaway, main, 4, tag="farm")
    lose_matches(rival, other, 2, tag="fair")  # too few to list
    lose_matches(other, rival, 1, tag="back")
    (pair,) = losing_pairs()
    assert (pair.loser.user, pair.winner.user, pair.matches, pair.coins) == (throwaway.user, main.user, 4, 100)
    page = client_for(make_moderator()).get("/admin/moderation/wallet/losing-pairs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "throwaway" in html and "main" in html and "rival" not in html
    wallets = client_for(make_moderator("second")).get("/admin/moderation/wallet/").content.decode()
    assert "/admin/moderation/wallet/losing-pairs/" in wallets


def test_members_who_are_not_staff_cannot_see_the_pairs():
    member = make_player("levan").user
    client = Client()
    client.force_login(member)
    response = client.get("/admin/moderation/wallet/losing-pairs/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
