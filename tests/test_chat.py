"""Table chat (chat/, docs/chat.md): what may be said, by whom, how often, who reads it,
the word filter, the staff mute, readers' reports and the moderators' handling of them,
over the page's socket and the JSON protocol alike."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone, translation

from chat import services
from chat.models import ChatMessage, ChatReport, ReportStatus, Room
from chat.services import ChatRefusal
from chat.wordfilter import blocked_words
from games.models import Match
from games.services import tables as table_service
from games.services.tables import TableSettings
from moderation.models import AuditAction, AuditEntry, Mute
from tests.factories import PASSWORD, make_guest, make_player
from tests.live_clients import connect
from tests.moderation_support import client_for, confirm, make_moderator
from tests.protocol_clients import ProgramClient, make_program_player


def japanese_table(host="tamar", guest="levan"):
    players = [make_player(host), make_player(guest)]
    table = table_service.create_table(players[0], TableSettings(variant="japanese"))
    table_service.sit(table.pk, players[1])
    return table, players


def table_with_a_guest():
    """A casual table (guests may not sit at rated ones) with a member and a guest."""
    guest = make_guest()
    table = table_service.create_table(make_player("tamar"), TableSettings(variant="japanese", rated=False))
    table_service.sit(table.pk, guest)
    return table, guest


def chat_moderator(username="moderator"):
    """A moderator of the Moderators group, which has the chat permissions."""
    user = make_moderator(username)
    assert user.has_perm("moderation.handle_chat_report") and user.has_perm("moderation.mute_player")
    return user


def refused(code, call, *args, **kwargs):
    before = ChatMessage.objects.count(), ChatReport.objects.count()
    with pytest.raises(ChatRefusal) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    assert code in services.REFUSAL_CODES
    assert (ChatMessage.objects.count(), ChatReport.objects.count()) == before, "a refusal changed something"
    return caught.value


def age_messages(player, seconds):
    """Move the player's messages back in time (instead of waiting)."""
    for message in ChatMessage.objects.filter(author=player):
        ChatMessage.objects.filter(pk=message.pk).update(created_at=message.created_at - timedelta(seconds=seconds))


# --- what may be said ------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_quick_phrase_is_stored_as_its_key_and_read_in_each_readers_language():
    table, (tamar, _levan) = japanese_table()
    message = services.post(table.pk, tamar, phrase="good_luck")
    assert (message.phrase, message.text, message.room) == ("good_luck", "", Room.PLAYERS)
    assert message.match == Match.objects.get(table=table)
    with translation.override("ka"):
        assert message.shown_text() == "წარმატებები!"
    with translation.override("ru"):
        assert message.shown_text() == "Удачи!"
    with translation.override("en"):
        assert message.shown_text() == "Good luck!"


@pytest.mark.django_db
def test_members_write_text_up_to_200_characters_and_spaces_are_tidied():
    table, (tamar, _levan) = japanese_table()
    message = services.post(table.pk, tamar, text="  nice   hand,\n partner  ")
    assert message.text == "nice hand, partner"
    assert services.post(table.pk, tamar, text="x" * 200).text == "x" * 200


@pytest.mark.django_db
def test_guests_may_send_quick_phrases_only():
    table, guest = table_with_a_guest()
    with translation.override("en"):
        error = refused("guests_phrases_only", services.post, table.pk, guest, text="hello")
    assert "Sign up" in error.message
    assert services.post(table.pk, guest, phrase="thanks").phrase == "thanks"


@pytest.mark.django_db
@pytest.mark.parametrize(("phrase", "text", "code"), [
    (None, None, "empty_message"),
    (None, "", "empty_message"),
    (None, "   \n  ", "empty_message"),
    (None, "x" * 201, "too_long"),
    ("insult_everyone", None, "unknown_phrase"),
    ("", None, "unknown_phrase"),
    (5, None, "unknown_phrase"),
    (None, 5, "bad_chat"),
    (None, ["hi"], "bad_chat"),
    ("thanks", "and more", "bad_chat"),
])
def test_bad_input_is_refused_clearly_and_changes_nothing(phrase, text, code):
    table, (tamar, _levan) = japanese_table()
    error = refused(code, services.post, table.pk, tamar, phrase=phrase, text=text)
    assert error.message


@pytest.mark.django_db
def test_a_visitor_without_a_player_cannot_chat_and_an_unknown_table_is_refused():
    table, (tamar, _levan) = japanese_table()
    refused("not_signed_in", services.post, table.pk, None, phrase="hello")
    refused("no_such_table", services.post, table.pk + 1000, tamar, phrase="hello")


# --- flood control ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_burst_is_refused_with_the_seconds_to_wait_then_allowed_again(settings):
    settings.CHAT_BURST_MESSAGES, settings.CHAT_BURST_SECONDS, settings.CHAT_MINUTE_MESSAGES = 3, 5, 12
    table, (tamar, levan) = japanese_table()
    for _ in range(3):
        services.post(table.pk, tamar, phrase="hello")
    with translation.override("en"):
        error = refused("too_fast", services.post, table.pk, tamar, phrase="hello")
    assert 1 <= error.params["retry_after"] <= 5
    assert "wait" in error.message
    services.post(table.pk, levan, phrase="hello")  # the limit is each author's own
    age_messages(tamar, 6)
    services.post(table.pk, tamar, phrase="hello")


@pytest.mark.django_db(transaction=True)
def test_messages_sent_at_once_from_many_connections_still_keep_the_burst_limit(settings):
    """Eight threads, each with its own database connection as separate web processes have:
    the author's row lock counts them one after the other, so exactly the burst gets through."""
    import threading

    from django.db import connection

    settings.CHAT_BURST_MESSAGES, settings.CHAT_BURST_SECONDS, settings.CHAT_MINUTE_MESSAGES = 3, 5, 12
    table, (tamar, _levan) = japanese_table()
    start, outcomes = threading.Barrier(8), []

    def send():
        try:
            start.wait()
            services.post(table.pk, tamar, phrase="hello")
            outcomes.append("sent")
        except ChatRefusal as refusal:
            outcomes.append(refusal.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["sent"] * 3 + ["too_fast"] * 5
    assert ChatMessage.objects.filter(author=tamar).count() == 3


@pytest.mark.django_db
def test_more_than_the_per_minute_limit_is_refused_across_tables(settings):
    settings.CHAT_BURST_MESSAGES, settings.CHAT_BURST_SECONDS, settings.CHAT_MINUTE_MESSAGES = 3, 5, 12
    table, (tamar, _levan) = japanese_table()
    other, _players = japanese_table("nino", "giorgi")
    for i in range(12):
        services.post((table if i % 2 else other).pk, tamar, phrase="hello")
        age_messages(tamar, 4)  # slow enough for the burst limit
    ChatMessage.objects.filter(author=tamar, created_at__lt=timezone.now() - timedelta(seconds=59)).update(
        created_at=timezone.now() - timedelta(seconds=50))
    error = refused("too_many", services.post, table.pk, tamar, phrase="hello")
    assert "12" in error.message and error.params["retry_after"] >= 1
    age_messages(tamar, 60)
    services.post(table.pk, tamar, phrase="hello")


# --- the word filter ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "fuck you", "FUCK", "sh1t happens", "you @ss", "fuuuuuck", "b!tch!", "what a motherfucker",
    "блять", "БЛЯДЬ", "пи3дец", "xуй", "ну ты и ебанат", "сука", "6ля",
    "შე ყლეო", "ბოზი ხარ", "ნაბიჭვარი", "მუტელი!", "yle",
])
def test_the_filter_catches_words_of_its_lists_in_each_language_and_disguise(text):
    assert blocked_words(text)


@pytest.mark.parametrize("text", [
    "good game", "class assist", "Assassin's trick", "cocktail", "Dickens", "skill issue",
    "скипидар", "потребление", "хорошая игра", "спасибо", "sukhumi",
    "გამარჯობა", "კარგი თამაში იყო", "მადლობა",
])
def test_the_filter_leaves_ordinary_words_alone(text):
    assert blocked_words(text) == []


@pytest.mark.django_db
def test_a_filtered_message_is_kept_but_only_its_author_sees_it():
    table, (tamar, levan) = japanese_table()
    message = services.post(table.pk, tamar, text="ну ты и сука")
    assert message.filtered and ChatMessage.objects.filter(pk=message.pk).exists()
    assert [m.pk for m in services.history(table.pk, tamar)[1]] == [message.pk]
    assert services.history(table.pk, levan)[1] == []
    refused("no_such_message", services.report, message.pk, levan)


# --- rooms -------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_players_and_spectators_talk_in_separate_rooms():
    table, (tamar, levan) = japanese_table()
    nino = make_player("nino")
    said_by_player = services.post(table.pk, tamar, phrase="good_luck")
    said_by_spectator = services.post(table.pk, nino, text="tamar holds the joker")
    assert said_by_spectator.room == Room.SPECTATORS
    assert services.history(table.pk, levan) == (Room.PLAYERS, [said_by_player])
    assert services.history(table.pk, nino) == (Room.SPECTATORS, [said_by_spectator])
    assert services.history(table.pk, None) == (Room.SPECTATORS, [said_by_spectator])
    refused("no_such_message", services.report, said_by_spectator.pk, levan)


# --- the staff mute ----------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_staff_mute_set_in_the_admin_refuses_messages_until_it_ends_and_lifting_it_is_audited():
    table, (tamar, _levan) = japanese_table()
    moderator = chat_moderator()
    client = client_for(moderator)
    page = client.get(f"/admin/accounts/player/{tamar.pk}/change/")
    assert "Mute in chat" in page.content.decode()
    response = confirm(client, "accounts", "player", "mute_player", [tamar.pk], duration="1h", reason="insults")
    assert response.status_code == 302
    mute = Mute.objects.get(player=tamar)
    assert timedelta(minutes=59) < mute.until - timezone.now() <= timedelta(hours=1)
    entry = AuditEntry.objects.get(action=AuditAction.MUTE_PLAYER)
    assert (entry.actor, entry.reason, entry.details["mute_id"]) == (moderator, "insults", mute.pk)
    with translation.override("en"):
        error = refused("muted", services.post, table.pk, tamar, phrase="sorry")
    assert "until" in error.message and error.params["until"] == mute.until.isoformat()
    with translation.override("ru"):
        assert "до" in refused("muted", services.post, table.pk, tamar, phrase="sorry").message
    # A second mute while one runs is refused: nothing changes.
    confirm(client, "accounts", "player", "mute_player", [tamar.pk], duration="1d", reason="again")
    assert Mute.objects.filter(player=tamar).count() == 1
    confirm(client, "accounts", "player", "lift_mute", [tamar.pk], reason="apologised")
    assert AuditEntry.objects.filter(action=AuditAction.LIFT_MUTE, reason="apologised").count() == 1
    assert services.post(table.pk, tamar, phrase="sorry").phrase == "sorry"


@pytest.mark.django_db
def test_a_mute_ends_by_itself_and_a_reason_is_required():
    table, (tamar, _levan) = japanese_table()
    client = client_for(chat_moderator())
    response = confirm(client, "accounts", "player", "mute_player", [tamar.pk], duration="1h", reason="")
    assert response.status_code == 200 and not Mute.objects.exists() and not AuditEntry.objects.exists()
    Mute.objects.create(player=tamar, until=timezone.now() - timedelta(seconds=1), reason="old")
    assert services.post(table.pk, tamar, phrase="hello")


@pytest.mark.django_db
def test_a_guest_can_be_muted_too():
    table, guest = table_with_a_guest()
    client = client_for(chat_moderator())
    confirm(client, "moderation", "guest", "mute_player", [guest.pk], duration="15m", reason="spam")
    refused("muted", services.post, table.pk, guest, phrase="hurry_please")


# --- reports and their handling ------------------------------------------------------------------

def _reported(table, author, reporter, text="you are a bad player"):
    before = services.post(table.pk, author, phrase="hello")
    message = services.post(table.pk, author, text=text)
    ChatMessage.objects.filter(pk=message.pk).update(created_at=message.created_at + timedelta(seconds=1))
    after = services.post(table.pk, reporter, phrase="sorry")
    ChatMessage.objects.filter(pk=after.pk).update(created_at=message.created_at + timedelta(seconds=2))
    message.refresh_from_db()
    return services.report(message.pk, reporter), before, message, after


@pytest.mark.django_db
def test_a_report_lands_in_the_queue_with_the_message_its_context_and_the_table():
    table, (tamar, levan) = japanese_table()
    report, before, message, after = _reported(table, tamar, levan)
    assert report.status == ReportStatus.OPEN
    refused("already_reported", services.report, message.pk, levan)
    refused("own_message", services.report, message.pk, tamar)
    refused("no_such_message", services.report, 10 ** 9, levan)
    refused("bad_chat", services.report, "12", levan)
    assert [m.pk for m in services.context_of(message)] == [before.pk, message.pk, after.pk]
    client = client_for(chat_moderator())
    queue = client.get("/admin/chat/chatreport/").content.decode()
    assert "you are a bad player" in queue
    page = client.get(f"/admin/chat/chatreport/{report.pk}/change/").content.decode()
    assert "you are a bad player" in page and "Sorry!" in page and "Hello!" in page
    assert f"/admin/games/table/{table.pk}/change/" in page
    for label in ("Dismiss the report", "Hide the message", "Hide the message and mute its author"):
        assert label in page


@pytest.mark.django_db
def test_dismissing_a_report_closes_it_and_writes_the_audit_log():
    table, (tamar, levan) = japanese_table()
    report, _before, message, _after = _reported(table, tamar, levan)
    moderator = chat_moderator()
    client = client_for(moderator)
    confirm(client, "chat", "chatreport", "dismiss_report", [report.pk], reason="banter")
    report.refresh_from_db()
    assert (report.status, report.handled_by) == (ReportStatus.DISMISSED, moderator)
    entry = AuditEntry.objects.get(action=AuditAction.DISMISS_REPORT)
    assert entry.details["message_id"] == message.pk and entry.details["table_id"] == table.pk
    assert services.history(table.pk, levan)[1][1] == message  # still shown
    # Handling it twice changes nothing more.
    confirm(client, "chat", "chatreport", "hide_message", [report.pk], reason="second thoughts")
    assert AuditEntry.objects.count() == 1 and ChatMessage.objects.get(pk=message.pk).hidden_at is None


@pytest.mark.django_db
def test_hiding_a_reported_message_takes_it_from_every_reader_and_is_audited():
    table, (tamar, levan) = japanese_table()
    report, _before, message, _after = _reported(table, tamar, levan)
    client = client_for(chat_moderator())
    confirm(client, "chat", "chatreport", "hide_message", [report.pk], reason="rude")
    assert ChatMessage.objects.get(pk=message.pk).hidden_at is not None
    assert message.pk not in [m.pk for m in services.history(table.pk, levan)[1]]
    assert message.pk not in [m.pk for m in services.history(table.pk, tamar)[1]]
    assert ChatReport.objects.get(pk=report.pk).status == ReportStatus.HIDDEN
    entry = AuditEntry.objects.get(action=AuditAction.HIDE_MESSAGE)
    assert (entry.reason, entry.details["report_ids"]) == ("rude", [report.pk])


@pytest.mark.django_db
def test_muting_a_reported_author_hides_the_message_mutes_them_and_is_audited():
    table, (tamar, levan) = japanese_table()
    report, _before, message, _after = _reported(table, tamar, levan)
    client = client_for(chat_moderator())
    confirm(client, "chat", "chatreport", "mute_author", [report.pk], duration="1d", reason="insults")
    assert Mute.objects.active().filter(player=tamar).exists()
    assert ChatMessage.objects.get(pk=message.pk).hidden_at is not None
    assert ChatReport.objects.get(pk=report.pk).status == ReportStatus.MUTED
    entry = AuditEntry.objects.get(action=AuditAction.MUTE_PLAYER)
    assert (entry.details["message_id"], entry.details["table_id"]) == (message.pk, table.pk)
    refused("muted", services.post, table.pk, tamar, phrase="sorry")
    # The match's admin page shows the audit entry and the whole chat, both rooms.
    services.post(table.pk, make_player("nino"), phrase="well_played")
    page = client.get(f"/admin/games/match/{Match.objects.get(table=table).pk}/change/").content.decode()
    assert "you are a bad player" in page and "Well played!" in page and "insults" in page


@pytest.mark.django_db
def test_without_the_permission_nobody_handles_reports():
    from django.contrib.auth import get_user_model

    table, (tamar, levan) = japanese_table()
    report, *_rest = _reported(table, tamar, levan)
    clerk = get_user_model().objects.create_user("clerk", password=PASSWORD, is_staff=True)
    response = confirm(client_for(clerk), "chat", "chatreport", "dismiss_report", [report.pk], reason="x")
    assert response.status_code in (302, 403)
    assert ChatReport.objects.get(pk=report.pk).status == ReportStatus.OPEN and not AuditEntry.objects.exists()


# --- the match page ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_match_page_shows_the_readers_room_with_its_last_messages():
    from django.test import Client

    table, (tamar, levan) = japanese_table()
    services.post(table.pk, tamar, phrase="good_luck")
    services.post(table.pk, make_player("nino"), text="secret spectator talk")
    client = Client()
    client.force_login(levan.user)
    page = client.get(f"/ru/tables/{table.pk}/").content.decode()
    assert 'id="chat-log"' in page and "Удачи!" in page and "Чат игроков" in page
    assert "secret spectator talk" not in page
    assert 'aria-live="polite"' in page and 'for="chat-text"' in page


@pytest.mark.django_db
def test_the_waiting_page_has_the_chat_too_with_its_two_rooms():
    from django.test import Client

    tamar = make_player("tamar")
    table = table_service.create_table(tamar, TableSettings(variant="japanese"))
    services.post(table.pk, tamar, phrase="hello")
    seated, passer_by = Client(), Client()
    seated.force_login(tamar.user)
    passer_by.force_login(make_player("nino").user)
    page = seated.get(f"/ka/tables/{table.pk}/").content.decode()
    assert 'id="chat"' in page and "გამარჯობა!" in page and "მოთამაშეების ჩატი" in page
    page = passer_by.get(f"/ka/tables/{table.pk}/").content.decode()
    log = page[page.index('id="chat-log"'):page.index("</ol>", page.index('id="chat-log"'))]
    assert "მაყურებლების ჩატი" in page and "chat-msg" not in log


# --- over the page's socket ----------------------------------------------------------------------

async def _next_chat(client, timeout=5):
    while True:
        frame = await client.receive_from(timeout=timeout)
        if frame.startswith('<div class="chat-frame"'):
            return frame


async def _drain(client, timeout=10):
    """What a socket sends as it opens: its position, then the chat's catch-up (if the room has
    anything). Wait for the position first: on a busy machine it took more than the quiet's 0.3 s."""
    frames = [await client.receive_from(timeout=timeout)]
    while 'id="match" class=' not in frames[-1]:
        frames.append(await client.receive_from(timeout=timeout))
    return frames + await _frames_until_quiet(client)


async def _frames_until_quiet(client):
    frames = []
    while not await client.receive_nothing(timeout=0.3):
        frames.append(await client.receive_from())
    return frames


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_on_the_page_socket_players_read_each_other_in_their_own_languages_and_never_the_spectators():
    table, (tamar, levan) = await sync_to_async(japanese_table)()
    nino = await sync_to_async(make_player)("nino")
    ka_player = await connect(table.pk, tamar, "ka")
    ru_player = await connect(table.pk, levan, "ru")
    spectator = await connect(table.pk, nino, "en")
    for client in (ka_player, ru_player, spectator):
        await _drain(client)
    try:
        await ka_player.send_to(text_data=json.dumps({"type": "chat", "phrase": "well_played", "HEADERS": {}}))
        own = await _next_chat(ka_player)
        assert 'data-chat="add"' in own and "კარგად ითამაშე!" in own and 'data-mine="1"' in own
        seen = await _next_chat(ru_player)
        assert "Хорошо сыграно!" in seen and "chat-report" in seen
        assert await spectator.receive_nothing(timeout=0.3)

        await spectator.send_to(text_data=json.dumps({"type": "chat", "text": "levan is bluffing"}))
        assert "levan is bluffing" in await _next_chat(spectator)
        assert await ka_player.receive_nothing(timeout=0.3)
        assert await ru_player.receive_nothing(timeout=0.3)

        # A filtered text comes back to its author only, marked.
        await ru_player.send_to(text_data=json.dumps({"type": "chat", "text": "сука"}))
        own = await _next_chat(ru_player)
        assert "filtered" in own and "видите только вы" in own
        assert await ka_player.receive_nothing(timeout=0.3)

        # A report from the page: the message id as a number or as digits.
        message_id = await sync_to_async(lambda: ChatMessage.objects.get(phrase="well_played").pk)()
        await ru_player.send_to(text_data=json.dumps({"type": "chat_report", "message": str(message_id)}))
        assert 'data-chat="reported"' in await _next_chat(ru_player)
        assert await sync_to_async(ChatReport.objects.filter(message_id=message_id).count)() == 1

        # A moderator hides it: the players' open pages drop it at once.
        from moderation.chat import hide_reported_message

        report_id = await sync_to_async(lambda: ChatReport.objects.get(message_id=message_id).pk)()
        await sync_to_async(hide_reported_message)(report_id, "rude", await sync_to_async(chat_moderator)())
        for client in (ka_player, ru_player):
            dropped = await _next_chat(client)
            assert 'data-chat="remove"' in dropped and f'data-id="{message_id}"' in dropped
        assert await spectator.receive_nothing(timeout=0.3)
    finally:
        for client in (ka_player, ru_player, spectator):
            await client.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_what_was_said_before_a_page_socket_opened_reaches_it_when_it_opens():
    """The page is drawn, then its socket opens (or a phone's comes back): the messages said
    in between are sent on opening, the room's own only and without what was hidden."""
    table, (tamar, levan) = await sync_to_async(japanese_table)()
    nino = await sync_to_async(make_player)("nino")
    await sync_to_async(services.post)(table.pk, tamar, phrase="well_played")
    rude = await sync_to_async(services.post)(table.pk, tamar, text="this one is hidden")
    await sync_to_async(services.post)(table.pk, nino, text="spectators talk apart")
    await sync_to_async(ChatMessage.objects.filter(pk=rude.pk).update)(hidden_at=timezone.now())
    player = await connect(table.pk, levan, "ru")
    spectator = await connect(table.pk, nino, "en")
    try:
        caught_up = await _next_chat(player)
        assert 'data-chat="history"' in caught_up and "Хорошо сыграно!" in caught_up
        assert '<li id="chat-msg-' in caught_up  # markup the page takes in, not escaped text
        assert "this one is hidden" not in caught_up and "spectators talk apart" not in caught_up
        assert "spectators talk apart" in await _next_chat(spectator)
    finally:
        await player.disconnect()
        await spectator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_room_whose_every_message_was_hidden_sends_an_empty_list_and_an_empty_room_sends_nothing():
    """A page drawn before a moderator hid the room's last message still shows it: its socket
    is told the room has nothing to show. A room nobody wrote in sends no chat frame at all."""
    table, (tamar, levan) = await sync_to_async(japanese_table)()
    nino = await sync_to_async(make_player)("nino")
    rude = await sync_to_async(services.post)(table.pk, tamar, text="this one is hidden")
    await sync_to_async(ChatMessage.objects.filter(pk=rude.pk).update)(hidden_at=timezone.now())
    player = await connect(table.pk, levan, "en")
    spectator = await connect(table.pk, nino, "en")
    try:
        caught_up = await _next_chat(player)
        assert 'data-chat="history"' in caught_up and "<li" not in caught_up
        frames = await _drain(spectator)
        assert not any(f.startswith('<div class="chat-frame"') for f in frames)  # nobody wrote there
    finally:
        await player.disconnect()
        await spectator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("frame", "code"), [
    ({"type": "chat"}, "empty_message"),
    ({"type": "chat", "text": ""}, "empty_message"),
    ({"type": "chat", "text": "y" * 201}, "too_long"),
    ({"type": "chat", "phrase": "nope"}, "unknown_phrase"),
    ({"type": "chat", "text": {"a": 1}}, "bad_chat"),
    ({"type": "chat_report", "message": "twelve"}, "bad_chat"),
])
async def test_bad_chat_frames_on_the_page_socket_get_a_clear_error_and_change_nothing(frame, code):
    table, (tamar, levan) = await sync_to_async(japanese_table)()
    client = await connect(table.pk, tamar, "en")
    other = await connect(table.pk, levan, "en")
    await _drain(client)
    await _drain(other)
    try:
        await client.send_to(text_data=json.dumps(frame))
        answer = await _next_chat(client)
        assert 'data-chat="refused"' in answer and f'data-code="{code}"' in answer
        assert 'data-note="' in answer
        assert await other.receive_nothing(timeout=0.3)
        assert await sync_to_async(ChatMessage.objects.count)() == 0
        # A frame that is not JSON at all: the table's own error, the socket stays open.
        await client.send_to(text_data='{"type": "chat", "text": ')
        assert "could not be read" in await client.receive_from(timeout=5)
        await client.send_to(text_data=json.dumps({"type": "chat", "phrase": "thanks"}))
        assert "Thanks!" in await _next_chat(client)
    finally:
        await client.disconnect()
        await other.disconnect()


# --- over the JSON protocol ----------------------------------------------------------------------

@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_protocol_sends_and_receives_chat_in_each_programs_language():
    (tamar, tamar_token), (_levan, levan_token) = (await make_program_player("tamar"),
                                                  await make_program_player("levan"))
    table, = await sync_to_async(lambda: [table_service.create_table(tamar, TableSettings(variant="japanese"))])()
    first = await ProgramClient.connect(tamar_token, headers=[(b"accept-language", b"ka")])
    second = await ProgramClient.connect(levan_token, headers=[(b"accept-language", b"ru")])
    try:
        await first.send({"type": "resync", "table": table.pk})
        await first.receive_type("table")
        await second.send({"type": "join_table", "table": table.pk, "id": "j"})
        await second.receive_type("state")
        await first.send({"type": "chat", "table": table.pk, "phrase": "good_luck", "id": 7})
        sent = await first.receive_type("chat_sent")
        assert sent["id"] == 7 and sent["message"]["phrase"] == "good_luck" and sent["message"]["text"] == "წარმატებები!"
        assert sent["message"]["room"] == "players" and sent["message"]["filtered"] is False
        heard = await second.receive_type("chat")
        assert heard["message"]["text"] == "Удачи!" and heard["message"]["author"]["id"] == tamar.pk

        await second.send({"type": "chat", "table": table.pk, "text": "спасибо, и тебе"})
        assert (await first.receive_type("chat"))["message"]["text"] == "спасибо, и тебе"
        await second.receive_type("chat_sent")

        await first.send({"type": "chat_history", "table": table.pk})
        history = await first.receive_type("chat_history")
        assert history["room"] == "players" and [m["text"] for m in history["messages"]] == [
            "წარმატებები!", "спасибо, и тебе"]

        await first.send({"type": "chat_report", "message": heard["message"]["id"]})
        assert (await first.receive_type("error"))["code"] == "own_message"
        await second.send({"type": "chat_report", "message": heard["message"]["id"], "id": "r"})
        assert (await second.receive_type("chat_reported"))["message"] == heard["message"]["id"]
    finally:
        await first.close()
        await second.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("message", "code"), [
    ({"type": "chat", "phrase": "thanks"}, "bad_message"),  # no table
    ({"type": "chat", "table": "1", "phrase": "thanks"}, "bad_message"),
    ({"type": "chat", "table": 0, "text": 12}, "bad_message"),
    ({"type": "chat", "table": None, "phrase": "thanks"}, "bad_message"),
    ({"type": "chat_report"}, "bad_message"),
    ({"type": "chat", "table": "TABLE", "phrase": "nope"}, "unknown_phrase"),
    ({"type": "chat", "table": "TABLE", "text": "z" * 201}, "too_long"),
    ({"type": "chat", "table": "TABLE", "text": " "}, "empty_message"),
    ({"type": "chat", "table": "OTHER", "phrase": "thanks"}, "not_at_table"),
    ({"type": "chat_history", "table": "OTHER"}, "not_at_table"),
])
async def test_bad_chat_messages_over_the_protocol_are_errors_that_change_nothing(message, code):
    (tamar, token) = await make_program_player("tamar")
    table = await sync_to_async(table_service.create_table)(tamar, TableSettings(variant="japanese"))
    other = await sync_to_async(table_service.create_table)(await sync_to_async(make_player)("nino"),
                                                             TableSettings(variant="japanese"))
    client = await ProgramClient.connect(token)
    try:
        await client.send({"type": "resync", "table": table.pk})
        await client.receive_type("table")
        resolved = {k: {"TABLE": table.pk, "OTHER": other.pk}.get(v, v) if isinstance(v, str) else v
                    for k, v in message.items()}
        await client.send(resolved)
        error = await client.receive_type("error")
        assert error["code"] == code and error["message"]
        assert await sync_to_async(ChatMessage.objects.count)() == 0
        await client.send_text('{"type": "chat", ')
        assert (await client.receive_type("error"))["code"] == "bad_json"
    finally:
        await client.close()
