"""The end of a match on the match page: places 1–4 or the winner, final totals, the Domino Coin
each player won or lost as the coin ledger has it, and the rematch, replay and record links."""

import random
import re

import pytest
from django.test import Client

from coins import services as coins
from games.services.matches import abort, load_state
from tests.factories import PASSWORD
from tests.replay_helpers import finished_match, fresh, play_moves, seated_match

pytestmark = pytest.mark.django_db


def match_page(match, player, language="en"):
    """The match page as the player sees it."""
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client.get(f"/{language}/tables/{match.table_id}/").content.decode()


def end_screen(match, player, language="en"):
    page = match_page(match, player, language)
    found = re.search(r'<section class="match-end".*?</section>', page, re.DOTALL)
    return found.group(0) if found else None


def standings_rows(screen):
    rows = re.findall(r'<td class="place">(?:<span[^>]*>[^<]*</span>)?(\d)</td>\s*<th scope="row"><span translate="no">'
                      r'([^<]+)</span>.*?<td class="score">(-?\d+)</td>(?:\s*<td class="coins[^"]*">([^<]+)</td>)?',
                      screen, re.DOTALL)
    return [(int(place), name, int(total), coins) for place, name, total, coins in rows]


def test_a_classic_end_screen_lists_all_four_places_with_the_engines_ranking_and_totals():
    names = ("tamar", "levan", "nino", "giorgi")
    match, players = finished_match("classic", names, game_type="short")
    view = load_state(match).view(0)
    rows = standings_rows(end_screen(match, players[0]))
    assert len(rows) == 4
    assert sorted(rows) == sorted((view["ranking"][s], names[s], view["totals"][s], "") for s in range(4))
    assert [place for place, *_ in rows] == sorted(view["ranking"])


def test_the_end_screen_links_the_replay_and_the_record_and_offers_a_rematch():
    match, players = finished_match("japanese", ("tamar", "levan"), target=11)
    screen = end_screen(match, players[1], language="ru")
    assert f'href="/ru/tables/{match.table_id}/replay/"' in screen and "Смотреть повтор" in screen
    assert f'href="/ru/tables/{match.table_id}/record.json" download' in screen
    assert f'hx-post="/ru/tables/{match.table_id}/rematch/"' in screen


def test_a_finished_match_page_has_no_empty_hand_above_the_end_screen():
    # Every card has been played: an empty "Your hand" group was read out to screen readers
    # and left a strip of empty felt between the player's seat and the end screen on a phone.
    for variant, names, settings in (("japanese", ("tamar", "levan"), {"target": 11}),
                                     ("classic", ("ana", "dato", "eka", "gela"), {"game_type": "short"})):
        match, players = finished_match(variant, names, **settings)
        page = match_page(match, players[0])
        assert '<section class="match-end"' in page, variant
        assert 'class="hand' not in page and 'aria-label="Your hand"' not in page, variant


def test_a_coin_match_shows_what_each_player_won_or_lost_as_the_ledger_moved_it():
    match, players = seated_match("japanese", ("tamar", "levan"), target=11, stake=50)
    before = [coins.balance_of(p.user) + 50 for p in players]  # their balances before the stake left
    match = play_moves(match, random.Random(3))
    won = [coins.balance_of(p.user) - b for p, b in zip(players, before)]
    assert sorted(won) == [-50, 50]
    winner = won.index(50)
    screen = end_screen(match, players[winner])
    by_name = {name: coins_text for _place, name, _total, coins_text in standings_rows(screen)}
    assert by_name == {"tamar": f"{won[0]:+d}", "levan": f"{won[1]:+d}"}
    assert "You won 50 Domino Coin." in screen
    assert "You lost 50 Domino Coin." in end_screen(match, players[1 - winner])


def test_an_aborted_match_names_no_places_and_says_the_stakes_went_back():
    match, players = seated_match("japanese", ("tamar", "levan"), stake=25)
    assert abort(match.pk, "test")
    screen = end_screen(fresh(match), players[0])
    assert standings_rows(screen) == []
    assert "every stake has been returned" in screen
    assert "Your stake came back" in screen


def test_the_header_after_a_cut_short_match_names_the_deal_that_was_being_played():
    match, _players = seated_match("classic", ("tamar", "levan", "nino", "giorgi"), game_type="short")
    rng = random.Random(4)
    while len(load_state(fresh(match)).score_sheet()["deals"]) < 2:  # deals 1 and 2 scored, deal 3 in play
        match = play_moves(match, rng, moves=1)
    assert abort(match.pk, "test")
    client = Client()
    assert client.login(username="tamar", password=PASSWORD)
    page = client.get(f"/en/tables/{match.table_id}/").content.decode()
    info = re.search(r'<div class="deal-info"[^>]*>(.*?)</div>', page, re.DOTALL).group(1)
    info = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", info))
    assert info.startswith("Deal 3 of 12")


def test_a_japanese_player_who_resigned_is_said_to_have_resigned_not_to_have_left():
    from games.services.matches import resign

    match, players = seated_match("japanese", ("tamar", "levan"), target=11)
    resign(match.pk, players[0])
    match = fresh(match)
    screen = end_screen(match, players[1])
    assert re.search(r'tamar</span> <small>\(resigned\)</small>', screen), screen
    assert "(walked out)" not in screen
    assert "(დანებდა)" in end_screen(match, players[1], "ka")


def test_a_japanese_player_whose_grace_ran_out_is_said_to_have_walked_out():
    from tests.factories import walk_out_of

    match, players = seated_match("japanese", ("tamar", "levan"), target=11)
    walk_out_of(match.pk, players[0])
    screen = end_screen(fresh(match), players[1])
    assert re.search(r'tamar</span> <small>\(walked out\)</small>', screen), screen
    assert "(resigned)" not in screen
    assert "(партия брошена)" in end_screen(fresh(match), players[1], "ru")


def test_classic_leavers_are_told_apart_resigned_or_walked_out_by_the_one_rule():
    from games.models import Seat
    from games.services.matches import resign
    from games.services.results import RESIGNED, WALKED_OUT, how_left
    from tests.factories import walk_out_of

    match, players = seated_match("classic", ("tamar", "levan", "nino", "gio"))
    walk_out_of(match.pk, players[0])  # her page closed, the grace ran out: a bot plays on
    resign(match.pk, players[1])  # "Leave the table"
    seats = {seat.player_id: how_left(seat) for seat in Seat.objects.filter(table_id=match.table_id)}
    assert [seats[player.pk] for player in players] == [WALKED_OUT, RESIGNED, None, None]
