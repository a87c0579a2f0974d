"""The tournament chat (docs/chat.md "A tournament's chat"): the chat's own services for a place
("tournament:<id>"): the tournament's players write, everyone reads; the word filter, the staff
mute, the flood limits and the reports are the table chat's; live over its page's socket."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from chat import services
from chat.models import ChatMessage, ChatReport
from chat.services import ChatRefusal
from joker_site.asgi import application
from moderation.models import Mute
from tests.factories import PASSWORD, make_guest, make_player
from tests.live_clients import session_cookie_for
from tournaments import services as tournaments
from tournaments.models import Participant, ParticipantStatus, Status, Tournament


def arena():
    return Tournament.objects.create(name="Evening arena", variant="japanese", minutes=60, rated=False,
                                     starts_at=timezone.now() + timedelta(minutes=5), status=Status.UPCOMING)


def place_of(tournament):
    return f"tournament:{tournament.pk}"


def refused(code, call, *args):
    before = ChatMessage.objects.count(), ChatReport.objects.count()
    with pytest.raises(ChatRefusal) as caught:
        call(*args)
    assert caught.value.code == code, caught.value.message
    assert code in services.REFUSAL_CODES
    assert (ChatMessage.objects.count(), ChatReport.objects.count()) == before, "a refusal changed something"


@pytest.mark.django_db
def test_the_tournaments_players_write_and_everyone_else_reads_only():
    tournament = arena()
    tamar, levan, outsider = make_player("tamar"), make_player("levan"), make_player("nino")
    for player in (tamar, levan):
        tournaments.join(player, tournament)
    place = place_of(tournament)
    said = services.post_in_place(place, tamar, text="Good luck everyone")
    services.post_in_place(place, levan, phrase="good_luck")
    refused("not_a_participant", services.post_in_place, place, outsider, None, "let me in")
    refused("not_a_participant", services.post_in_place, place, make_guest(), "hello", None)
    refused("no_such_place", services.post_in_place, "tournament:999999", tamar, None, "hello")
    refused("no_such_place", services.post_in_place, "poker:1", tamar, None, "hello")
    assert [m.pk for m in services.place_history(place, outsider)] == [said.pk, said.pk + 1]
    assert len(services.place_history(place, None)) == 2  # a visitor reads too
    Participant.objects.filter(player=levan).update(status=ParticipantStatus.REMOVED)
    refused("not_a_participant", services.post_in_place, place, levan, None, "still here")


@pytest.mark.django_db
def test_the_word_filter_the_mute_the_flood_limit_and_reports_are_the_table_chats(settings):
    settings.CHAT_BURST_MESSAGES, settings.CHAT_BURST_SECONDS, settings.CHAT_MINUTE_MESSAGES = 3, 5, 12
    tournament = arena()
    tamar, levan, reader = make_player("tamar"), make_player("levan"), make_player("nino")
    for player in (tamar, levan):
        tournaments.join(player, tournament)
    place = place_of(tournament)
    caught = services.post_in_place(place, levan, None, "сука")
    assert caught.filtered and caught.pk not in [m.pk for m in services.place_history(place, reader)]
    assert caught.pk in [m.pk for m in services.place_history(place, levan)]  # its author alone sees it
    for phrase in ("hello", "good_luck", "thanks"):
        services.post_in_place(place, tamar, phrase, None)
    refused("too_fast", services.post_in_place, place, tamar, "sorry", None)
    Mute.objects.create(player=levan, until=timezone.now() + timedelta(hours=1), reason="rude")
    refused("muted", services.post_in_place, place, levan, "hello", None)
    hello = ChatMessage.objects.get(place=place, phrase="hello")
    report = services.report(hello.pk, reader)  # a reader who is not playing may report
    assert report.message_id == hello.pk
    refused("already_reported", services.report, hello.pk, reader)
    refused("no_such_message", services.report, caught.pk, reader)
    assert [m.pk for m in services.context_of(hello)][:2] == [caught.pk, hello.pk]


@pytest.mark.django_db
def test_the_tournament_page_shows_the_chat_with_its_form_only_to_its_players():
    tournament = arena()
    tamar, outsider = make_player("tamar"), make_player("nino")
    tournaments.join(tamar, tournament)
    services.post_in_place(place_of(tournament), tamar, None, "See you at 21:00")
    pages = {}
    for player in (tamar, outsider):
        client = Client()
        assert client.login(username=player.user.username, password=PASSWORD)
        pages[player.pk] = client.get(f"/en/tournaments/{tournament.pk}/").content.decode()
    for page in pages.values():
        assert "Tournament chat" in page and "See you at 21:00" in page
        assert f'ws-connect="/ws/chat/tournament/{tournament.pk}/?lang=en"' in page
    assert 'id="chat-text"' in pages[tamar.pk] and 'id="chat-text"' not in pages[outsider.pk]
    assert "Join the tournament to write here." in pages[outsider.pk]


async def open_chat(tournament, player, language):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if player is not None:
        headers.append((b"cookie", (await sync_to_async(session_cookie_for)(player)).encode()))
    socket = WebsocketCommunicator(application, f"/ws/chat/tournament/{tournament.pk}/?lang={language}",
                                   headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_on_the_pages_socket_a_player_sends_and_every_reader_sees_it_in_their_language():
    tournament = await sync_to_async(arena)()
    tamar, levan = await sync_to_async(make_player)("tamar"), await sync_to_async(make_player)("levan")
    await sync_to_async(tournaments.join)(tamar, tournament)
    player = await open_chat(tournament, tamar, "ka")
    watcher = await open_chat(tournament, levan, "ru")
    visitor = await open_chat(tournament, None, "en")
    try:
        await player.send_to(text_data=json.dumps({"type": "chat", "phrase": "good_luck", "HEADERS": {}}))
        own = await player.receive_from()
        assert 'data-chat="add"' in own and "წარმატებები!" in own and 'data-mine="1"' in own
        assert "Удачи!" in await watcher.receive_from() and "Good luck!" in await visitor.receive_from()
        await watcher.send_to(text_data=json.dumps({"type": "chat", "text": "I only watch"}))
        answer = await watcher.receive_from()
        assert 'data-chat="refused"' in answer and 'data-code="not_a_participant"' in answer
        await visitor.send_to(text_data="not json")
        assert 'data-code="bad_chat"' in await visitor.receive_from()
        assert await player.receive_nothing(timeout=0.3)
        assert await sync_to_async(ChatMessage.objects.count)() == 1
    finally:
        for socket in (player, watcher, visitor):
            await socket.disconnect()
    late = await open_chat(tournament, None, "ru")  # what was said before the socket opened comes with it
    try:
        history = await late.receive_from()
        assert 'data-chat="history"' in history and "Удачи!" in history
    finally:
        await late.disconnect()


@pytest.mark.django_db
def test_a_reported_tournament_message_is_in_the_moderators_queue_and_hiding_it_takes_it_from_every_reader():
    from tests.moderation_support import client_for, confirm, make_moderator

    tournament = arena()
    tamar, reader = make_player("tamar"), make_player("nino")
    tournaments.join(tamar, tournament)
    rude = services.post_in_place(place_of(tournament), tamar, None, "you all play like bots")
    report = services.report(rude.pk, reader)
    moderator = client_for(make_moderator("moderator"))
    page = moderator.get(f"/admin/chat/chatreport/{report.pk}/change/").content.decode()
    assert page.count("you all play like bots") >= 1 and place_of(tournament) in page
    confirm(moderator, "chat", "chatreport", "hide_message", [report.pk], reason="rude")
    assert services.place_history(place_of(tournament), reader) == []
    assert services.place_history(place_of(tournament), tamar) == []


@pytest.mark.django_db
def test_a_tournaments_chat_offers_no_phrase_about_one_tables_trick_or_turn():
    # "Nice trick!", "One moment, please." and "Hurry up, please." are said at a table; a
    # tournament's readers play at different tables or at none.
    tournament = arena()
    tamar = make_player("tamar")
    tournaments.join(tamar, tournament)
    client = Client()
    assert client.login(username=tamar.user.username, password=PASSWORD)
    page = client.get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert 'data-phrase="good_luck"' in page and 'data-phrase="good_game"' in page
    for key in ("nice_trick", "one_moment", "hurry_please"):
        assert f'data-phrase="{key}"' not in page
        refused("unknown_phrase", services.post_in_place, place_of(tournament), tamar, key, None)
    services.post_in_place(place_of(tournament), tamar, "good_luck", None)
