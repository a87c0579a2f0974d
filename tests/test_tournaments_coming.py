""""I'll come" (docs/tournaments.md): a member says it (and takes it back) on /tournaments/ and on
a tournament's page; a guest is asked to sign in and changes nothing; when the tournament
starts each member who said it gets one header notice (notices/) in their language, also under a
doubled start (two ticks, a tick and a second telling racing in two threads)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from notices.models import Notice
from tests.coins_helpers import race
from tests.factories import PASSWORD, make_guest, make_player
from tournaments import services
from tournaments.models import ComingPledge, Status, Tournament
from tournaments.services import TournamentError

EVENING_KA = "იაპონური ჯოკერის საღამოს არენა"  # "Japanese evening arena" in the Georgian catalogue


def upcoming(name="Evening arena", minutes_away=10):
    return Tournament.objects.create(name=name, variant="japanese", minutes=60, rated=False,
                                     starts_at=timezone.now() + timedelta(minutes=minutes_away),
                                     status=Status.UPCOMING)


def client_of(player):
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def start(tournament):
    services.tick(now=tournament.starts_at + timedelta(seconds=1))


@pytest.mark.django_db
def test_a_member_says_ill_come_on_the_list_and_takes_it_back_on_the_tournaments_page():
    tournament, tamar = upcoming(), make_player("tamar")
    client = client_of(tamar)
    listing = client.get("/en/tournaments/").content.decode()
    assert "I'll come" in listing
    answer = client.post(f"/en/tournaments/{tournament.pk}/coming/", {"coming": "yes", "next": "/en/tournaments/"})
    assert answer.status_code == 302 and answer["Location"] == "/en/tournaments/"
    client.post(f"/en/tournaments/{tournament.pk}/coming/", {"coming": "yes"})  # a second tap: still one
    assert ComingPledge.objects.filter(tournament=tournament, player=tamar).count() == 1
    page = client.get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert "You said you will come" in page and "1 player will come" in page
    client.post(f"/en/tournaments/{tournament.pk}/coming/", {"coming": "no"})
    assert not ComingPledge.objects.exists()
    assert "I'll come" in client.get(f"/en/tournaments/{tournament.pk}/").content.decode()


@pytest.mark.django_db
def test_a_guest_is_asked_to_sign_in_and_a_started_tournament_refuses_changing_nothing():
    tournament = upcoming()
    guest = Client()
    guest.get("/en/")  # a visitor, then a guest player of the session
    assert "Log in or sign up to say you will come." in guest.get("/en/tournaments/").content.decode()
    guest.post(f"/en/tournaments/{tournament.pk}/coming/", {"coming": "yes"})
    with pytest.raises(TournamentError) as refused:
        services.will_come(make_guest(), tournament)
    assert refused.value.code == "members_only" and not ComingPledge.objects.exists()
    start(tournament)
    with pytest.raises(TournamentError) as refused:
        services.will_come(make_player("late"), Tournament.objects.get(pk=tournament.pk))
    assert refused.value.code == "started" and not ComingPledge.objects.exists()


@pytest.mark.django_db
def test_the_start_gives_each_member_who_said_it_one_notice_in_their_language_even_under_a_doubled_tick(
        django_capture_on_commit_callbacks):
    tournament = upcoming(name="Japanese evening arena")  # a schedule's name: a msgid, shown translated
    tamar, levan, nino = make_player("tamar"), make_player("levan"), make_player("nino")
    services.will_come(tamar, tournament)
    services.will_come(levan, tournament)
    with django_capture_on_commit_callbacks(execute=True):
        start(tournament)
        start(tournament)  # a doubled tick
        assert services.tell_those_coming(tournament.pk) == 0
    notices = Notice.objects.filter(kind="tournament_starts")
    assert sorted(notices.values_list("user_id", flat=True)) == sorted([tamar.user_id, levan.user_id])
    header = client_of(tamar).get("/ka/tournaments/").content.decode()
    assert f"ტურნირი „{EVENING_KA}“ დაიწყო: მობრძანდით და ითამაშეთ." in header
    assert f'href="/ka/tournaments/{tournament.pk}/"' in header
    assert not Notice.objects.filter(user=nino.user).exists()


@pytest.mark.django_db(transaction=True)
def test_two_telling_tasks_racing_tell_each_member_once():
    tournament = upcoming()
    players = [make_player(name) for name in ("tamar", "levan", "nino", "dato")]
    for player in players:
        services.will_come(player, tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.RUNNING)
    outcomes = race(2, lambda _i: services.tell_those_coming(tournament.pk))
    assert [kind for kind, _told in outcomes] == ["ok", "ok"]
    assert sum(told for _kind, told in outcomes) == 4
    assert Notice.objects.filter(kind="tournament_starts").count() == 4
