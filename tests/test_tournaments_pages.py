"""The tournament pages (tournaments/views.py, templates/tournaments/): the list from the header
and the home page, a running arena's page with its standings and matches, joining and leaving by
form posts, the final page with the podium and the replays, and the page's live socket (the
standings fetched again when they change, the move to the player's new table)."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from games import live
from games.models import Match
from joker_site.asgi import application
from tests.factories import PASSWORD, make_player
from tests.live_clients import session_cookie_for
from tournaments import services
from tournaments.models import Participant, ParticipantStatus, Status, Tournament

TIMEOUT = 10


def arena(status=Status.RUNNING, name="Evening arena", **fields):
    starts = timezone.now() - timedelta(minutes=5) if status != Status.UPCOMING else timezone.now() + timedelta(hours=2)
    return Tournament.objects.create(name=name, variant="japanese", minutes=60, rated=False, starts_at=starts,
                                     status=status, **fields)


def two_joined(tournament):
    """tamar and levan join `tournament`: seated together at once when it runs."""
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    services.join(levan, tournament)
    return tamar, levan


def levan_resigns():
    """levan resigns his arena match: tamar wins it. Returns the arena game."""
    game = Participant.objects.get(player__user__username="levan").game
    live.submit(Match.objects.get(table_id=game.table_id).pk, game.players.get(player__user__username="levan").player,
                live.Resign())
    return game


def client_of(player):
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


@pytest.mark.django_db
def test_the_list_shows_running_upcoming_and_finished_and_the_header_and_home_link_to_it():
    arena(name="Now arena")
    arena(status=Status.UPCOMING, name="Later arena")
    arena(status=Status.FINISHED, name="Past arena")
    arena(status=Status.CANCELLED, name="Called off")
    page = Client().get("/ru/tournaments/").content.decode()
    assert "Now arena" in page and "Later arena" in page and "Past arena" in page
    assert "Called off" not in page
    assert page.index("Now arena") < page.index("Later arena") < page.index("Past arena")
    home = Client().get("/ka/").content.decode()
    assert 'href="/ka/tournaments/"' in home
    assert "Later arena" in home


@pytest.mark.django_db
def test_joining_from_the_page_seats_the_second_player_and_the_page_shows_the_match():
    tournament = arena()
    tamar, levan = make_player("tamar"), make_player("levan")
    first = client_of(tamar).post(f"/en/tournaments/{tournament.pk}/join/")
    assert first.status_code == 302 and first["Location"] == f"/en/tournaments/{tournament.pk}/"
    second = client_of(levan).post(f"/en/tournaments/{tournament.pk}/join/")
    table_id = Participant.objects.get(player=levan).game.table_id
    assert second["Location"] == f"/en/tables/{table_id}/"
    page = client_of(tamar).get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert "Your place: 1, your score: 0" in page
    assert f'href="/en/tables/{table_id}/"' in page  # watchable
    assert "Leave the arena" in page
    go = client_of(tamar).get(f"/en/tournaments/{tournament.pk}/go/", HTTP_HX_REQUEST="true")
    assert go.status_code == 204 and go["HX-Redirect"] == f"/en/tables/{table_id}/"


@pytest.mark.django_db
def test_the_entry_fee_and_the_prize_split_are_shown_before_joining():
    tournament = arena(entry_fee=50)
    services.join(make_player("ana"), tournament)
    page = client_of(make_player("tamar")).get(f"/en/tournaments/{tournament.pk}/").content.decode()
    fee = page[page.index('id="arena-fee"'):]
    assert (fee.index("50 coins") < fee.index("1st place gets 50 %, 2nd 30 %, 3rd 20 %")
            < fee.index("If only two play: 70 % and 30 %") < page.index("Join the arena"))
    assert "In the prize now: <span" in fee and "50 coins</span>." in fee.split("In the prize now:")[1][:200]
    free = client_of(make_player("levan")).get(f"/en/tournaments/{arena().pk}/").content.decode()
    assert 'id="arena-fee"' not in free


@pytest.mark.django_db
def test_a_paused_player_is_told_so_and_comes_back_with_the_button():
    tournament = arena()
    tamar = make_player("tamar")
    Participant.objects.create(tournament=tournament, player=tamar, status=ParticipantStatus.PAUSED)
    client = client_of(tamar)
    page = client.get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert "You are paused until you come back to the arena." in page
    assert "Come back to the arena" in page and "Leave the arena" not in page
    client.post(f"/en/tournaments/{tournament.pk}/join/")
    assert Participant.objects.get(player=tamar).status == ParticipantStatus.ACTIVE


@pytest.mark.django_db
def test_leaving_from_the_page_and_a_refused_join_say_why():
    tournament = arena()
    tamar = make_player("tamar")
    client = client_of(tamar)
    client.post(f"/en/tournaments/{tournament.pk}/join/")
    client.post(f"/en/tournaments/{tournament.pk}/leave/")
    assert Participant.objects.get(player=tamar).status == ParticipantStatus.WITHDRAWN
    page = client.post(f"/en/tournaments/{tournament.pk}/leave/", follow=True).content.decode()
    assert "You are not playing in this tournament." in page
    guest_page = Client().post(f"/en/tournaments/{tournament.pk}/join/", follow=True).content.decode()
    assert "Log in or sign up to play in tournaments." in guest_page
    assert Participant.objects.count() == 1


@pytest.mark.django_db
def test_the_final_page_shows_the_podium_and_each_match_with_its_replay(django_capture_on_commit_callbacks):
    tournament = arena()
    two_joined(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        game = levan_resigns()
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    page = Client().get(f"/ka/tournaments/{tournament.pk}/").content.decode()
    podium = page[page.index('id="arena-podium"'):]
    assert podium.index("tamar") < podium.index("levan")
    assert f'href="/ka/tables/{game.table_id}/replay/"' in page
    # Each place with its score, "2 points" — not a table's target, "up to 2 points" ("2 ქულამდე",
    # "2 очков"), which the same English once read as on this page.
    assert "· 2 ქულა</li>" in podium
    russian = Client().get(f"/ru/tournaments/{tournament.pk}/").content.decode()
    assert "· 2 очка</li>" in russian[russian.index('id="arena-podium"'):]


async def page_socket(player, tournament):
    cookie = await sync_to_async(session_cookie_for)(player)
    socket = WebsocketCommunicator(application, f"/ws/tournament/{tournament.pk}/?lang=ru", headers=[
        (b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie.encode())])
    connected, _code = await socket.connect(timeout=TIMEOUT)
    assert connected
    return socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_page_socket_brings_a_paused_player_back_and_moves_them_to_their_table():
    tournament = await sync_to_async(arena)()
    tamar, levan = await sync_to_async(make_player)("tamar"), await sync_to_async(make_player)("levan")
    await sync_to_async(Participant.objects.create)(tournament=tournament, player=tamar,
                                                    status=ParticipantStatus.PAUSED)
    socket = await page_socket(tamar, tournament)
    refetch = await socket.receive_from(timeout=TIMEOUT)  # came back: the standings changed
    assert f'hx-get="/ru/tournaments/{tournament.pk}/live/"' in refetch
    status = await sync_to_async(lambda: Participant.objects.get(player=tamar).status)()
    assert status == ParticipantStatus.ACTIVE
    await sync_to_async(services.join)(levan, tournament)
    for _ in range(5):
        frame = await socket.receive_from(timeout=TIMEOUT)
        if "/go/" in frame:
            break
    assert f'hx-get="/ru/tournaments/{tournament.pk}/go/"' in frame
    await socket.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_tournament_pages_leave_no_english_in_georgian_or_russian(language, django_capture_on_commit_callbacks):
    from accounts.i18n_audit import untranslated_in

    running, upcoming = arena(), arena(status=Status.UPCOMING, entry_fee=25)
    tamar, _levan = two_joined(running)
    client = client_of(tamar)
    pages = {path: client.get(f"/{language}{path}").content.decode() for path in (
        "/tournaments/", f"/tournaments/{running.pk}/", f"/tournaments/{upcoming.pk}/", "/")}
    with django_capture_on_commit_callbacks(execute=True):
        levan_resigns()
    Tournament.objects.filter(pk=running.pk).update(status=Status.FINISHED)
    pages["final"] = client.get(f"/{language}/tournaments/{running.pk}/").content.decode()
    assert {path: untranslated_in(page, language) for path, page in pages.items()} == {path: [] for path in pages}


@pytest.mark.django_db
def test_the_profile_counts_tournament_wins_and_podiums():
    tournament = arena()
    two_joined(tournament)
    levan_resigns()
    assert 'id="profile-tournament-counts"' not in Client().get("/en/players/tamar/").content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    winner = Client().get("/en/players/tamar/").content.decode()
    assert "1 tournament won · 1 podium" in winner and "place 1" in winner
    assert "0 tournaments won · 1 podium" in Client().get("/en/players/levan/").content.decode()
    assert "Побед в турнирах: 1" in Client().get("/ru/players/tamar/").content.decode()


@pytest.mark.parametrize("language", ["ka", "ru", "en"])
def test_the_time_left_is_one_piece_that_no_line_parts(language):
    from django.utils import translation

    from tournaments.templatetags.tournament_tags import time_left

    with translation.override(language):
        for minutes in (7, 125):
            text = time_left(timezone.now() + timedelta(minutes=minutes, seconds=-30))
            assert " " not in text and "\N{NO-BREAK SPACE}" in text, text
            assert str(minutes % 60).zfill(2 if minutes >= 60 else 1) in text
