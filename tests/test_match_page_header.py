"""The match page's header names the deal and pulka being played, counted from 1."""

import re

import pytest
from django.test import Client

from games.services.matches import load_state
from tests.factories import PASSWORD
from tests.replay_helpers import finished_match, seated_match

pytestmark = pytest.mark.django_db


def page_of(match, player):
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client.get(f"/en/tables/{match.table_id}/").content.decode()


def deal_info(page):
    return re.sub(r"\s+", " ", re.search(r'<div class="deal-info">(.*?)</div>', page, re.S).group(1)).strip()


def test_the_first_deal_of_a_classic_game_is_deal_1_of_pulka_1():
    match, players = seated_match("classic", ("tamar", "levan", "nino", "giorgi"), game_type="standard")
    assert deal_info(page_of(match, players[0])) == "Deal 1 of 24 · 1 card · pulka 1"


def test_a_finished_match_names_the_last_deal_played_not_the_next():
    match, players = finished_match("japanese", ("tamar", "levan"), target=11)
    deals_played = len(load_state(match).view(0)["score_sheet"]["deals"])
    assert deal_info(page_of(match, players[0])) == f"Deal {deals_played} · match to 11"
