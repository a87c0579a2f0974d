"""The way back from a finished match: a rematch with the same settings, offered to the same players."""

import pytest
from django.test import Client

from coins.services import balance_of
from games.models import Match, MatchStatus, Table, TableStatus
from games.services import tables as table_service
from games.services.lobby import visible_open_tables
from games.services.matches import resign
from games.services.tables import TableError, TableSettings
from tests.factories import PASSWORD, make_friends, make_player

pytestmark = pytest.mark.django_db

TABLE_PASSWORD = "kutaisi-7"


def finished_japanese_table(names=("tamar", "levan"), **options):
    """Two players sit at a Japanese table; the second resigns, so the match is over."""
    players = [make_player(name) for name in names]
    settings = TableSettings(variant="japanese", **options)
    table = table_service.create_table(players[0], settings)
    table_service.sit(table.pk, players[1], password=options.get("password", ""))
    match = Match.objects.get(table=table)
    resign(match.pk, players[1])
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    return table, players


def running_japanese_table():
    players = [make_player("tamar"), make_player("levan")]
    table = table_service.create_table(players[0], TableSettings(variant="japanese"))
    table_service.sit(table.pk, players[1])
    return table, players


def logged_in(player):
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def test_a_rematch_keeps_every_setting_of_the_finished_table_and_seats_the_one_who_asked():
    old, (_tamar, levan) = finished_japanese_table(target=15, clock_seconds=60, bank_seconds=150,
                                                  visibility="password", password=TABLE_PASSWORD)
    rematch = table_service.offer_rematch(old.pk, levan)
    assert rematch.pk != old.pk and rematch.rematch_of_id == old.pk
    kept = ("variant", "stake", "visibility", "password_hash", "clock_seconds", "bank_seconds", "target")
    assert [getattr(rematch, f) for f in kept] == [getattr(old, f) for f in kept]
    assert rematch.status == TableStatus.OPEN and rematch.creator_id == levan.pk
    assert list(rematch.seats.values_list("player_id", flat=True)) == [levan.pk]


def test_the_other_player_joins_the_offered_rematch_without_the_password_and_it_starts():
    old, (tamar, levan) = finished_japanese_table(visibility="password", password=TABLE_PASSWORD)
    rematch = table_service.offer_rematch(old.pk, tamar)
    table_service.sit(rematch.pk, levan)  # no password: levan played the match it follows
    rematch.refresh_from_db()
    assert rematch.status == TableStatus.PLAYING
    assert Match.objects.get(table=rematch).status == MatchStatus.RUNNING


def test_a_rematch_is_kept_for_the_players_of_the_match_before_it():
    old, (tamar, levan) = finished_japanese_table(visibility="password", password=TABLE_PASSWORD)
    rematch = table_service.offer_rematch(old.pk, tamar)
    stranger = make_player("stranger")
    with pytest.raises(TableError) as refusal:
        table_service.sit(rematch.pk, stranger, password=TABLE_PASSWORD)
    assert refusal.value.code == "rematch_reserved"
    assert rematch.seats.count() == 1
    assert rematch in visible_open_tables(levan) and rematch not in visible_open_tables(stranger)
    assert rematch not in visible_open_tables(None)
    page = logged_in(stranger).get(f"/en/tables/{rematch.pk}/").content.decode()
    assert "This rematch is kept for the players of the match before it." in page and "join-form" not in page
    page = logged_in(levan).get(f"/en/tables/{rematch.pk}/").content.decode()
    assert "your seat is kept for you" in page and "join-form" in page and 'name="password"' not in page


def test_both_asking_for_a_rematch_meet_at_one_table_and_a_double_click_changes_nothing():
    old, (tamar, levan) = finished_japanese_table()
    first = table_service.offer_rematch(old.pk, tamar)
    again = table_service.offer_rematch(old.pk, tamar)
    assert again.pk == first.pk and first.seats.count() == 1
    second = table_service.offer_rematch(old.pk, levan)
    assert second.pk == first.pk
    assert Table.objects.filter(rematch_of=old).count() == 1
    second.refresh_from_db()
    assert second.status == TableStatus.PLAYING


def test_a_rematch_is_refused_before_the_match_is_over_and_to_people_who_did_not_play():
    running, players = running_japanese_table()
    with pytest.raises(TableError) as early:
        table_service.offer_rematch(running.pk, players[0])
    assert early.value.code == "not_finished"
    old, _players = finished_japanese_table(names=("nino", "giorgi"))
    with pytest.raises(TableError) as outsider:
        table_service.offer_rematch(old.pk, make_player("stranger"))
    assert outsider.value.code == "not_a_player"
    assert not Table.objects.filter(rematch_of__isnull=False).exists()


def test_a_coin_rematch_takes_the_stake_and_refuses_a_player_who_cannot_cover_it():
    old, (tamar, levan) = finished_japanese_table(stake=250)
    before = balance_of(tamar.user)
    rematch = table_service.offer_rematch(old.pk, tamar)
    assert balance_of(tamar.user) == before - 250
    # levan lost 250 and has 750 left; take it down to 100 through real stakes at other tables.
    for _ in range(3):
        table_service.create_table(levan, TableSettings(variant="japanese", stake=250))
    assert balance_of(levan.user) < 250
    with pytest.raises(TableError) as refusal:
        table_service.offer_rematch(old.pk, levan)
    assert refusal.value.code == "insufficient_funds"
    assert rematch.seats.count() == 1 and balance_of(levan.user) < 250


def test_a_friends_only_rematch_lets_in_the_opponent_who_is_not_the_creators_friend():
    tamar, levan, nino = make_player("tamar"), make_player("levan"), make_player("nino")
    make_friends(tamar, levan)
    old = table_service.create_table(tamar, TableSettings(variant="japanese", visibility="friends"))
    table_service.sit(old.pk, levan)
    resign(Match.objects.get(table=old).pk, tamar)
    rematch = table_service.offer_rematch(old.pk, levan)  # levan's friends-only table: tamar is no friend
    assert table_service.can_see(rematch, tamar) and not table_service.can_see(rematch, nino)
    table_service.sit(rematch.pk, tamar)


def test_a_classic_rematch_with_bots_starts_at_once():
    person = make_player("tamar")
    old = table_service.create_table(person, TableSettings(variant="classic", game_type="short",
                                                           fill_with_bots=True))
    resign(Match.objects.get(table=old).pk, person)  # nobody is left to play against: it stops
    old.refresh_from_db()
    assert old.status == TableStatus.FINISHED
    rematch = table_service.offer_rematch(old.pk, person)
    assert rematch.seats.filter(is_bot=True).count() == 3
    assert rematch.status == TableStatus.PLAYING


def test_the_end_of_the_match_offers_a_rematch_and_then_the_others_see_it_to_join():
    old, (tamar, levan) = finished_japanese_table()
    tamar_page, levan_page = logged_in(tamar), logged_in(levan)
    page = tamar_page.get(f"/en/tables/{old.pk}/").content.decode()
    assert f'hx-post="/en/tables/{old.pk}/rematch/"' in page and ">Rematch<" in page

    answer = levan_page.post(f"/en/tables/{old.pk}/rematch/", HTTP_HX_REQUEST="true")
    rematch = Table.objects.get(rematch_of=old)
    assert answer.status_code == 204 and answer["HX-Redirect"] == f"/en/tables/{rematch.pk}/"

    page = tamar_page.get(f"/en/tables/{old.pk}/").content.decode()
    assert "levan offers a rematch." in page and "Join the rematch" in page
    assert "You are waiting at the rematch table" in levan_page.get(f"/en/tables/{old.pk}/").content.decode()
    answer = tamar_page.post(f"/en/tables/{old.pk}/rematch/")
    assert answer.status_code == 302 and answer["Location"] == f"/en/tables/{rematch.pk}/"
    rematch.refresh_from_db()
    assert rematch.status == TableStatus.PLAYING


def test_a_refused_rematch_says_why_on_the_page_and_creates_nothing():
    running, players = running_japanese_table()
    answer = logged_in(players[0]).post(f"/en/tables/{running.pk}/rematch/", follow=True)
    assert "A rematch can be asked for once the match is over." in answer.content.decode()
    assert not Table.objects.filter(rematch_of=running).exists()


def test_asking_for_a_rematch_by_get_is_not_allowed():
    old, (tamar, _levan) = finished_japanese_table()
    assert logged_in(tamar).get(f"/en/tables/{old.pk}/rematch/").status_code == 405
