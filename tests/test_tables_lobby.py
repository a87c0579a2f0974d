"""Creating tables, the lobby list, sitting down and standing up."""

import re
import threading

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games.models import Seat, Table, TableStatus, Visibility
from games.services import tables as table_service
from games.services.lobby import OPEN_TABLES_PAGE_LENGTH, visible_open_tables
from games.services.tables import TableError, TableSettings
from tests.factories import make_friends, make_guest, make_player


def _japanese(**kw):
    return TableSettings(variant="japanese", **kw)


@pytest.mark.django_db
def test_japanese_form_shows_no_classic_options(client):
    html = client.get("/en/tables/new/?variant=japanese").content.decode()
    for classic_only in ("khishti", "pulka_bonus", "game_type"):
        assert f'name="{classic_only}"' not in html
    assert 'name="target"' in html
    assert 'name="fill_with_bots"' in html  # a practice match against a bot, as in classic


@pytest.mark.django_db
def test_classic_form_offers_game_type_khishti_and_pulka_bonus(client):
    html = client.get("/en/tables/new/?variant=classic").content.decode()
    for name in ("game_type", "khishti", "pulka_bonus", "stake", "visibility", "clock_seconds"):
        assert f'name="{name}"' in html


@pytest.mark.django_db
def test_invalid_table_form_shows_field_errors_and_creates_nothing(client):
    response = client.post("/en/tables/new/", {"variant": "japanese", "target": "12", "stake": "0",
                                               "visibility": "password", "password": "abc", "clock_seconds": "30"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "at least 4 characters" in html
    assert Table.objects.count() == 0


@pytest.mark.django_db
def test_guest_cannot_create_a_coin_table(client):
    response = client.post("/en/tables/new/", {"variant": "japanese", "target": "21", "stake": "50",
                                               "visibility": "open", "clock_seconds": "30"})
    assert "Guests can only play at free tables" in response.content.decode()
    assert Table.objects.count() == 0


@pytest.mark.django_db
def test_guest_creates_a_free_table_and_sits_at_seat_zero(client):
    response = client.post("/en/tables/new/", {"variant": "japanese", "target": "21", "stake": "0",
                                               "visibility": "open", "clock_seconds": "30"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/tables/{table.pk}/")
    seat = table.seats.get()
    assert seat.index == 0 and seat.player.is_guest


@pytest.mark.django_db
def test_friends_only_table_is_listed_only_for_the_creators_friends():
    creator, friend, stranger = make_player("creator"), make_player("friend"), make_player("stranger")
    make_friends(creator, friend)
    table = table_service.create_table(creator, _japanese(visibility=Visibility.FRIENDS))
    assert table in visible_open_tables(friend)
    assert table in visible_open_tables(creator)
    assert table not in visible_open_tables(stranger)
    with pytest.raises(TableError) as refused:
        table_service.sit(table.pk, stranger)
    assert refused.value.code == "friends_only"


@pytest.mark.django_db
def test_password_table_needs_the_password_and_limits_guesses():
    creator, joiner = make_player("creator"), make_player("joiner")
    table = table_service.create_table(creator, _japanese(visibility=Visibility.PASSWORD, password="secret1"))
    assert table.password_hash and "secret1" not in table.password_hash
    with pytest.raises(TableError) as wrong:
        table_service.sit(table.pk, joiner, password="nope")
    assert wrong.value.code == "wrong_password"
    assert not table.seats.filter(player=joiner).exists()
    for _ in range(table_service.PASSWORD_GUESSES_ALLOWED - 1):
        with pytest.raises(TableError):
            table_service.sit(table.pk, joiner, password="nope")
    with pytest.raises(TableError) as limited:
        table_service.sit(table.pk, joiner, password="secret1")
    assert limited.value.code == "password_rate_limited"


@pytest.mark.django_db
def test_sitting_twice_changes_nothing():
    creator, joiner = make_player("creator"), make_player("joiner")
    table = table_service.create_table(creator, TableSettings(variant="classic"))
    first = table_service.sit(table.pk, joiner)
    again = table_service.sit(table.pk, joiner)
    assert first.pk == again.pk and table.seats.count() == 2


@pytest.mark.django_db
def test_standing_up_before_the_start_frees_the_seat_and_last_one_out_closes_the_table():
    creator, joiner = make_player("creator"), make_player("joiner")
    table = table_service.create_table(creator, TableSettings(variant="classic"))
    table_service.sit(table.pk, joiner)
    table_service.stand(table.pk, joiner)
    assert table.seats.count() == 1
    table_service.stand(table.pk, creator)
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED


@pytest.mark.django_db
def test_guest_is_refused_at_a_coin_table_with_a_message():
    creator = make_player("rich")
    table = table_service.create_table(creator, _japanese(stake=25))
    with pytest.raises(TableError) as refused:
        table_service.sit(table.pk, make_guest())
    assert refused.value.code == "guest_coins"


def _lobby_queries(client, path="/en/lobby/"):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries), response.content.decode().count('class="table-row"')


@pytest.mark.django_db
def test_lobby_runs_the_same_number_of_queries_for_5_and_200_tables(client, settings):
    settings.OPEN_TABLES_PER_PLAYER = 40  # five hosts make the 200 tables
    creators = [make_player(f"c{i}") for i in range(5)]

    def add_tables(count):
        for i in range(count):
            table_service.create_table(creators[i % 5], TableSettings(variant=("classic", "japanese")[i % 2]))

    client.force_login(creators[0].user)
    add_tables(5)
    client.get("/en/lobby/")  # warm up the session and language machinery
    queries_for_5, rows = _lobby_queries(client)
    assert rows == 5
    add_tables(195)
    queries_for_200, rows = _lobby_queries(client)
    assert rows == OPEN_TABLES_PAGE_LENGTH
    assert queries_for_5 == queries_for_200


def _lobby_refetch(client, query=""):
    """What a lobby socket's signal makes the page fetch (htmx's request for the list): its
    queries, rows and size, digits counted as one character (table ids and names differ)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/en/lobby/{query}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    return len(queries), html.count('class="table-row"'), len(re.sub(r"\d+", "#", html))


@pytest.mark.django_db
def test_a_lobby_update_costs_the_same_for_25_and_60_open_tables(client, settings):
    """Issue 36, finding 5: every lobby socket refetched the whole list on each change (40 tables
    of one guest: 4 KB to 20 KB). The refetch is one page: the same queries and bytes."""
    settings.OPEN_TABLES_PER_PLAYER = 60
    host = make_guest()

    def add_tables(count):
        for _ in range(count):
            table_service.create_table(host, TableSettings(variant="japanese", rated=False))

    add_tables(25)
    _lobby_refetch(client)  # warm up the language machinery
    at_25 = _lobby_refetch(client)
    add_tables(35)
    at_60 = _lobby_refetch(client)
    assert at_25 == at_60
    assert at_25[1] == OPEN_TABLES_PAGE_LENGTH


@pytest.mark.django_db
def test_the_lobby_pages_its_open_tables_for_an_anonymous_visitor(client, settings):
    settings.OPEN_TABLES_PER_PLAYER = 30
    host = make_player("pager")
    tables = [table_service.create_table(host, TableSettings(variant="classic")) for _ in range(OPEN_TABLES_PAGE_LENGTH + 5)]
    newest_first = [table.pk for table in reversed(tables)]

    def listed(html):
        return [int(pk) for pk in re.findall(r'class="table-row" data-table-id="(\d+)"', html)]

    first = client.get("/en/lobby/").content.decode()
    assert listed(first) == newest_first[:OPEN_TABLES_PAGE_LENGTH]
    assert "page=2" in first and "Older tables" in first and "Newer tables" not in first
    second = client.get("/en/lobby/?page=2").content.decode()
    assert listed(second) == newest_first[OPEN_TABLES_PAGE_LENGTH:]
    assert "Newer tables" in second and "Older tables" not in second
    assert 'name="page" value="2" form="lobby-filters"' in second  # the socket's refetch keeps the page
    # A page past the end (tables started meanwhile) and a page that is no number show the first.
    for query in ("?page=9", "?page=x", "?page=-4"):
        assert listed(client.get(f"/en/lobby/{query}").content.decode()) == newest_first[:OPEN_TABLES_PAGE_LENGTH]
    filtered = client.get("/en/lobby/?variant=japanese&page=2").content.decode()
    assert listed(filtered) == [] and "No open tables right now" in filtered


@pytest.mark.django_db(transaction=True)
def test_two_players_racing_for_the_last_seat_exactly_one_gets_it():
    creator = make_player("creator")
    table = table_service.create_table(creator, TableSettings(variant="classic"))
    table_service.sit(table.pk, make_player("second"))
    table_service.sit(table.pk, make_player("third"))
    racers = [make_player("racer_a"), make_player("racer_b")]
    barrier = threading.Barrier(2)
    results = []

    def take_last_seat(player):
        barrier.wait()
        try:
            table_service.sit(table.pk, player)
            results.append("seated")
        except TableError as exc:
            results.append(exc.code)
        except Exception as exc:  # recorded so the assertion shows it
            results.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=take_last_seat, args=(p,)) for p in racers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["full", "seated"] or sorted(results) == ["not_open", "seated"]
    assert Seat.objects.filter(table=table).count() == 4
