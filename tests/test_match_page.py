"""What the match page shows around the cards: the deal and pulka counted from 1, the trick just taken."""

import html
import random
import re

import pytest
from django.test import Client

from games.services.matches import load_state
from tests.factories import PASSWORD
from tests.replay_helpers import finished_match, play_moves, seated_match

pytestmark = pytest.mark.django_db


def page_of(match, player):
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client.get(f"/en/tables/{match.table_id}/").content.decode()


def deal_info(page):
    text = re.sub(r"<[^>]+>", "", re.search(r'<div class="deal-info"[^>]*>(.*?)</div>', page, re.DOTALL).group(1))
    return re.sub(r"\s+", " ", text).strip()


def deal_info_on_a_phone(page):
    """What a phone shows instead of the words (static/css/table.css)."""
    return re.search(r'<div class="deal-info" data-short="([^"]*)"', page).group(1)


def test_the_first_deal_of_a_classic_game_is_deal_1_of_pulka_1():
    match, players = seated_match("classic", ("tamar", "levan", "nino", "giorgi"), game_type="standard")
    page = page_of(match, players[0])
    assert deal_info(page) == "Deal 1 of 24 · 1 card · pulka 1"
    assert deal_info_on_a_phone(page) == "№1/24"


def test_a_finished_match_names_the_last_deal_played_not_the_next():
    match, players = finished_match("japanese", ("tamar", "levan"), target=11)
    deals_played = len(load_state(match).view(0)["score_sheet"]["deals"])
    page = page_of(match, players[0])
    assert deal_info(page) == f"Deal {deals_played} · match to 11"
    assert deal_info_on_a_phone(page) == f"№{deals_played}"  # the target is in the score sheet


def test_japanese_columns_and_their_labels_appear_once_trump_is_chosen():
    match, players = seated_match("japanese", ("tamar", "levan"))
    assert load_state(match).phase.value == "trump"
    page = page_of(match, players[0])
    assert '<section class="columns' not in page and "Your columns" not in page  # not dealt yet

    match = play_moves(match, random.Random(1), moves=1)  # the declarer's choice
    page = page_of(match, players[0])
    owners = [html.unescape(o) for o in re.findall(r'<p class="columns-owner"[^>]*>(.*?)</p>', page)]
    assert owners == ["levan's columns", "Your columns"]
    assert page.count('<div class="column">') == 10


def test_the_trick_just_taken_stays_open_with_its_taker_until_the_next_card():
    match, players = seated_match("japanese", ("tamar", "levan"))
    rng = random.Random(7)
    view = load_state(match).view(0)
    while not (view["last_trick"] and not view["trick"]):
        match = play_moves(match, rng, moves=1)
        view = load_state(match).view(0)
    taker = ["tamar", "levan"][view["last_trick"]["winner"]]
    page = page_of(match, players[0])
    assert '<details class="last-trick" open>' in page and f"taken by {taker}" in page

    match = play_moves(match, rng, moves=1)  # the next trick's first card
    assert '<details class="last-trick">' in page_of(match, players[0])


def test_practice_bots_are_told_apart_by_their_seats_at_the_table_and_on_the_score_sheet():
    from games.models import Match
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from tests.factories import make_player

    person = make_player("tamar")
    table = table_service.create_table(person, TableSettings(variant="classic", fill_with_bots=True))
    page = page_of(Match.objects.get(table=table), person)
    names = re.findall(r'<div class="player-name"><span class="seat-name">(.*?)</div>', page, re.DOTALL)
    # The others around the table in play order (left, across, right), then my own seat at the bottom.
    # A bot's level beside its name, in a span a phone's side seat puts on a line of its own (the
    # score sheet's narrow columns keep the name alone).
    names = [re.sub(r'<span class="bot-level">(.*?)</span>', r"\1", name) for name in names]
    assert [re.sub(r"<.*", "", name).strip() for name in names] == [
        "Bot 2\u00a0· Club", "Bot 3\u00a0· Club", "Bot 4\u00a0· Club", "tamar"]
    sheet_header = re.search(r'<table class="sheet">\s*<thead>(.*?)</thead>', page, re.DOTALL).group(1)
    assert re.findall(r'class="sheet-player[^"]*"><span translate="no">(.*?)</span>', sheet_header) == [
        "tamar", "Bot 2", "Bot 3", "Bot 4"]
