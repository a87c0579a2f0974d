"""What issue 15 found on the way: each fix, proved on the page a person sees."""

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from games.models import Match
from games.services import tables as table_service
from games.services.tables import TableSettings
from moderation.bans import refusal_message
from moderation.models import Ban
from moderation.services import close_table
from tests.factories import PASSWORD, make_friends, make_guest, make_player
from tests.live_clients import connect
from tests.moderation_support import make_moderator, moderator_client

db = pytest.mark.django_db

# Mtavruli, the all-capitals Georgian script Python's str.upper() turns Mkhedruli into.
MTAVRULI = re.compile("[\u1c90-\u1cbf]")


def logged_in(player, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.login(username=player.user.username, password=PASSWORD)
    return client


@db
@pytest.mark.parametrize(("language", "link", "adjective"), [("ru", "Открыть", "Открытый"), ("ka", "გახსნა", "ღია")])
def test_the_lobbys_link_says_open_the_table_while_the_form_keeps_the_adjective(client, language, link, adjective):
    table_service.create_table(make_player("tamar"), TableSettings(variant="japanese"))
    lobby = client.get(f"/{language}/lobby/").content.decode()
    assert re.search(rf'<td class="open-table"><a href="[^"]+">{link}</a></td>', lobby)
    form = client.get(f"/{language}/tables/new/?variant=japanese").content.decode()
    assert re.search(rf'<option value="open"[^>]*>{adjective}</option>', form)


@db
@pytest.mark.parametrize(("language", "bot"), [("ru", "Бот"), ("ka", "ბოტი"), ("en", "Bot")])
def test_a_replay_numbers_the_practice_bots_by_seat_in_the_pages_language(language, bot):
    person = make_player("tamar")
    table = table_service.create_table(person, TableSettings(variant="classic", game_type="short", fill_with_bots=True))
    match = Match.objects.get(table=table)
    assert len(set(match.record["players"][1:])) == 1  # the record gives the three bots one name
    from games.services.matches import abort
    abort(match.pk, "test")  # the replay opens once the match is over
    page = Client().get(f"/{language}/tables/{table.pk}/replay/").content.decode()
    names = re.findall(r'<div class="seat-name"><span translate="no">([^<]+)</span>', page)
    assert names == ["tamar", f"{bot} 2", f"{bot} 3", f"{bot} 4"]


@db
def test_georgian_form_labels_keep_their_ordinary_letters():
    page = logged_in(make_player("nino"), "ka").get("/ka/accounts/profile/").content.decode()
    assert "საჩვენებელი სახელი" in page and "სასურველი ენა" in page
    assert not MTAVRULI.search(page), MTAVRULI.findall(page)
    russian = logged_in(make_player("olga"), "ru").get("/ru/accounts/profile/").content.decode()
    assert "Отображаемое имя" in russian  # other scripts still get their capital


@db
def test_the_coin_history_says_why_a_stake_came_back_in_the_pages_language():
    tamar = make_player("tamar")
    table = table_service.create_table(tamar, TableSettings(variant="japanese", stake=50))
    close_table(table.pk, "Spam table.", make_moderator())
    client = logged_in(tamar, "ru")
    russian = client.get("/ru/coins/").content.decode()
    assert "стол закрыт администрацией сайта" in russian and "table closed by the site staff" not in russian
    assert "მაგიდა საიტის ადმინისტრაციამ დახურა" in client.get("/ka/coins/").content.decode()


@db
def test_the_admin_says_matches_and_has_one_accounts_section():
    client, _moderator = moderator_client()
    from django.contrib.auth import get_user_model
    get_user_model().objects.filter(username="moderator").update(is_superuser=True)
    index = client.get("/admin/").content.decode()
    assert "Matches" in index and "Matchs" not in index
    sections = re.findall(r'<caption>\s*<a[^>]*>([^<]+)</a>', index)
    assert sections.count("Accounts") == 1 and "Players and friends" in sections, sections


@db
@pytest.mark.parametrize("language", ["en", "ru", "ka"])
def test_the_ban_sentence_ends_with_one_full_stop(language):
    from django.utils import translation
    user = make_player("nino").user
    ban = Ban.objects.create(user=user, until=timezone.now() + timedelta(days=3), reason="x",
                             created_by=make_moderator())
    with translation.override(language):
        message = refusal_message(ban)
    assert message.endswith(".") and not message.endswith("..") and ".." not in message
    assert re.search(r"\d\d:\d\d", message)


@db
def test_a_non_friend_opening_a_friends_only_table_is_told_why():
    host = make_player("tamar")
    table = table_service.create_table(host, TableSettings(variant="japanese", visibility="friends"))
    stranger = logged_in(make_player("levan"), "ru")
    response = stranger.get(f"/ru/tables/{table.pk}/")
    assert response.status_code == 403
    page = response.content.decode()
    assert "Открыть этот стол могут только друзья игрока tamar." in page and "/ru/lobby/" in page
    guest = Client()
    guest_page = guest.get(f"/en/tables/{table.pk}/").content.decode()
    assert "Friends-only tables are for members" in guest_page and "/en/accounts/login/" in guest_page
    friend = make_player("nino")
    make_friends(host, friend)
    assert logged_in(friend).get(f"/en/tables/{table.pk}/").status_code == 200


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_creator_waiting_at_a_table_is_told_live_when_staff_close_it():
    tamar = await sync_to_async(make_player)("tamar")
    table = await sync_to_async(table_service.create_table)(tamar, TableSettings(variant="japanese"))
    waiting = await connect(table.pk, tamar, language="ru")
    try:
        await waiting.receive_from(timeout=10)  # the seat list as it is
        moderator = await sync_to_async(make_moderator)()
        await sync_to_async(close_table)(table.pk, "Spam table.", moderator)
        frame = await waiting.receive_from(timeout=10)
        assert 'id="waiting-room" hx-swap-oob="innerHTML"' in frame
        assert "Этот стол закрыт: партия за ним не состоится." in frame
    finally:
        await waiting.disconnect()


@db
def test_a_japanese_practice_table_seats_a_bot_who_plays_the_match_to_its_end():
    import random

    from tests.replay_helpers import fresh, play_moves
    person = make_guest()
    table = table_service.create_table(person, TableSettings(variant="japanese", target=11, fill_with_bots=True))
    match = Match.objects.get(table=table)
    assert [s.is_bot for s in table.seats.order_by("index")] == [False, True]
    match = play_moves(match, random.Random(9))  # the person's moves; the bot answers inside each
    assert fresh(match).status == "finished" and fresh(match).winners
