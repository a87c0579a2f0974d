"""The Swiss's pages (tournaments/swiss_views.py, templates/tournaments/swiss.html): the list shows
a Swiss with its rounds, its page the round being played, the pairings (each match to watch,
each finished one's replay), who sat out, the standings with the tie-breaks, and joining by
the page's button; late joining closes at half the rounds; no English is left in ka or ru."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import live
from games.models import Match
from tests.factories import PASSWORD, make_player
from tournaments import services, swiss_services
from tournaments.models import ArenaGame, Kind, Participant, Status, Tournament

pytestmark = pytest.mark.django_db


def a_swiss(variant="japanese", rounds=3, name="Saturday Swiss", **fields):
    return Tournament.objects.create(name=name, kind=Kind.SWISS, variant=variant, rounds=rounds, rated=False,
                                     starts_at=timezone.now() + timedelta(hours=1), **fields)


def client_of(player):
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


def started_with_three(tournament):
    """tamar, levan and nino joined; the Swiss started: tamar–levan play, nino sits out."""
    players = [make_player(name) for name in ("tamar", "levan", "nino")]
    for player in players:
        services.join(player, tournament)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    swiss_services.tick()
    tournament.refresh_from_db()
    return players


def test_the_list_shows_a_swiss_with_its_rounds_and_the_round_being_played():
    upcoming, running = a_swiss(rounds=5, name="Coming Swiss"), a_swiss(name="Running Swiss")
    started_with_three(running)
    page = Client().get("/en/tournaments/").content.decode()
    assert "Coming Swiss" in page and "Swiss · 5\N{NO-BREAK SPACE}rounds" in page
    assert "Round 1 of 3" in page
    assert "Тур 1 из 3" in Client().get("/ru/tournaments/").content.decode()
    assert upcoming.pk


def test_joining_from_the_page_and_the_page_shows_the_round_the_pairings_the_bye_and_the_tie_breaks(
        django_capture_on_commit_callbacks):
    tournament = a_swiss()
    first = make_player("first")
    response = client_of(first).post(f"/en/tournaments/{tournament.pk}/join/")
    assert response.status_code == 302 and Participant.objects.filter(player=first).exists()
    assert "Leave the Swiss" in client_of(first).get(f"/en/tournaments/{tournament.pk}/").content.decode()
    client_of(first).post(f"/en/tournaments/{tournament.pk}/leave/")  # and out again: not paired
    tamar, levan, nino = started_with_three(tournament)
    page = client_of(tamar).get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert "Round 1 of 3" in page and 'id="swiss-round-1"' in page
    game = ArenaGame.objects.get(tournament=tournament, round=1)
    seated = next(p.player for p in game.players.all())
    assert f'href="/en/tables/{game.table_id}/"><strong>Your table' in client_of(seated).get(
        f"/en/tournaments/{tournament.pk}/").content.decode()  # a player's own match is theirs to play
    assert f'href="/en/tables/{game.table_id}/">Watch' in Client().get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert Client().get(f"/en/tables/{game.table_id}/").status_code == 200  # anyone may watch (public cards)
    assert "sits out: 2 points" in page
    assert "Leave the Swiss" in page and "Opponents" in page and "Beaten" in page
    loser = game.players.order_by("-pk").first().player
    with django_capture_on_commit_callbacks(execute=True):
        live.submit(Match.objects.get(table_id=game.table_id).pk, loser, live.Resign())
    Participant.objects.update(seen_at=timezone.now())
    swiss_services.tick()
    live_part = Client().get(f"/en/tournaments/{tournament.pk}/live/").content.decode()
    assert "Round 2 of 3" in live_part and "Earlier rounds" in live_part
    assert f'href="/en/tables/{game.table_id}/replay/">Replay' in live_part
    winner = ({tamar, levan} - {loser}).pop()
    second = ArenaGame.objects.get(tournament=tournament, round=2)
    assert {p.player for p in second.players.all()} == {winner, nino}  # the loser, lowest, sits out round 2
    assert 'id="swiss-round-2"' in live_part and "sits out: 2 points" in live_part.split('id="swiss-round-1"')[0]


def test_a_late_player_sees_the_join_button_until_half_the_rounds_and_then_why_not():
    tournament = a_swiss(rounds=2)
    started_with_three(tournament)
    late = make_player("late")
    assert "Join the Swiss" in client_of(late).get(f"/en/tournaments/{tournament.pk}/").content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(current_round=2)
    page = client_of(late).get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert "Join the Swiss" not in page and "half of the rounds have been played" in page
    refused = client_of(late).post(f"/en/tournaments/{tournament.pk}/join/", follow=True).content.decode()
    assert "It is too late to join" in refused and not Participant.objects.filter(player=late).exists()


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_swiss_pages_leave_no_english_in_georgian_or_russian(language, django_capture_on_commit_callbacks):
    from accounts.i18n_audit import untranslated_in

    japanese = a_swiss(entry_fee=25, name="Saturday Japanese Swiss")
    classic = a_swiss(variant="classic", rounds=1, name="Saturday classic Swiss")
    tamar = started_with_three(japanese)[0]
    client = client_of(tamar)
    pages = {path: client.get(f"/{language}{path}").content.decode() for path in (
        "/tournaments/", f"/tournaments/{japanese.pk}/", f"/tournaments/{classic.pk}/")}
    game = ArenaGame.objects.get(tournament=japanese, round=1)
    with django_capture_on_commit_callbacks(execute=True):
        live.submit(Match.objects.get(table_id=game.table_id).pk, game.players.order_by("-pk").first().player,
                    live.Resign())
    Tournament.objects.filter(pk=japanese.pk).update(status=Status.FINISHED)
    pages["final"] = client.get(f"/{language}/tournaments/{japanese.pk}/").content.decode()
    assert {path: untranslated_in(page, language) for path, page in pages.items()} == {path: [] for path in pages}
