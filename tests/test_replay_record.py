"""Downloading a match's game record (`record.json`): exactly the stored joker-record/1
document, only once the match is over, and never to anyone while it runs."""

import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.players import GUEST_SESSION_KEY
from games import engine
from games.models import Match, MatchStatus, Table, TableStatus, Visibility
from games.services import tables as table_service
from games.services.matches import abort, resign
from games.services.tables import TableSettings
from tests.factories import PASSWORD, make_friends, make_guest, make_player
from tests.replay_helpers import finished_match, fresh, play_moves, seated_match

pytestmark = pytest.mark.django_db


def record_url(match, lang="en"):
    return f"/{lang}/tables/{match.table_id}/record.json"


def client_for(player=None):
    client = Client()
    if player is not None and player.user_id:
        client.force_login(player.user)
    elif player is not None:
        session = client.session
        session[GUEST_SESSION_KEY] = player.pk
        session.save()
    return client


def staff_client():
    admin = get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def resigned_match():
    match, players = seated_match("japanese", ("tamar", "levan"))
    match = play_moves(match, random.Random(2), moves=9)
    resign(match.pk, players[1])
    return fresh(match), players


def test_finished_match_record_is_the_stored_document_as_an_attachment():
    match, players = finished_match(target=11)
    response = client_for(players[0]).get(record_url(match))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="joker-table-{match.table_id}-record.json"'
    assert json.loads(response.content) == match.record
    assert match.record["format"] == "joker-record/1"


def test_downloaded_record_is_accepted_by_the_replay_check_with_the_matchs_result():
    match, players = finished_match(target=11)
    verdict = engine.replay_text(client_for(players[1]).get(record_url(match)).content)
    assert verdict["ok"] is True
    assert verdict["finished"] is True
    assert verdict["winner"] == match.winners


def test_anyone_may_download_the_record_of_a_finished_open_table(resigned_match):
    match, _players = resigned_match
    stranger = make_player("outsider")
    for client in (Client(), client_for(stranger), client_for(make_guest())):
        response = client.get(record_url(match))
        assert response.status_code == 200
        assert json.loads(response.content)["end"] == {"reason": "resign", "seat": 1}


def test_record_of_a_resigned_match_replays_with_the_opponent_as_winner(resigned_match):
    match, _players = resigned_match
    verdict = engine.replay_text(Client().get(record_url(match)).content)
    assert verdict["ok"] is True and verdict["finished"] is True and verdict["winner"] == [0]


def test_record_of_an_aborted_match_is_available_and_replays_without_a_winner():
    match, players = seated_match("japanese", ("tamar", "levan"))
    match = play_moves(match, random.Random(4), moves=6)
    assert abort(match.pk, "test")
    assert fresh(match).status == MatchStatus.ABORTED
    response = client_for(players[1]).get(record_url(match))
    assert response.status_code == 200
    verdict = engine.replay_text(response.content)
    assert verdict["ok"] is True and verdict["finished"] is True and verdict["winner"] == []


def test_running_match_record_is_refused_to_players_strangers_guests_and_staff():
    match, players = seated_match("japanese", ("tamar", "levan"))
    match = play_moves(match, random.Random(3), moves=5)
    assert match.status == MatchStatus.RUNNING
    clients = {
        "player": client_for(players[0]),
        "other player": client_for(players[1]),
        "stranger": client_for(make_player("outsider")),
        "guest": client_for(make_guest()),
        "anonymous": Client(),
        "staff": staff_client(),
    }
    dealt = {card for deal in match.record["deals"] for hand in deal["hands"] for card in hand}
    for who, client in clients.items():
        response = client.get(record_url(match))
        assert response.status_code == 403, who
        body = response.content.decode()
        assert json.loads(body)["error"] == "match_running", who
        assert not any(f'"{card}"' in body for card in dealt), who


def test_record_of_a_friends_only_table_is_for_the_hosts_friends_and_its_players():
    host, guest_friend, stranger = make_player("host"), make_player("friend"), make_player("stranger")
    make_friends(host, guest_friend)
    table = table_service.create_table(host, TableSettings(variant="japanese", visibility=Visibility.FRIENDS))
    table_service.sit(table.pk, guest_friend)
    match = Match.objects.get(table=table)
    resign(match.pk, guest_friend)
    assert client_for(host).get(record_url(match)).status_code == 200
    assert client_for(guest_friend).get(record_url(match)).status_code == 200
    assert client_for(stranger).get(record_url(match)).status_code == 404
    assert Client().get(record_url(match)).status_code == 404


def test_record_of_a_table_without_a_match_or_of_no_table_is_not_found():
    host = make_player("host")
    table = table_service.create_table(host, TableSettings(variant="japanese"))
    assert table.status == TableStatus.OPEN
    assert client_for(host).get(f"/en/tables/{table.pk}/record.json").status_code == 404
    missing = (Table.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000
    assert Client().get(f"/en/tables/{missing}/record.json").status_code == 404


def test_record_download_accepts_no_post_and_changes_nothing(resigned_match):
    match, players = resigned_match
    before = fresh(match).record
    client = client_for(players[0])
    for method in (client.post, client.put, client.delete):
        response = method(record_url(match), data=json.dumps({"deals": []}), content_type="application/json")
        assert response.status_code == 405
    assert fresh(match).record == before
