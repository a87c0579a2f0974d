"""A player's past matches: games played and won on the profile (the `games.stats`
hook), the match list with replay and record links, and who may see which match."""

import random
import re

import pytest
from django.test import Client

from accounts.players import GUEST_SESSION_KEY
from games.models import Match, MatchStatus, Visibility
from games.services import tables as table_service
from games.services.matches import abort, resign
from games.services.tables import TableSettings
from games.stats import player_stats, results_for_player
from tests.factories import make_friends, make_guest, make_player
from tests.replay_helpers import fresh, play_moves, seated_match

pytestmark = pytest.mark.django_db


def resigned(players, loser_index, variant="japanese", visibility=Visibility.OPEN):
    """A Japanese match between `players` that the player at `loser_index` resigns."""
    # Casual: some of these matches seat a guest, and guests may not sit at a rated table.
    table = table_service.create_table(players[0], TableSettings(variant=variant, visibility=visibility, rated=False))
    for p in players[1:]:
        table_service.sit(table.pk, p)
    match = Match.objects.get(table=table)
    resign(match.pk, players[loser_index])
    return fresh(match)


def logged_in(player):
    client = Client()
    client.force_login(player.user)
    return client


def test_results_count_finished_matches_and_wins_per_variant():
    ana, levan = make_player("ana"), make_player("levan")
    resigned([ana, levan], loser_index=1)
    resigned([ana, levan], loser_index=0)
    resigned([levan, ana], loser_index=0)
    assert results_for_player(ana) == {"japanese": (3, 2)}
    assert results_for_player(levan) == {"japanese": (3, 1)}


def test_aborted_and_running_matches_are_not_counted():
    ana, levan = make_player("ana"), make_player("levan")
    running, _ = seated_match("japanese", ("nika", "dato"))
    stopped, (nino, *_rest) = seated_match("classic", ("nino", "eka", "zura", "lika"), game_type="short")
    assert abort(stopped.pk, "test")
    assert results_for_player(nino) == {}
    assert results_for_player(running.table.creator) == {}
    assert results_for_player(ana) == results_for_player(levan) == {}


def test_profile_shows_games_played_and_won_from_the_games_app():
    ana, levan = make_player("ana"), make_player("levan")
    resigned([ana, levan], loser_index=1)
    stats = {row.variant: (row.played, row.won) for row in player_stats(ana)}
    assert stats == {"classic": (0, 0), "japanese": (1, 1)}
    page = logged_in(ana).get("/en/accounts/profile/").content.decode()
    row = re.search(r"<tr><th scope=\"row\">Japanese Joker</th><td>(\d+)</td><td>(\d+)</td></tr>", page)
    assert row.groups() == ("1", "1")


def test_profile_lists_recent_matches_with_replay_and_record_links():
    ana, levan = make_player("ana"), make_player("levan")
    match = resigned([ana, levan], loser_index=0)
    page = logged_in(ana).get("/en/accounts/profile/").content.decode()
    assert "Recent matches" in page
    assert f'href="/en/tables/{match.table_id}/replay/"' in page
    assert f'href="/en/tables/{match.table_id}/record.json" download' in page
    assert "Resigned" in page and "Lost" not in page and "levan" in page  # resigned, said as such
    public = Client().get("/en/players/ana/").content.decode()
    assert f'href="/en/tables/{match.table_id}/replay/"' in public


def test_match_list_is_newest_first_and_a_running_match_links_its_table_not_a_replay():
    ana, levan = make_player("ana"), make_player("levan")
    older = resigned([ana, levan], loser_index=1)
    table = table_service.create_table(ana, TableSettings(variant="japanese"))
    table_service.sit(table.pk, levan)
    running = play_moves(Match.objects.get(table=table), random.Random(1), moves=2)
    assert running.status == MatchStatus.RUNNING
    page = logged_in(ana).get("/en/matches/").content.decode()
    assert page.index(f"/en/tables/{running.table_id}/") < page.index(f"/en/tables/{older.table_id}/replay/")
    assert f"/en/tables/{running.table_id}/replay/" not in page
    assert "Playing now" in page and "Won" in page


def test_a_guest_sees_their_own_matches():
    guest, levan = make_guest(), make_player("levan")
    match = resigned([levan, guest], loser_index=0)
    client = Client()
    session = client.session
    session[GUEST_SESSION_KEY] = guest.pk
    session.save()
    page = client.get("/en/matches/").content.decode()
    assert f"/en/tables/{match.table_id}/replay/" in page and "Won" in page


def test_a_visitor_without_matches_gets_a_friendly_empty_list():
    page = Client().get("/en/matches/").content.decode()
    assert "You have not played a match yet." in page


def test_friends_only_matches_are_listed_only_to_those_who_may_see_the_table():
    host, friend, stranger = make_player("host"), make_player("friend"), make_player("stranger")
    make_friends(host, friend)
    private = resigned([host, friend], loser_index=1, visibility=Visibility.FRIENDS)
    public = resigned([host, friend], loser_index=0)
    replay = "/en/tables/{}/replay/"
    seen_by_stranger = logged_in(stranger).get("/en/players/host/matches/").content.decode()
    assert replay.format(public.table_id) in seen_by_stranger
    assert replay.format(private.table_id) not in seen_by_stranger
    seen_by_anonymous = Client().get("/en/players/friend/matches/").content.decode()
    assert replay.format(private.table_id) not in seen_by_anonymous
    seen_by_friend = logged_in(friend).get("/en/players/host/matches/").content.decode()
    assert replay.format(private.table_id) in seen_by_friend
    assert replay.format(private.table_id) in logged_in(host).get("/en/matches/").content.decode()


def test_unknown_player_match_list_is_not_found():
    assert Client().get("/en/players/nobody-here/matches/").status_code == 404


def test_match_list_reads_in_georgian_and_russian():
    ana, levan = make_player("ana"), make_player("levan")
    resigned([ana, levan], loser_index=1)
    ka = logged_in(ana).get("/ka/matches/").content.decode()
    ru = logged_in(ana).get("/ru/matches/").content.decode()
    assert "თქვენი პარტიები" in ka and "მოგება" in ka
    assert "Ваши партии" in ru and "Победа" in ru


@pytest.mark.parametrize(("language", "words"), [("en", ("Resigned", "Walked out")), ("ru", ("Матч сдан", "Матч брошен")),
                                                 ("ka", ("დანებება", "მატჩის მიტოვება"))])
def test_the_history_tells_a_resigned_match_from_one_walked_out_of(language, words):
    from tests.factories import walk_out_of

    ana, levan, nino = make_player("ana"), make_player("levan"), make_player("nino")
    resigned([ana, levan], loser_index=0)
    table = table_service.create_table(nino, TableSettings(variant="japanese", rated=False))
    table_service.sit(table.pk, ana)
    walk_out_of(Match.objects.get(table=table).pk, ana)
    page = logged_in(ana).get(f"/{language}/matches/").content.decode()
    cells = re.findall(r'<td role="cell" class="result result-([a-z_]+)">([^<]+)</td>', page)
    assert cells == [("walked_out", words[1]), ("resigned", words[0])]
