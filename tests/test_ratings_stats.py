"""Profile figures from finished matches, the leaderboard, and where ratings are shown."""

import random
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.models import Match, Seat
from games.services import tables as table_service
from games.services.matches import resign
from games.services.presenter import public_seats
from games.services.tables import TableSettings
from ratings.leaderboard import most_improved, top_ratings
from ratings.models import MatchFigures, Rating, RatingChange
from ratings.services import MODEL, PROVISIONAL_MATCHES, shown_value
from ratings.stats import player_figures
from tests.accounts_support import client_for
from tests.factories import make_friends, make_player
from tests.replay_helpers import play_moves, seated_match


def _match_between(players, variant="japanese", **options):
    table = table_service.create_table(players[0], TableSettings(variant=variant, **options))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    return Match.objects.select_related("table").get(table=table)


def _played_to_the_end(variant, names, seed, **options):
    match, players = seated_match(variant, names, **options)
    return play_moves(match, random.Random(seed)), players


def _expected_classic(state, seat):
    """What the figures must say, read from the engine's own deal and pulka results."""
    bidding = [r for r in state.results if r.bids is not None]
    return {
        "bids": len(bidding),
        "bids_exact": sum(1 for r in bidding if r.bids[seat] == r.tricks[seat]),
        "khishti": sum(1 for r in state.results if r.khishti[seat]),
        "premiums": sum(1 for p in state.pulka_results if p.premium[seat] > 0),
    }


@pytest.mark.django_db
def test_classic_figures_add_up_the_score_sheet_of_a_finished_match():
    match, players = _played_to_the_end("classic", ("ana", "beka", "gio", "dato"), seed=11, game_type="short",
                                        rated=False)
    state = engine.state_from_record(match.record)
    ranking = state.ranking()
    for seat, player in enumerate(players):
        figures = player_figures(player)["classic"]
        expected = _expected_classic(state, seat)
        assert figures.matches == 1
        assert figures.wins == (1 if ranking[seat] == 1 else 0)
        assert figures.places[ranking[seat] - 1] == 1 and sum(figures.places) == 1
        assert figures.average_place == ranking[seat]
        assert (figures.bids, figures.bids_exact, figures.khishti, figures.premiums) == (
            expected["bids"], expected["bids_exact"], expected["khishti"], expected["premiums"])
        assert figures.bids_exact_percent == round(100 * expected["bids_exact"] / expected["bids"])
    assert sum(player_figures(p)["classic"].premiums for p in players) == sum(
        1 for pulka in state.pulka_results for value in pulka.premium if value > 0)


@pytest.mark.django_db
def test_japanese_figures_count_deals_won_and_average_the_final_difference():
    first, (tamar, levan) = _played_to_the_end("japanese", ("tamar", "levan"), seed=3, target=11, rated=False)
    # A second match between the same two players, resigned at once: no deal won, difference 0.
    resign(_match_between([tamar, levan], rated=False).pk, tamar)
    state = engine.state_from_record(first.record)
    tamar_seat = Seat.objects.get(table=first.table, player=tamar).index
    deals_won = sum(1 for r in state.results if r.tricks[tamar_seat] > r.tricks[1 - tamar_seat])
    difference = state.totals[tamar_seat] - state.totals[1 - tamar_seat]
    figures = player_figures(tamar)["japanese"]
    assert figures.matches == 2
    assert figures.wins == (1 if tamar_seat in state.winners() else 0)
    assert figures.deals_won == deals_won
    assert figures.average_difference == pytest.approx(difference / 2)


@pytest.mark.django_db
def test_a_match_finished_before_figures_were_kept_gets_them_from_its_record_once():
    match, players = _played_to_the_end("japanese", ("tamar", "levan"), seed=4, target=11, rated=False)
    kept = {f.player_id: (f.deals_won, f.difference, f.place) for f in MatchFigures.objects.filter(match=match)}
    MatchFigures.objects.all().delete()
    player_figures(players[0])
    again = {f.player_id: (f.deals_won, f.difference, f.place) for f in MatchFigures.objects.filter(match=match)}
    assert again == kept
    with CaptureQueriesContext(connection) as queries:
        player_figures(players[0])
    assert len(queries) == 2  # the check for missing figures and the one aggregate


@pytest.mark.django_db
def test_a_player_with_no_match_has_zero_figures():
    figures = player_figures(make_player("new"))
    assert figures["classic"].matches == 0 and figures["classic"].average_place is None
    assert figures["classic"].bids_exact_percent is None
    assert figures["japanese"].matches == 0 and figures["japanese"].average_difference is None


# --- Leaderboard --------------------------------------------------------------------------------

def _rated(player, variant, mu, sigma, matches):
    return Rating.objects.create(player=player, variant=variant, mu=mu, sigma=sigma, rated_matches=matches)


@pytest.mark.django_db
def test_leaderboard_orders_by_the_conservative_rating_and_needs_enough_rated_matches():
    steady, lucky, newcomer, other_game = (make_player(n) for n in ("steady", "lucky", "newcomer", "other"))
    _rated(steady, "classic", mu=30, sigma=2, matches=40)  # 30 - 6 = 24
    _rated(lucky, "classic", mu=34, sigma=4, matches=PROVISIONAL_MATCHES)  # 34 - 12 = 22: higher mu, less sure
    _rated(newcomer, "classic", mu=40, sigma=3, matches=PROVISIONAL_MATCHES - 1)
    _rated(other_game, "japanese", mu=45, sigma=1, matches=50)
    rows = top_ratings("classic")
    assert [row.player for row in rows] == [steady, lucky]
    assert [row.place for row in rows] == [1, 2]
    assert rows[0].rating.value == shown_value(30, 2) and not rows[0].rating.provisional
    assert [row.player for row in top_ratings("japanese")] == [other_game]


@pytest.mark.django_db
def test_leaderboard_shows_at_most_the_top_hundred():
    for i in range(105):
        _rated(make_player(f"p{i}"), "japanese", mu=20 + i / 10, sigma=3, matches=PROVISIONAL_MATCHES)
    rows = top_ratings("japanese")
    assert len(rows) == 100 and rows[0].player.user.username == "p104"


@pytest.mark.django_db
def test_friends_filter_keeps_the_viewer_and_their_friends_only():
    me, friend, stranger = make_player("me"), make_player("friend"), make_player("stranger")
    make_friends(me, friend)
    for player, mu in ((me, 25), (friend, 26), (stranger, 40)):
        _rated(player, "classic", mu=mu, sigma=2, matches=20)
    assert [row.player for row in top_ratings("classic", friends_of=me.user)] == [friend, me]
    assert [row.player for row in top_ratings("classic")] == [stranger, friend, me]


@pytest.mark.django_db
def test_most_improved_adds_up_this_weeks_gains_only():
    winner, loser, old_winner = make_player("winner"), make_player("loser"), make_player("old")
    for _ in range(2):
        resign(_match_between([winner, loser], rated=True).pk, loser)
    old = _match_between([old_winner, make_player("old_loser")], rated=True)
    resign(old.pk, Seat.objects.get(table=old.table, index=1).player)
    RatingChange.objects.filter(match=old).update(created_at=timezone.now() - timedelta(days=8))
    rows = most_improved("japanese")
    gains = RatingChange.objects.filter(player=winner)
    assert [row.player for row in rows] == [winner]
    assert rows[0].gain == sum(c.shown_after - c.shown_before for c in gains) > 0
    assert most_improved("japanese", friends_of=loser.user) == []


@pytest.mark.django_db
def test_leaderboard_page_per_variant_with_a_friends_filter_and_in_the_nav():
    me = make_player("me")
    _rated(me, "japanese", mu=30, sigma=2, matches=20)
    page = Client().get("/en/leaderboard/japanese/")
    html = page.content.decode()
    assert page.status_code == 200 and ">me<" in html and 'href="/en/leaderboard/"' in html
    assert "My friends" not in html  # visitors have no friends list
    assert "My friends" in client_for(me.user).get("/en/leaderboard/japanese/").content.decode()
    assert ">me<" not in Client().get("/en/leaderboard/classic/").content.decode()
    assert Client().get("/en/leaderboard/poker/").status_code == 404
    ka = Client().get("/ka/leaderboard/").content.decode()
    assert "რეიტინგის ცხრილი" in ka


# --- Where the rating is shown -------------------------------------------------------------------

@pytest.mark.django_db
def test_lobby_shows_each_waiting_player_with_their_rating_and_the_table_as_rated():
    host = make_player("host")
    _rated(host, "japanese", mu=30, sigma=2, matches=20)
    table_service.create_table(host, TableSettings(variant="japanese", rated=True))
    html = Client().get("/en/lobby/").content.decode()
    assert ">host<" in html and f">{shown_value(30, 2)}<" in html and "Rated" in html


@pytest.mark.django_db
def test_public_seats_carry_each_members_rating_and_none_for_bots():
    match, _players = seated_match("classic", ("ana",), rated=True, fill_with_bots=True)
    seats = public_seats(match.table)
    assert seats[0]["rating"] == {"value": shown_value(MODEL.mu, MODEL.sigma), "provisional": True,
                                  "rated_matches": 0}
    assert all(seat["rating"] is None for seat in seats[1:])


@pytest.mark.django_db
def test_the_seat_ratings_come_from_the_cache_and_a_rated_end_refreshes_them(django_capture_on_commit_callbacks):
    match, (tamar, levan) = seated_match("japanese", ("tamar", "levan"), rated=True)
    before = public_seats(match.table)
    with CaptureQueriesContext(connection) as queries:
        public_seats(match.table, list(match.table.seats.select_related("player__user")))
    assert not [q for q in queries if "ratings_rating" in q["sql"]]
    with django_capture_on_commit_callbacks(execute=True):
        resign(match.pk, tamar)
    after = public_seats(match.table)
    seat_of = {p.pk: Seat.objects.get(table=match.table, player=p).index for p in (tamar, levan)}
    assert after[seat_of[levan.pk]]["rating"]["value"] > before[seat_of[levan.pk]]["rating"]["value"]
    assert after[seat_of[tamar.pk]]["rating"]["rated_matches"] == 1


@pytest.mark.django_db
def test_the_profile_shows_the_rating_figures_and_the_chart():
    match, (tamar, levan) = seated_match("japanese", ("tamar", "levan"), rated=True)
    resign(match.pk, tamar)
    html = client_for(levan.user).get("/en/accounts/profile/").content.decode()
    assert "Rating and figures" in html and '<svg class="rating-chart"' in html
    assert "1 rated match" in html
    public = Client().get("/ka/players/tamar/").content.decode()
    assert "რეიტინგი და მაჩვენებლები" in public and '<svg class="rating-chart"' in public


@pytest.mark.django_db
def test_the_chart_coordinates_are_plain_numbers_in_every_language():
    match, (tamar, _levan) = seated_match("japanese", ("tamar", "levan"), rated=True)
    resign(match.pk, tamar)
    for language in ("ru", "ka", "en"):
        html = Client().get(f"/{language}/players/levan/").content.decode()
        circle = re.search(r'<circle cx="([^"]+)" cy="([^"]+)"', html)
        assert circle and all(re.fullmatch(r"\d+\.\d", value) for value in circle.groups()), language
