"""Spectators: the lobby's matches being played, who may watch (page, page socket, protocol),
how many watch (shared, up and down, a dead process's watchers dropped), and the proof that a
spectator never receives a card that is not public: every frame of whole matches of both
variants, HTML over the page's socket and JSON over the protocol, checked by the same check
as the seats' frames (tests/live_clients.py: `leaked`)."""

import random
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone, translation

from games.models import Match, MatchStatus, Spectator, Table, Visibility
from games.services import spectators
from games.services import tables as table_service
from games.services.lobby import running_matches
from games.services.matches import load_state, perform
from games.services.tables import TableSettings
from joker_site import heartbeat
from ratings.models import Rating
from ratings.services import shown_value
from tests.factories import make_friends, make_guest, make_player, player_at
from tests.live_clients import CARD_TOKEN, cards_in, connect, leaked, play_whole_match_in_browsers
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
    play_whole_match,
)
from tests.replay_helpers import fresh, random_move

COUNT = re.compile(r'id="spectator-count"[^>]*data-count="(\d+)"')


def _match(variant="japanese", names=("tamar", "levan"), players=None, **options):
    """A running match of members (created through the table service, as the pages do)."""
    players = players or [make_player(n) for n in names]
    settings = TableSettings(variant=variant, **({"target": 11} if variant == "japanese" else {}) | options)
    table = table_service.create_table(players[0], settings)
    for player in players[1:]:
        if settings.visibility == Visibility.FRIENDS:
            make_friends(players[0], player)
        table_service.sit(table.pk, player, password=options.get("password", ""))
    return Match.objects.select_related("table").get(table=table), players


def _play_to_deal(match, deal_index):
    """Legal moves through `perform` until the match is in deal `deal_index` (from 0)."""
    while True:
        match.refresh_from_db()
        state = load_state(match)
        if state.deal_index >= deal_index:
            return state
        action = {k: v for k, v in state.legal_actions(state.to_act)[0].to_record().items() if k != "seat"}
        perform(match.pk, player_at(match, state.to_act), action, match.version)


def _running_row(html, table_id):
    found = re.search(rf'<tr class="running-row" data-table-id="{table_id}">(.*?)</tr>', html, re.DOTALL)
    return found.group(1) if found else None


# --- the lobby's matches being played --------------------------------------------------------

@pytest.mark.django_db
def test_the_lobby_lists_running_matches_with_players_ratings_deal_and_watchers(client):
    japanese, (tamar, _levan) = _match(target=31)  # a first deal cannot end it
    Rating.objects.create(player=tamar, variant="japanese", mu=30.0, sigma=2.0, rated_matches=12)
    _play_to_deal(japanese, 1)
    bots = table_service.create_table(make_player("ana"), TableSettings(variant="classic", game_type="short",
                                                                        fill_with_bots=True))
    watcher, other = make_player("nino"), make_player("dato")
    spectators.came(japanese.table_id, watcher)
    spectators.came(japanese.table_id, watcher)  # a second tab of the same person counts once
    spectators.came(japanese.table_id, other)
    spectators.came(japanese.table_id, None)  # a visitor without a session

    html = client.get("/en/lobby/").content.decode()
    row = _running_row(html, japanese.table_id)
    assert row is not None and "Japanese Joker" in row
    assert "tamar" in row and "levan" in row
    assert f">{shown_value(30.0, 2.0)}<" in row  # tamar's rating, not provisional any more
    assert row.count("rating-badge") == 2  # levan's newcomer rating too
    assert re.search(r'class="running-deal">2<', row)  # the second deal is being played
    assert re.search(r"class=\"running-spectators\"><svg class=\"eye-icon\"[^>]*>.*?</svg> 3<", row)
    assert f'class="watch-link" href="/en/tables/{japanese.table_id}/"' in row  # the match page's own address

    practice = _running_row(html, bots.pk)
    assert "Bot 2" in practice and practice.count("rating-badge") == 1  # ana's; bots have none
    assert re.search(r'class="running-deal">1 of 12<', practice)
    assert "</svg> 0<" in practice


@pytest.mark.django_db
def test_the_lobby_lists_only_the_matches_this_player_may_watch():
    creator, friend, stranger = make_player("host"), make_player("pal"), make_player("nobody")
    make_friends(creator, friend)
    guest = make_guest()
    open_match, _ = _match(names=("o1", "o2"))
    closed, _ = _match(names=("c1", "c2"), allow_spectators=False)
    friends_only, _ = _match(players=[creator, make_player("f2")], visibility=Visibility.FRIENDS)
    password, _ = _match(players=[creator, make_player("p2")], visibility=Visibility.PASSWORD, password="lemon")

    def listed(player):
        return {item.table.pk for item in running_matches(player)}

    assert listed(stranger) == {open_match.table_id}
    assert listed(guest) == listed(None) == {open_match.table_id}
    assert listed(friend) == {open_match.table_id, friends_only.table_id, password.table_id}
    mine = {item.table.pk: item.mine for item in running_matches(creator)}
    assert mine == {open_match.table_id: False, friends_only.table_id: True, password.table_id: True}
    # A player of a table without spectators still finds it (to go back to it).
    assert closed.table_id in listed(player_at(closed, 0))


@pytest.mark.django_db
def test_the_home_page_leaves_out_matches_that_may_not_be_watched(client):
    shown, _ = _match(names=("h1", "h2"))
    hidden, _ = _match(names=("h3", "h4"), allow_spectators=False)
    html = client.get("/en/").content.decode()
    assert f"/en/tables/{shown.table_id}/" in html and f"/en/tables/{hidden.table_id}/" not in html


# --- the table option ---------------------------------------------------------------------

@pytest.mark.django_db
def test_the_table_form_offers_spectators_on_by_default_and_turns_them_off(client):
    assert 'name="allow_spectators"' in client.get("/en/tables/new/?variant=classic").content.decode()
    client.post("/en/tables/new/", {"variant": "japanese", "target": "11", "stake": "0", "visibility": "open",
                                    "clock_seconds": "30"})  # an unticked box is not sent
    client.post("/en/tables/new/", {"variant": "japanese", "target": "11", "stake": "0", "visibility": "open",
                                    "clock_seconds": "30", "allow_spectators": "on"})
    assert list(Table.objects.order_by("pk").values_list("allow_spectators", flat=True)) == [False, True]


@pytest.mark.django_db
def test_a_rematch_keeps_the_spectators_option():
    match, (tamar, _levan) = _match(allow_spectators=False)
    from games.services.matches import resign

    resign(match.pk, tamar)
    rematch = table_service.offer_rematch(match.table_id, tamar)
    assert rematch.allow_spectators is False


# --- refusals on the page ------------------------------------------------------------------

def _words(language, text):
    with translation.override(language):
        return translation.gettext(text)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ka", "ru", "en"])
def test_a_refused_watcher_gets_a_page_in_their_language(client, language):
    match, _ = _match(allow_spectators=False)
    response = client.get(f"/{language}/tables/{match.table_id}/")
    assert response.status_code == 403
    html = response.content.decode()
    sentence = _words(language, "The players of this table asked to play without spectators.")
    assert sentence in html and 'data-code="spectators_off"' in html
    if language != "en":
        assert sentence != "The players of this table asked to play without spectators."
    assert not CARD_TOKEN.search(re.sub(r"<[^>]+>", " ", html).replace("Joker", ""))


@pytest.mark.django_db
def test_who_may_open_the_match_page_of_each_kind_of_table(client):
    creator, friend, stranger = make_player("host"), make_player("pal"), make_player("nobody")
    make_friends(creator, friend)
    partner = make_player("partner")
    friends_only, _ = _match(players=[creator, partner], visibility=Visibility.FRIENDS)
    password, _ = _match(players=[partner, creator], visibility=Visibility.PASSWORD, password="lemon")
    closed, _ = _match(players=[creator, make_player("c2")], allow_spectators=False)

    def status(player, match):
        if player is None:
            client.logout()
        else:
            client.force_login(player.user)
        return client.get(f"/en/tables/{match.table_id}/").status_code

    assert status(friend, friends_only) == 200 and status(stranger, friends_only) == 403
    assert status(None, friends_only) == 403
    # A password table: the friends of a member seated there (here creator sits at seat 1).
    assert status(friend, password) == 200 and status(None, password) == 403
    assert status(stranger, password) == 403
    assert 'data-code="password_table"' in client.get(f"/en/tables/{password.table_id}/").content.decode()
    # No spectators: not even a friend; the players still play there.
    assert status(friend, closed) == 403 and status(creator, closed) == 200


@pytest.mark.django_db
def test_the_waiting_room_of_a_table_without_spectators_stays_open_to_find_a_seat(client):
    table = table_service.create_table(make_player("host"), TableSettings(variant="japanese",
                                                                         allow_spectators=False))
    response = client.get(f"/en/tables/{table.pk}/")
    assert response.status_code == 200 and "Sit down" in response.content.decode()


@pytest.mark.django_db
def test_a_finished_match_without_spectators_shows_its_end_to_anyone(client):
    match, (tamar, _levan) = _match(allow_spectators=False)
    from games.services.matches import resign

    resign(match.pk, tamar)
    assert client.get(f"/en/tables/{match.table_id}/").status_code == 200


# --- refusals on the page's socket ---------------------------------------------------------

@sync_to_async
def _async_match(**kw):
    return _match(**kw)


@sync_to_async
def _async_player(name):
    return make_player(name)


async def _closed_with(communicator, code):
    message = await communicator.receive_output(timeout=5)
    while message["type"] == "websocket.send":
        message = await communicator.receive_output(timeout=5)
    assert message == {"type": "websocket.close", "code": code}


@pytest.mark.parametrize("options, code", [({"allow_spectators": False}, "spectators_off"),
                                           ({"visibility": "password", "password": "lemon"}, "password_table")])
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_page_socket_refuses_a_watcher_in_their_language_and_closes(options, code):
    match, _ = await _async_match(names=("s1", "s2"), **options)
    stranger = await _async_player("stranger")
    socket = await connect(match.table_id, stranger, language="ru")
    frame = await socket.receive_from(timeout=5)
    assert f'data-code="{code}"' in frame and 'id="match" hx-swap-oob="true"></div>' in frame
    assert "Find another table" not in frame and _words("ru", "Find another table in the lobby") in frame
    assert not cards_in(frame.replace("Joker", ""))
    await _closed_with(socket, 4403)
    assert await sync_to_async(Spectator.objects.count)() == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_watcher_in_the_waiting_room_is_refused_when_the_match_starts_without_spectators():
    host, second, stranger = [await _async_player(n) for n in ("w1", "w2", "w3")]
    table = await sync_to_async(table_service.create_table)(host, TableSettings(variant="japanese",
                                                                                allow_spectators=False))
    socket = await connect(table.pk, stranger)
    assert 'id="seat-list"' in await socket.receive_from(timeout=5)  # the waiting room, open to all
    assert await sync_to_async(spectators.count)(table.pk) == 1
    await sync_to_async(table_service.sit)(table.pk, second)
    frames = []
    while True:
        message = await socket.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            assert message["code"] == 4403
            break
        frames.append(message["text"])
    assert any('data-code="spectators_off"' in f for f in frames)
    assert not any('id="match" class=' in f for f in frames)  # the position itself was never sent
    assert await sync_to_async(spectators.count)(table.pk) == 0


# --- refusals over the JSON protocol ---------------------------------------------------------

@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_protocol_watch_is_refused_the_same_way_and_changes_nothing():
    (host, _), (pal, pal_token), (_stranger, stranger_token) = [
        await make_program_player(n) for n in ("pw_host", "pw_pal", "pw_stranger")]
    await sync_to_async(make_friends)(host, pal)
    partner = await _async_player("pw_partner")
    closed, _ = await _async_match(players=[host, partner], allow_spectators=False)
    friends_only, _ = await _async_match(players=[host, await _async_player("pw_f")], visibility="friends")
    password, _ = await _async_match(players=[await _async_player("pw_p"), host], visibility="password",
                                     password="lemon")
    watcher = await ProgramClient.connect(stranger_token)
    for match, code in ((closed, "spectators_off"), (friends_only, "friends_only"), (password, "password_table")):
        for message in ({"type": "watch", "table": match.table_id, "id": 1}, {"type": "watch", "match": match.pk},
                        {"type": "resync", "table": match.table_id}):
            await watcher.send(message)
            error = await watcher.receive_type("error")
            assert error["code"] == code and error["in_reply_to"] == message["type"], error
            assert error["message"] and code not in error["message"]
    await watcher.send({"type": "watch"})
    assert (await watcher.receive_type("error"))["code"] == "bad_message"
    await watcher.send({"type": "watch", "table": 10 ** 9})
    assert (await watcher.receive_type("error"))["code"] == "no_such_table"
    assert await sync_to_async(Spectator.objects.count)() == 0
    await watcher.nothing_more()

    friend = await ProgramClient.connect(pal_token)
    for match in (friends_only, password):
        await friend.send({"type": "watch", "table": match.table_id, "id": "w"})
        state = await friend.receive_type("state")
        assert state["id"] == "w" and state["view"]["seat"] is None and state["view"]["hand"] == []
        assert state["view"]["legal_actions"] == []
    await friend.send({"type": "watch", "table": closed.table_id})
    assert (await friend.receive_type("error"))["code"] == "spectators_off"
    await friend.close()
    await watcher.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_protocol_watcher_of_a_waiting_table_is_told_when_its_match_starts_without_spectators():
    (_host, host_token), (other, _), (_s, stranger_token) = [
        await make_program_player(n) for n in ("pq_host", "pq_other", "pq_stranger")]
    creator = await ProgramClient.connect(host_token)
    await creator.send({"type": "create_table", "variant": "japanese",
                        "options": {"allow_spectators": False, "target": 11}})
    room = await creator.receive_type("table")
    assert room["allow_spectators"] is False
    watcher = await ProgramClient.connect(stranger_token)
    await watcher.send({"type": "watch", "table": room["table"]})
    assert (await watcher.receive_type("table"))["table"] == room["table"]
    await sync_to_async(table_service.sit)(room["table"], other)
    error = await watcher.receive_type("error")
    assert error["code"] == "spectators_off"
    assert not [m for m in watcher.received if m["type"] == "state"]
    assert await sync_to_async(spectators.count)(room["table"]) == 0
    await watcher.close()
    await creator.close()


# --- how many watch ---------------------------------------------------------------------

async def _count_frame(communicator):
    """The next spectator count sent alone (out of band) to a page."""
    while True:
        frame = await communicator.receive_from(timeout=5)
        if 'id="spectator-count"' in frame and 'hx-swap-oob="true"' in frame and 'id="match" ' not in frame:
            found = COUNT.search(frame)
            return int(found.group(1)), frame


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_players_see_the_count_go_up_and_down_as_spectators_come_and_go():
    match, (tamar, levan) = await _async_match(names=("cu1", "cu2"))
    page = await connect(match.table_id, tamar, language="ka")
    first = await page.receive_from(timeout=5)
    assert COUNT.search(first).group(1) == "0" and 'id="spectator-count"' in first
    (_program, token) = await make_program_player("cu_prog")
    nino = await _async_player("cu_nino")

    tab1 = await connect(match.table_id, nino)
    count, frame = await _count_frame(page)
    assert count == 1
    with translation.override("ka"):
        label = translation.ngettext("%(n)s person watching", "%(n)s people watching", 1) % {"n": 1}
    assert f'aria-label="{label}"' in frame and "</svg> 1</span>" in frame and label != "1 person watching"
    tab2 = await connect(match.table_id, nino)  # a second tab: still one person
    assert (await _count_frame(page))[0] == 1
    visitor = await connect(match.table_id, None)
    assert (await _count_frame(page))[0] == 2
    watcher = await ProgramClient.connect(token)
    await watcher.send({"type": "watch", "match": match.pk})
    await watcher.receive_type("state")
    assert (await _count_frame(page))[0] == 3
    # The players' programs are told too.
    player_program = await ProgramClient.connect(await sync_to_async(_token_for)(levan))
    await player_program.send({"type": "resync", "match": match.pk})
    await player_program.receive_type("state")
    await tab1.disconnect()
    assert (await _count_frame(page))[0] == 3
    assert (await player_program.receive_type("spectators"))["count"] == 3
    await tab2.disconnect()
    assert (await _count_frame(page))[0] == 2
    assert (await player_program.receive_type("spectators")) == {"type": "spectators", "table": match.table_id,
                                                                  "count": 2}
    await visitor.disconnect()
    assert (await _count_frame(page))[0] == 1
    await watcher.close()
    assert (await _count_frame(page))[0] == 0
    assert await sync_to_async(Spectator.objects.count)() == 0
    # A player's own connections are never counted.
    assert await sync_to_async(spectators.count)(match.table_id) == 0
    await player_program.close()
    await page.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_position_after_a_move_made_elsewhere_shows_the_count_the_page_was_last_told():
    # The move is made by the services directly, as in another web process or a clock
    # task: this process draws its position from the read it holds and the move's notice,
    # and the count comes from what it was told since, not from that older read.
    match, (tamar, _levan) = await _async_match(names=("ce1", "ce2"))
    page = await connect(match.table_id, tamar, language="ru")
    assert COUNT.search(await page.receive_from(timeout=5)).group(1) == "0"
    watcher = await connect(match.table_id, await _async_player("ce_nino"))
    assert (await _count_frame(page))[0] == 1
    for step in range(3):
        outcome = await sync_to_async(random_move)(await sync_to_async(fresh)(match), random.Random(step))
        while True:
            frame = await page.receive_from(timeout=5)
            if f'data-version="{outcome.version}"' in frame:
                break
        assert COUNT.search(frame).group(1) == "1", f"after move {step + 1}"
    await watcher.disconnect()
    assert (await _count_frame(page))[0] == 0
    outcome = await sync_to_async(random_move)(await sync_to_async(fresh)(match), random.Random(9))
    while f'data-version="{outcome.version}"' not in (frame := await page.receive_from(timeout=5)):
        pass
    assert COUNT.search(frame).group(1) == "0"
    await page.disconnect()


def _token_for(player):
    from accounts.tokens import create_token

    return create_token(player.user, "bot")[1]


@pytest.mark.django_db
def test_watchers_of_a_web_process_that_died_stop_counting_and_a_live_process_removes_them(monkeypatch):
    match, _ = _match(names=("d1", "d2"))
    announced = []
    monkeypatch.setattr(spectators.broadcast, "group_send",
                        lambda group, message: message["type"] == "spectators.changed" and announced.append(message))
    alive = spectators.came(match.table_id, make_player("alive"))
    dead = spectators.came(match.table_id, make_player("dead"))
    assert spectators.count(match.table_id) == 2
    # The dead process never beats again: its row ages; this process's beat keeps its own fresh.
    spectators._rows.release(dead)
    Spectator.objects.update(seen_at=timezone.now() - timedelta(seconds=60))
    spectators.beat()
    assert spectators.count(match.table_id) == 1  # at once, before anyone removes the row
    announced.clear()
    heartbeat.beat_once()  # what every live web process does on its heartbeat
    assert list(Spectator.objects.values_list("pk", flat=True)) == [alive]
    assert announced == [{"type": "spectators.changed", "table": match.table_id, "count": 1}]
    heartbeat.beat_once()  # nothing more to remove: nothing announced
    assert len(announced) == 1
    # A process that was only stalled writes its row again at its next beat.
    Spectator.objects.all().delete()
    spectators.beat()
    assert spectators.count(match.table_id) == 1
    spectators.went(alive)
    assert spectators.count(match.table_id) == 0 and not Spectator.objects.exists()


def test_the_heartbeat_runs_the_spectators_beat_and_their_sweep_of_dead_processes():
    assert spectators._rows in heartbeat._kinds
    assert spectators._remove_rows_of_dead_processes in heartbeat._hooks


# --- a spectator's every frame ------------------------------------------------------------

@sync_to_async
def _browser_table(variant, names, **options):
    players = [make_player(n) for n in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, **options))
    return table, players


@sync_to_async
def _fill(table, players):
    for player in players[1:]:
        table_service.sit(table.pk, player)


@pytest.mark.parametrize("variant, names, options, seed", [
    ("japanese", ("bj1", "bj2"), {"target": 11}, 3),
    ("classic", ("bc1", "bc2", "bc3", "bc4"), {"game_type": "short"}, 17),
])
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_spectators_page_receives_only_public_cards_over_a_whole_match(variant, names, options, seed):
    table, players = await _browser_table(variant, names, **options)
    await _fill(table, players)
    member = await _async_player(f"watch_{variant}")
    frames = []
    match, _state, _latest = await play_whole_match_in_browsers(
        table, players, random.Random(seed), spectators=[member, None], frames_seen=frames)
    assert match.status == MatchStatus.FINISHED
    positions = [f for f in frames if 'id="match" class=' in f]
    assert len(positions) >= 2 * match.version  # both spectators saw every position
    # A spectator holds no cards: their page has no hand at all (not an empty one).
    assert all("spectating" in f and 'class="hand' not in f for f in positions)
    # The spectator saw the played cards (public), so the check above had something to check.
    assert set().union(*(cards_in(f) for f in positions))
    assert all("You are watching this match." in f for f in positions[:-2])


@pytest.mark.parametrize("variant, names, options, seed", [
    ("japanese", ("pj1", "pj2"), {"target": 11}, 5),
    ("classic", ("pc1", "pc2", "pc3", "pc4"), {"game_type": "short"}, 19),
])
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_protocol_watcher_receives_only_public_cards_over_a_whole_match(variant, names, options, seed):
    players = [await make_program_player(n) for n in names]
    clients = [await ProgramClient.connect(token) for _player, token in players]
    await clients[0].send({"type": "create_table", "variant": variant, "options": options})
    room = await clients[0].receive_type("table")
    _watcher, watcher_token = await make_program_player(f"pwatch_{variant}")
    watcher = await ProgramClient.connect(watcher_token)
    await watcher.send({"type": "watch", "table": room["table"]})  # from the waiting room on
    await watcher.receive_type("table")
    for seat, client in enumerate(clients[1:], start=1):
        await client.send({"type": "join_table", "table": room["table"], "seat": seat})
    first = [await c.receive_type("state") for c in clients]
    match, _state, _last = await play_whole_match(clients, first[0]["match"], first[0]["version"],
                                                random.Random(seed), spectators=[watcher])
    assert match.status == MatchStatus.FINISHED


def test_the_one_check_finds_a_hand_card_in_a_spectators_frame():
    """The check itself: a frame naming a card in someone's hand is caught (seat None)."""
    from games.engine import JapaneseState, deal_from_deck, shuffled_deck

    state = JapaneseState({"target": 11})
    deal_from_deck(state, shuffled_deck(random.Random(1)))
    while state.phase.value != "play":
        state.apply(state.legal_actions(state.to_act)[0])
    held = state.hand(1)[0]
    assert leaked({held}, state, None) == {held}
    face_up = state.view(None)["columns"][0][0]["up"]
    assert leaked({face_up}, state, None) == set()
