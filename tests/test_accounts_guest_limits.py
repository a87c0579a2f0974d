"""Guests without end (issue 36, item 7): new guests are limited per address, guests idle for
long are retired (those who played keep their names at their tables), and running short of
guest numbers is a clear answer, never a server error."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from accounts import players
from accounts.guests import retire_idle_guests
from accounts.models import Player
from accounts.players import GuestRefused, create_guest_player
from accounts.tasks import retire_idle_guests as retire_task
from games.models import Seat, Visibility
from games.services import tables as table_service
from games.services.tables import TableSettings
from lessons.models import LessonProgress
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def cookieless_guest(address, language="en"):
    return Client(REMOTE_ADDR=address).post(f"/{language}/accounts/guest/")


def test_cookieless_requests_from_one_address_make_only_so_many_guests(settings):
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 5
    for _ in range(5):
        assert cookieless_guest("198.51.100.4").status_code == 302
    response = cookieless_guest("198.51.100.4")
    assert response.status_code == 429
    assert "Too many guests were made from your address" in response.content.decode()
    assert Player.objects.filter(is_guest=True).count() == 5
    # In the visitor's language, and another address is not held back.
    assert "ძალიან ბევრი სტუმარი" in cookieless_guest("198.51.100.4", "ka").content.decode()
    assert "Слишком много гостей" in cookieless_guest("198.51.100.4", "ru").content.decode()
    assert cookieless_guest("203.0.113.8").status_code == 302


def test_a_refused_guest_at_a_table_gets_the_page_and_no_seat(settings):
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    table = table_service.create_table(make_player("tamar"), TableSettings(variant="japanese", rated=False))
    Client(REMOTE_ADDR="198.51.100.4").post(f"/en/tables/{table.pk}/sit/")
    response = Client(REMOTE_ADDR="198.51.100.4").post(f"/en/tables/{table.pk}/sit/")
    assert response.status_code == 429
    assert Seat.objects.filter(table=table, left_at__isnull=True).count() == 2  # tamar and the first guest


def test_an_htmx_request_refused_a_guest_is_sent_to_the_guest_page_with_the_reason(settings):
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    cookieless_guest("198.51.100.4")
    client = Client(REMOTE_ADDR="198.51.100.4")
    response = client.post("/en/quickplay/join/", {"variant": "japanese", "stake": "0"}, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == "/en/accounts/guest/"
    assert "Too many guests were made" in client.get("/en/accounts/guest/").content.decode()


def test_guest_numbers_running_out_is_a_clear_refusal_not_a_server_error(monkeypatch):
    create_guest_player()
    taken = Player.objects.get().guest_number
    # Every number space is that one number: nothing is free.
    monkeypatch.setattr(players, "GUEST_NUMBER_SPACES", ((taken, taken, 3), (taken, taken, 3)))
    with pytest.raises(GuestRefused) as refusal:
        create_guest_player()
    assert refusal.value.code == "guest_numbers_exhausted"
    response = Client().post("/en/accounts/guest/")
    assert response.status_code == 503 and "We cannot make a new guest just now" in response.content.decode()


def test_guest_numbers_widen_to_eight_digits_when_the_shorter_ones_are_taken(monkeypatch):
    monkeypatch.setattr(players, "GUEST_NUMBER_SPACES", ((1000, 1000, 2),) + players.GUEST_NUMBER_SPACES[2:])
    first, second = create_guest_player(), create_guest_player()
    assert first.guest_number == 1000 and second.guest_number >= 1_000_000


def _idle(guest, days):
    Player.objects.filter(pk=guest.pk).update(last_seen_at=timezone.now() - timedelta(days=days))


def test_idle_guests_who_never_played_are_retired_and_those_who_played_keep_their_names(settings):
    settings.GUEST_IDLE_DAYS = 30
    idle_learner, idle_player, recent = create_guest_player(), create_guest_player(), create_guest_player()
    LessonProgress.objects.create(player=idle_learner, path="japanese")
    table = table_service.create_table(make_player("tamar"), TableSettings(variant="japanese", rated=False))
    table_service.sit(table.pk, idle_player)
    for guest in (idle_learner, idle_player):
        _idle(guest, 31)
    _idle(recent, 29)
    assert retire_task() == 1
    assert not Player.objects.filter(pk=idle_learner.pk).exists()
    assert not LessonProgress.objects.filter(player_id=idle_learner.pk).exists()
    kept = Player.objects.get(pk=idle_player.pk)
    with translation.override("en"):
        assert str(kept) == f"Guest {idle_player.guest_number}"
    assert Seat.objects.get(table=table, player=kept)
    assert Player.objects.filter(pk=recent.pk).exists()
    assert retire_idle_guests() == 0  # nothing more to do


def test_a_guest_who_comes_back_is_seen_again_and_not_retired(settings):
    settings.GUEST_IDLE_DAYS = 30
    client = Client()
    client.post("/en/accounts/guest/")
    guest = Player.objects.get(is_guest=True)
    _idle(guest, 31)
    client.get("/en/accounts/guest/")  # the guest's session is still there: a request sees them
    assert retire_idle_guests() == 0
    assert Player.objects.get(pk=guest.pk).last_seen_at > timezone.now() - timedelta(minutes=1)


def test_members_are_never_retired(settings):
    settings.GUEST_IDLE_DAYS = 1
    member = make_player("levan")
    Player.objects.filter(pk=member.pk).update(created_at=timezone.now() - timedelta(days=400))
    assert retire_idle_guests() == 0


def test_a_password_table_refusal_is_unchanged_for_members(settings):
    # Members are not guests: the guest limit never applies to them.
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    host = make_player("tamar")
    table = table_service.create_table(host, TableSettings(variant="japanese", visibility=Visibility.OPEN))
    for name in ("levan", "nino"):
        client = Client(REMOTE_ADDR="198.51.100.4")
        client.force_login(make_player(name).user)
        client.post(f"/en/tables/{table.pk}/sit/")
    assert Player.objects.filter(is_guest=True).count() == 0
