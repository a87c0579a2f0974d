"""A player waits at OPEN_TABLES_PER_PLAYER tables that have not started, at most (issue 36,
finding 5: one guest opened 40 tables and sat at all of them). Creating, joining or offering a
rematch beyond it is refused with `too_many_tables`, on the page form, over the JSON
protocol and in the service alike, and changes nothing; a table that starts at once does
not count, and leaving one frees a place."""

import pytest
from django.test import override_settings

from games.models import Seat, Table, TableStatus
from games.services import tables as table_service
from games.services.tables import TableError, TableSettings
from tests.coins_helpers import race
from tests.factories import make_guest, make_player
from tests.protocol_clients import ProgramClient, make_program_player

CAP = 3


def _japanese(**kw):
    return TableSettings(variant="japanese", target=11, **kw)


def _open_tables(player):
    return Seat.objects.filter(player=player, table__status=TableStatus.OPEN).count()


@pytest.mark.django_db
@override_settings(OPEN_TABLES_PER_PLAYER=CAP)
def test_a_guest_cannot_open_a_fourth_table_and_nothing_is_left_of_the_refused_one():
    guest = make_guest()
    for _ in range(CAP):
        table_service.create_table(guest, _japanese(rated=False))
    tables_before = Table.objects.count()
    with pytest.raises(TableError) as refused:
        table_service.create_table(guest, _japanese(rated=False))
    assert refused.value.code == "too_many_tables"
    assert Table.objects.count() == tables_before
    assert _open_tables(guest) == CAP


@pytest.mark.django_db
@override_settings(OPEN_TABLES_PER_PLAYER=CAP)
def test_joining_a_fourth_waiting_table_is_refused_and_leaving_one_frees_a_place():
    player = make_player("sitter")
    hosts = [make_player(f"host{i}") for i in range(CAP + 1)]
    classic = [table_service.create_table(host, TableSettings(variant="classic")) for host in hosts]
    for table in classic[:CAP]:
        table_service.sit(table.pk, player)
    with pytest.raises(TableError) as refused:
        table_service.sit(classic[CAP].pk, player)
    assert refused.value.code == "too_many_tables"
    assert not Seat.objects.filter(table=classic[CAP], player=player).exists()

    table_service.stand(classic[0].pk, player)
    table_service.sit(classic[CAP].pk, player)
    assert _open_tables(player) == CAP


@pytest.mark.django_db
@override_settings(OPEN_TABLES_PER_PLAYER=CAP)
def test_tables_that_start_at_once_do_not_count():
    player = make_player("busy")
    for _ in range(CAP):
        table_service.create_table(player, TableSettings(variant="classic"))
    practice = table_service.create_table(player, _japanese(fill_with_bots=True))  # bots: it starts at once
    assert practice.status == TableStatus.PLAYING
    host = make_player("host")
    waiting = table_service.create_table(host, _japanese())
    table_service.sit(waiting.pk, player)  # the last seat: the match starts
    waiting.refresh_from_db()
    assert waiting.status == TableStatus.PLAYING


@pytest.mark.django_db(transaction=True)
@override_settings(OPEN_TABLES_PER_PLAYER=CAP)
def test_two_tables_opened_at_the_same_moment_at_the_cap_make_one():
    player = make_player("racer")
    for _ in range(CAP - 1):
        table_service.create_table(player, TableSettings(variant="classic"))
    outcomes = race(2, lambda _i: table_service.create_table(player, TableSettings(variant="classic")))
    codes = sorted("opened" if kind == "ok" else getattr(result, "code", repr(result)) for kind, result in outcomes)
    assert codes == ["opened", "too_many_tables"]
    assert _open_tables(player) == CAP


@pytest.mark.django_db
@override_settings(OPEN_TABLES_PER_PLAYER=1)
def test_the_table_form_says_why_in_the_players_language(client):
    player = make_player("formfiller")
    client.force_login(player.user)
    table_service.create_table(player, TableSettings(variant="classic"))
    fields = {"variant": "japanese", "target": "11", "stake": "0", "visibility": "open", "clock_seconds": "30"}
    answer = client.post("/ka/tables/new/", fields)
    assert answer.status_code == 200
    assert "თქვენ უკვე ელოდებით იმდენ ღია მაგიდასთან" in answer.content.decode()
    answer = client.post("/ru/tables/new/", fields)
    assert "Вы уже ждёте за столькими открытыми столами" in answer.content.decode()
    assert _open_tables(player) == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(OPEN_TABLES_PER_PLAYER=1)
async def test_a_program_is_refused_a_second_waiting_table_with_too_many_tables():
    _player, token = await make_program_player("capped_bot")
    program = await ProgramClient.connect(token)
    await program.send({"type": "hello", "language": "ru"})
    await program.receive_type("welcome")
    await program.send({"type": "create_table", "variant": "classic", "options": {}})
    first = await program.receive_type("table")
    await program.send({"type": "create_table", "variant": "classic", "options": {}})
    refused = await program.receive_type("error")
    assert refused["code"] == "too_many_tables"
    assert "Вы уже ждёте" in refused["message"]
    _other, other_token = await make_program_player("host_bot")
    host = await ProgramClient.connect(other_token)
    await host.send({"type": "create_table", "variant": "classic", "options": {}})
    other_table = await host.receive_type("table")
    await program.send({"type": "join_table", "table": other_table["table"]})
    assert (await program.receive_type("error"))["code"] == "too_many_tables"
    assert first["seat"] == 0
    await program.close()
    await host.close()
