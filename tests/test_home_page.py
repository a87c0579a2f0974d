"""The home page for a newcomer: play at once (Japanese with a person or a bot, classic with bots),
the open tables and the matches being played, the lesson and the rules, in the visitor's language."""

import re

import pytest

from games.models import Table, TableStatus
from games.services import tables as table_service
from games.services.tables import TableSettings
from tests.factories import make_player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "words"), [
    ("ka", ["ითამაშეთ ახლავე", "ითამაშეთ ბოტთან", "ითამაშეთ სამ ბოტთან", "მეტოქის პოვნა", "გაკვეთილის დაწყება",
            "წესების წაკითხვა", "ღია მაგიდები", "ახლა თამაშობენ"]),
    ("ru", ["Играть сейчас", "Играть с ботом", "Играть с тремя ботами", "Найти соперника", "Пройти урок",
            "Читать правила", "Открытые столы", "Сейчас играют"]),
])
def test_the_home_page_offers_play_the_tables_the_lesson_and_the_rules_in_the_visitors_language(client, language,
                                                                                              words):
    page = client.get(f"/{language}/").content.decode()
    for text in words:
        assert text in page, text
    for link in (f"/{language}/lobby/?variant=japanese", f"/{language}/lesson/", f"/{language}/rules/",
                 f"/{language}/tables/new/?variant=japanese"):
        assert f'href="{link}"' in page, link


def test_the_home_page_lists_open_tables_and_the_matches_being_played_with_their_players(client):
    waiting = table_service.create_table(make_player("tamar"), TableSettings(variant="japanese"))
    playing = table_service.create_table(make_player("levan"), TableSettings(variant="classic", fill_with_bots=True))
    hidden = table_service.create_table(make_player("nino"), TableSettings(variant="classic", fill_with_bots=True,
                                                                           visibility="friends"))
    page = client.get("/en/").content.decode()
    assert f'href="/en/tables/{waiting.pk}/"' in page
    row = re.search(rf'<tr class="running-row" data-table-id="{playing.pk}">.*?</tr>', page, re.DOTALL).group(0)
    assert re.findall(r'<span translate="no">([^<]+)</span>', row) == ["levan", "Bot 2", "Bot 3", "Bot 4"]
    assert f'href="/en/tables/{playing.pk}/"' in row
    # "Being played now" once, and no "nobody is playing" under it while a match is on.
    assert page.count("Being played now") == 1 and "Nobody is playing right now" not in page
    assert f'href="/en/tables/{hidden.pk}/"' not in page  # a friends-only match is nobody else's to watch


@pytest.mark.parametrize(("quick_start", "variant", "bots"), [("classic_bots", "classic", 3), ("japanese_bot", "japanese", 1)])
def test_one_click_on_the_home_page_starts_a_practice_match_against_bots(client, quick_start, variant, bots):
    page = client.get("/en/").content.decode()
    form = re.search(rf'<form method="post" action="/en/tables/new/" class="play-actions">((?:(?!</form>).)*'
                     rf'value="{quick_start}")', page, re.DOTALL).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    response = client.post("/en/tables/new/", fields)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/en/tables/{table.pk}/"
    assert table.variant == variant and table.status == TableStatus.PLAYING and table.stake == 0
    assert sum(seat.is_bot for seat in table.seats.all()) == bots
    assert client.get(response["Location"]).status_code == 200


def test_the_with_bots_card_starts_the_game_of_as_many_deals_as_it_promises(client):
    from games.models import Match
    from games.services.matches import load_state

    page = client.get("/en/").content.decode()
    card = re.search(r'<article class="play-card">((?:(?!</article>).)*value="classic_bots")', page, re.DOTALL).group(1)
    promised = int(re.search(r"a short game of (\d+) deals", card).group(1))
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', card))
    client.post("/en/tables/new/", fields)
    match = Match.objects.get(table=Table.objects.get())
    assert load_state(match).deal_count == promised == 12
