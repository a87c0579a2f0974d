"""Quick play live: the protocol's `quick_play` message, the home page's panel socket and
its buttons (docs/quickplay.md, docs/protocol.md)."""

import itertools

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import Table
from joker_site import heartbeat
from joker_site.asgi import application
from quickplay import services
from quickplay.models import EntryStatus, QueueEntry
from tests.factories import make_player
from tests.live_clients import session_cookie_for
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
)

TIMEOUT = 10


# --- The protocol ---------------------------------------------------------------------------------

@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_two_programs_join_and_both_are_told_the_table_then_get_the_match():
    (_tamar, token_a), (_levan, token_b) = [await make_program_player(n) for n in ("qp_tamar", "qp_levan")]
    first, second = await ProgramClient.connect(token_a), await ProgramClient.connect(token_b)
    await first.send({"type": "quick_play", "action": "join", "variant": "japanese", "stake": 0, "id": 7})
    waiting = await first.receive()
    assert waiting["type"] == "quick_play" and waiting["status"] == "waiting" and waiting["id"] == 7
    assert waiting["looking"] == 1 and waiting["rated"] is True and waiting["range"] == [900, 1100]

    await second.send({"type": "quick_play", "action": "join", "variant": "japanese"})
    answers = []
    for client in (first, second):
        paired = await client.receive_type("quick_play")
        while paired["status"] == "waiting":  # the first one hears the queue grow, then the pairing
            paired = await client.receive_type("quick_play")
        assert paired["status"] == "paired"
        state = await client.receive_type("state")
        assert state["match"] == paired["match"] and state["version"] == 1
        answers.append(paired["table"])
    assert answers[0] == answers[1]
    await first.nothing_more()
    await second.nothing_more()
    await first.close()
    await second.close()


_MESSAGE_IDS = itertools.count(100)


async def ask(client, message):
    """Send a quick_play message; its answer (pushes about the queue that come first are skipped)."""
    message = {"type": "quick_play", "id": next(_MESSAGE_IDS), **message}
    await client.send(message)
    while True:
        answer = await client.receive()
        if answer.get("id") == message["id"]:
            return answer
        assert answer["type"] == "quick_play" and answer["status"] == "waiting" and "id" not in answer


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_protocol_refusals_and_leaving():
    (_player, token) = await make_program_player("qp_nino")
    client = await ProgramClient.connect(token)
    for message, code in (
        ({"type": "quick_play"}, "bad_message"),
        ({"type": "quick_play", "action": "dance"}, "bad_message"),
        ({"type": "quick_play", "action": "join", "variant": "japanese", "bots": "yes"}, "bad_message"),
        ({"type": "quick_play", "action": "join", "variant": "japanese", "stake": 30}, "invalid_stake"),
        ({"type": "quick_play", "action": "leave"}, "not_waiting"),
    ):
        await client.send(message)
        error = await client.receive()
        assert error["type"] == "error" and error["code"] == code and error["message"], (message, error)
    assert (await ask(client, {"action": "join", "variant": "classic", "bots": True}))["status"] == "waiting"
    assert (await ask(client, {"action": "join", "variant": "classic"}))["code"] == "already_waiting"
    status = await ask(client, {"action": "status"})
    assert status["status"] == "waiting" and status["bots"] is True and status["bots_after"] > 0
    assert (await ask(client, {"action": "leave"}))["status"] == "left"
    assert (await ask(client, {"action": "status"}))["status"] == "idle"
    assert await sync_to_async(QueueEntry.objects.filter(status=EntryStatus.WAITING).count)() == 0
    await client.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_program_takes_the_offer_of_bots_at_once_at_the_level_it_names_or_declines_it():
    (_ana, token) = await make_program_player("qp_ana")
    client = await ProgramClient.connect(token)
    assert (await ask(client, {"action": "bots_now"}))["code"] == "not_waiting"
    assert (await ask(client, {"action": "join", "variant": "japanese", "bots": True}))["status"] == "waiting"
    refused = await ask(client, {"action": "bots_now", "bot_level": "grandmaster"})
    assert refused["type"] == "error" and refused["code"] == "bad_message" and refused["message"]
    assert (await ask(client, {"action": "status"}))["status"] == "waiting"  # the refusal changed nothing

    paired = await ask(client, {"action": "bots_now", "bot_level": "master"})
    assert paired["status"] == "paired"
    state = await client.receive_type("state")
    assert state["match"] == paired["match"]
    bot_seats = [seat for seat in state["seats"] if seat["is_bot"]]
    assert [seat["bot_level"] for seat in bot_seats] == ["master"]
    table = await sync_to_async(Table.objects.get)(pk=paired["table"])
    assert (table.bot_level, table.rated, table.stake) == ("master", False, 0)
    await client.close()

    (_gia, token) = await make_program_player("qp_gia")
    client = await ProgramClient.connect(token)
    assert (await ask(client, {"action": "people_only"}))["code"] == "not_waiting"
    await ask(client, {"action": "join", "variant": "classic", "bots": True})
    declined = await ask(client, {"action": "people_only"})
    assert (declined["status"], declined["bots"]) == ("waiting", False) and "bots_after" not in declined
    assert (await ask(client, {"action": "bots_now"}))["code"] == "people_only"
    assert (await ask(client, {"action": "leave"}))["status"] == "left"
    await client.close()


# --- The home page's panel socket ----------------------------------------------------------------

async def panel_socket(player, entry_id):
    cookie = await sync_to_async(session_cookie_for)(player)
    socket = WebsocketCommunicator(application, f"/ws/quickplay/?lang=ru&entry={entry_id}", headers=[
        (b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie.encode())])
    connected, _code = await socket.connect(timeout=TIMEOUT)
    assert connected
    return socket


async def first_waiting_with_a_panel(variant):
    """tamar waits for `variant` with the home page's panel open; levan is about to tap too."""
    tamar, levan = await sync_to_async(make_player)("tamar"), await sync_to_async(make_player)("levan")
    entry = await sync_to_async(services.join)(tamar, variant, 0)
    socket = await panel_socket(tamar, entry.pk)
    return tamar, levan, entry, socket, await socket.receive_from(timeout=TIMEOUT)


async def frame_with(socket, text, most=5):
    """The next panel frame that contains `text` (frames about the queue growing come between)."""
    for _ in range(most):
        frame = await socket.receive_from(timeout=TIMEOUT)
        if text in frame:
            return frame
    raise AssertionError(f"no frame with {text!r}")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_waiting_panel_counts_who_is_looking_and_moves_to_the_table_when_paired():
    _tamar, levan, entry, socket, first = await first_waiting_with_a_panel("classic")
    assert 'id="quickplay-panel"' in first and 'class="quickplay-looking">1<' in first
    assert "Покинуть очередь" in first  # the page's language

    await sync_to_async(services.join)(levan, "classic", 0)
    grown = await socket.receive_from(timeout=TIMEOUT)
    assert 'class="quickplay-looking">2<' in grown

    nino, gio = await sync_to_async(make_player)("nino"), await sync_to_async(make_player)("gio")
    await sync_to_async(services.join)(nino, "classic", 0)
    await sync_to_async(services.join)(gio, "classic", 0)
    moving = await frame_with(socket, "data-quickplay-go")
    table_id = await sync_to_async(lambda: QueueEntry.objects.get(pk=entry.pk).table_id)()
    assert f'data-quickplay-go="/ru/tables/{table_id}/"' in moving
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_open_panel_says_its_player_is_still_there_and_a_closed_one_stops():
    _tamar, _levan, entry, socket, _first = await first_waiting_with_a_panel("japanese")

    @sync_to_async
    def seen_at():
        return QueueEntry.objects.get(pk=entry.pk).seen_at

    await sync_to_async(heartbeat.beat_once)()  # the process's heartbeat (joker_site/heartbeat.py)
    assert await seen_at() > entry.seen_at
    await socket.disconnect()
    closed = await seen_at()
    await sync_to_async(heartbeat.beat_once)()
    assert await seen_at() == closed  # nobody says so any more: the pairing will take the player out


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_player_taken_out_of_the_queue_is_told_why():
    tamar, levan, _entry, socket, _first = await first_waiting_with_a_panel("japanese")
    from games.services import tables as table_service
    from games.services.tables import TableSettings

    await sync_to_async(table_service.create_table)(tamar, TableSettings(variant="classic"))
    await sync_to_async(services.join)(levan, "japanese", 0)
    frame = await frame_with(socket, 'role="alert"')
    assert "Вы сели за стол" in frame and "Играть в японский" in frame  # why, and the buttons again
    await socket.disconnect()


# --- The page's buttons ---------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_home_page_offers_the_two_buttons_and_the_stakes_then_shows_the_wait():
    tamar = make_player("tamar")
    client = Client()
    client.force_login(tamar.user)
    page = client.get("/en/").content.decode()
    assert 'value="japanese"' in page and 'value="classic"' in page and "Play Japanese" in page
    assert all(f'name="stake" value="{stake}"' in page for stake in (0, 25, 50, 100, 250))
    refused = client.post("/en/quickplay/join/", {"variant": "classic", "stake": "30", "people_only": "on"},
                          HTTP_HX_REQUEST="true").content.decode()
    assert "Choose a free game or one of the stakes offered." in refused
    assert 'name="people_only" checked' in refused  # the tap keeps its choice
    answer = client.post("/en/quickplay/join/", {"variant": "japanese", "stake": "25"}, HTTP_HX_REQUEST="true")
    section = answer.content.decode()
    assert answer.status_code == 200 and "Leave the queue" in section and "25 coins" in section
    entry = QueueEntry.objects.get(player=tamar)
    assert f"entry={entry.pk}" in section  # the panel's socket, for this entry
    again = client.post("/en/quickplay/join/", {"variant": "japanese", "stake": "25"}, HTTP_HX_REQUEST="true")
    assert "You are already waiting for a game." in again.content.decode()
    assert "Leave the queue" in client.get("/en/").content.decode()
    left = client.post("/en/quickplay/leave/", HTTP_HX_REQUEST="true")
    assert "Play Japanese" in left.content.decode()
    assert QueueEntry.objects.get(player=tamar).status == EntryStatus.LEFT


@pytest.mark.django_db
def test_the_second_tap_that_makes_a_pair_goes_straight_to_the_table():
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, "japanese", 0)
    client = Client()
    client.force_login(levan.user)
    answer = client.post("/ka/quickplay/join/", {"variant": "japanese", "stake": "0"}, HTTP_HX_REQUEST="true")
    table_id = QueueEntry.objects.get(player=levan).table_id
    assert answer.status_code == 204 and answer["HX-Redirect"] == f"/ka/tables/{table_id}/"
    plain = Client()
    plain.force_login(tamar.user)
    assert plain.post("/ka/quickplay/leave/").url == f"/ka/tables/{table_id}/"  # already seated: go there


@pytest.mark.django_db
def test_a_visitor_plays_as_a_guest_for_free_only():
    client = Client()
    page = client.get("/ru/").content.decode()
    assert 'name="stake" value="25"' not in page and "Гости играют бесплатно" in page
    client.post("/ru/quickplay/join/", {"variant": "japanese", "stake": "0"})
    entry = QueueEntry.objects.get()
    assert entry.player.is_guest and not entry.rated
    refused = client.post("/ru/quickplay/join/", {"variant": "japanese", "stake": "25"}, follow=True)
    assert "Вы уже ждёте игру" in refused.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "rated_words"), [("ru", ("рейтинг",)), ("ka", ("რეიტინგ",)), ("en", ("rated", "Rated"))])
def test_a_guests_quick_play_panel_says_nothing_of_rated_play(language, rated_words):
    client = Client()
    page = client.get(f"/{language}/").content.decode()
    panel = page[page.index('id="quickplay-panel"'):page.index("</section>", page.index('id="quickplay-panel"'))]
    assert not any(word in panel for word in rated_words), panel
    client.post(f"/{language}/quickplay/join/", {"variant": "classic", "stake": "0"})  # bots welcome: the offer
    waiting = client.get(f"/{language}/").content.decode()
    panel = waiting[waiting.index('id="quickplay-panel"'):waiting.index("</section>", waiting.index('id="quickplay-panel"'))]
    assert 'name="choice" value="now"' in panel  # the offer of bots is there (shown once its wait is over)
    assert not any(word in panel for word in rated_words), panel



@pytest.mark.django_db
def test_the_offer_of_bots_is_taken_by_one_tap_or_declined_for_people_only(settings):
    settings.QUICKPLAY_BOT_OFFER_SECONDS = 0  # the offer shows at once
    nino, gio = make_player("nino"), make_player("gio")
    clients = {player: Client() for player in (nino, gio)}
    for player, client in clients.items():
        client.force_login(player.user)
    waiting = clients[nino].post("/en/quickplay/join/", {"variant": "japanese", "stake": "0"},
                                 HTTP_HX_REQUEST="true").content.decode()
    assert 'class="quickplay-offer" data-quickplay-offer="0">' in waiting  # not hidden: its wait is over
    assert "Play against a bot" in waiting and "Wait for people only" in waiting
    assert QueueEntry.objects.get(player=nino).bots is True  # the button asks for bots unless told not to

    refused = clients[nino].post("/en/quickplay/bots/", {"choice": "maybe"}, HTTP_HX_REQUEST="true")
    assert "Choose to play with bots now or to wait for people." in refused.content.decode()
    assert not Table.objects.exists()
    for value in ("beginner", "club", "master"):  # the offer lets the player choose the bots' level, club first
        checked = " checked" if value == "club" else ""
        assert f'name="bot_level" value="{value}"{checked}>' in waiting
    unknown = clients[nino].post("/en/quickplay/bots/", {"choice": "now", "bot_level": "grandmaster"},
                                 HTTP_HX_REQUEST="true")
    assert "Choose the bots&#x27; level." in unknown.content.decode() and not Table.objects.exists()
    taken = clients[nino].post("/en/quickplay/bots/", {"choice": "now", "bot_level": "master"}, HTTP_HX_REQUEST="true")
    entry = QueueEntry.objects.get(player=nino)
    assert taken.status_code == 204 and taken["HX-Redirect"] == f"/en/tables/{entry.table_id}/"
    assert entry.table.variant == "japanese" and entry.table.seats.filter(is_bot=True).count() == 1
    assert entry.table.bot_level == "master"

    clients[gio].post("/en/quickplay/join/", {"variant": "classic", "stake": "0", "people_only": "on"})
    assert QueueEntry.objects.get(player=gio).bots is False
    panel = clients[gio].get("/en/").content.decode()
    assert "You are waiting for people only." in panel and 'value="now"' not in panel
    QueueEntry.objects.filter(player=gio).update(bots=True)
    declined = clients[gio].post("/en/quickplay/bots/", {"choice": "people"}, HTTP_HX_REQUEST="true")
    assert "You are waiting for people only." in declined.content.decode()
    assert QueueEntry.objects.get(player=gio).bots is False
    late = clients[gio].post("/en/quickplay/bots/", {"choice": "now"}, HTTP_HX_REQUEST="true")
    assert "You chose to wait for people only." in late.content.decode()
    assert QueueEntry.objects.get(player=gio).status == EntryStatus.WAITING
