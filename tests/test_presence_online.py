"""A member is online while at least one page of the site is open: counted per web
process (`SiteConnection`), lapsing when a process stops beating; friends see who is
online, playing now (a link to watch) or waiting at a table (a link to join), live."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.friends import block_user
from games.services import tables as table_service
from games.services.tables import TableSettings
from joker_site import heartbeat
from notices import presence
from notices.models import SiteConnection
from tests.factories import make_friends, make_player
from tests.social_support import client_of, english, forget_site_holds, frames_until, open_page  # noqa: F401


@pytest.mark.django_db
def test_online_with_the_first_page_and_offline_with_the_last():
    nino = make_player("nino")
    assert not presence.is_online(nino.user_id)
    presence.page_opened(nino.user_id)
    presence.page_opened(nino.user_id)  # a second tab
    assert presence.is_online(nino.user_id)
    presence.page_closed(nino.user_id)
    assert presence.is_online(nino.user_id), "one page is still open"
    presence.page_closed(nino.user_id)
    assert not presence.is_online(nino.user_id)
    assert not SiteConnection.objects.exists(), "the last page takes its row away"


@pytest.mark.django_db
def test_pages_in_two_processes_are_counted_apart():
    nino = make_player("nino")
    presence.page_opened(nino.user_id, process="web-1")
    presence.page_opened(nino.user_id, process="web-2")
    presence.page_closed(nino.user_id, process="web-1")
    assert presence.is_online(nino.user_id), "the page in the other process is still open"
    presence.page_closed(nino.user_id, process="web-1")  # a doubled close changes nothing
    assert SiteConnection.objects.get(process="web-2").connections == 1
    presence.page_closed(nino.user_id, process="web-2")
    assert not presence.is_online(nino.user_id)


@pytest.mark.django_db
def test_a_dead_process_pages_lapse_and_the_sweep_tells_friends(monkeypatch):
    nino, levan = make_player("nino"), make_player("levan")
    make_friends(nino, levan)
    presence.page_opened(nino.user_id, process="web-dead")
    presence.page_opened(nino.user_id, process="web-alive")
    presence.page_closed(nino.user_id, process="web-alive")
    long_ago = timezone.now() - timedelta(seconds=heartbeat.stale_seconds() + 1)
    SiteConnection.objects.filter(process="web-dead").update(seen_at=long_ago)  # it stopped beating then
    assert not presence.is_online(nino.user_id), "three missed beats: its pages no longer count"
    assert presence.friends_online(levan.user_id) == []
    told = []
    monkeypatch.setattr(presence, "tell_friends", told.append)
    assert presence.sweep_lapsed() == 1
    assert told == [nino.user_id]
    assert not SiteConnection.objects.exists()
    assert presence.sweep_lapsed() == 0, "a second sweep finds nothing"


@pytest.mark.django_db
def test_the_beat_keeps_this_process_pages_and_brings_back_a_swept_row():
    nino = make_player("nino")
    presence.page_opened(nino.user_id)
    long_ago = timezone.now() - timedelta(seconds=heartbeat.stale_seconds() + 5)
    SiteConnection.objects.update(seen_at=long_ago)  # the process stalled and missed its beats
    assert not presence.is_online(nino.user_id)
    presence.beat()  # it wakes up: its socket is still open
    assert presence.is_online(nino.user_id)
    SiteConnection.objects.update(seen_at=long_ago)
    presence.sweep_lapsed()
    assert not SiteConnection.objects.exists()
    presence.beat()
    row = SiteConnection.objects.get()
    assert (row.user_id, row.process, row.connections) == (nino.user_id, presence.this_process(), 1)
    presence.page_closed(nino.user_id)
    assert not presence.is_online(nino.user_id)


@pytest.mark.django_db
def test_friends_online_says_playing_waiting_or_online_and_only_for_friends():
    me, playing, waiting, idle, stranger, partner = (make_player(name) for name in (
        "me", "ani", "beka", "dato", "stranger", "partner"))
    for friend in (playing, waiting, idle):
        make_friends(me, friend)
    for who in (playing, waiting, idle, stranger, partner):
        presence.page_opened(who.user_id, process="web-1")
    running = table_service.create_table(playing, TableSettings(variant="japanese", rated=False))
    table_service.sit(running.pk, partner)
    open_table = table_service.create_table(waiting, TableSettings(variant="classic", rated=False))

    found = {status.user.username: status for status in presence.friends_online(me.user_id)}
    assert set(found) == {"ani", "beka", "dato"}, "a stranger's presence is not shown"
    assert found["ani"].state == presence.PLAYING and found["ani"].table_url == f"/en/tables/{running.pk}/"
    assert found["beka"].state == presence.WAITING and found["beka"].table_url == f"/en/tables/{open_table.pk}/"
    assert found["dato"].state == presence.ONLINE and found["dato"].table_url == ""
    assert [s.user.username for s in presence.friends_online(me.user_id)] == ["ani", "beka", "dato"]

    block_user(me.user, idle.user)
    assert "dato" not in {s.user.username for s in presence.friends_online(me.user_id)}


@pytest.mark.django_db
def test_the_friends_page_and_the_header_show_friends_online():
    me, ani, beka = make_player("me"), make_player("ani"), make_player("beka")
    make_friends(me, ani)
    make_friends(me, beka)
    presence.page_opened(ani.user_id, process="web-1")
    client = Client()
    client.force_login(me.user)
    page = client.get("/en/friends/").content.decode()
    section = page.split('id="friends-online-section"')[1].split("</section>")[0]
    assert "ani" in section and "beka" not in section
    header = page.split('id="friends-online-list"')[1].split("</ul>")[0]
    assert "ani" in header and "Online" in header
    assert 'ws-connect="/ws/notices/?lang=en&amp;friends=1"' in page
    other_page = client.get("/en/lobby/").content.decode()
    assert 'ws-connect="/ws/notices/?lang=en"' in other_page


@pytest.mark.django_db
def test_guests_and_visitors_get_no_social_header():
    assert "/ws/notices/" not in Client().get("/en/lobby/").content.decode()




@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_through_the_socket_a_friend_sees_me_come_and_go_with_my_last_page():
    me, friend = await sync_to_async(make_player)("me"), await sync_to_async(make_player)("tamar")
    await sync_to_async(make_friends)(me, friend)
    watcher, ok, _code = await open_page(friend, friends_page=True)
    assert ok
    first = await frames_until(watcher, 'id="friends-online-section"')
    assert "None of your friends is online now." in first[-1]

    page_one, ok, _code = await open_page(me)
    page_two, ok2, _code = await open_page(me)
    assert ok and ok2
    frames = await frames_until(watcher, ">me</a>")
    assert "Online" in frames[-1]
    assert await sync_to_async(presence.is_online)(me.user_id)

    await page_one.disconnect()
    assert await sync_to_async(presence.is_online)(me.user_id), "the other page is still open"
    await page_two.disconnect()
    assert not await sync_to_async(presence.is_online)(me.user_id)
    frames = await frames_until(watcher, "None of your friends is online now.")
    assert ">me</a>" not in frames[-1]
    await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_guest_or_visitor_socket_is_refused_and_counts_nobody():
    from tests.factories import make_guest

    guest = await sync_to_async(make_guest)()
    for who in (guest, None):
        _communicator, ok, code = await open_page(who)
        assert not ok and code == 4403
    assert not await sync_to_async(SiteConnection.objects.exists)()


@pytest.mark.django_db(transaction=True)
def test_the_beat_thread_refreshes_the_pages_this_process_holds(settings):
    import time

    settings.PRESENCE_BEAT_SECONDS = 0.2
    nino = make_player("nino")
    presence.page_opened(nino.user_id)
    long_ago = timezone.now() - timedelta(minutes=5)
    SiteConnection.objects.update(seen_at=long_ago)
    deadline = time.monotonic() + 5
    while SiteConnection.objects.get().seen_at == long_ago and time.monotonic() < deadline:
        time.sleep(0.05)
    assert SiteConnection.objects.get().seen_at > long_ago
    presence.page_closed(nino.user_id)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_words_and_links_a_friend_table_in_the_page_language():
    me, friend = await sync_to_async(make_player)("me"), await sync_to_async(make_player)("tamar")
    await sync_to_async(make_friends)(me, friend)
    table = await sync_to_async(table_service.create_table)(me, TableSettings(variant="japanese", rated=False))
    await sync_to_async(presence.page_opened)(me.user_id, "web-2")
    watcher, ok, _code = await open_page(friend, language="ru", friends_page=True)
    assert ok
    frames = await frames_until(watcher, 'id="friends-online-section"')
    assert f'href="/ru/tables/{table.pk}/"' in frames[-1] and "Ждёт за столом" in frames[-1]
    await watcher.disconnect()


@pytest.mark.django_db(transaction=True)
def test_pages_opened_and_closed_at_the_same_moment_are_all_counted():
    from tests.coins_helpers import race

    nino = make_player("nino")
    results = race(8, lambda _i: presence.page_opened(nino.user_id, process="web-1"))
    assert all(kind == "ok" for kind, _result in results), results
    assert SiteConnection.objects.get().connections == 8
    results = race(8, lambda _i: presence.page_closed(nino.user_id, process="web-1"))
    assert all(kind == "ok" for kind, _result in results), results
    assert not SiteConnection.objects.exists() and not presence.is_online(nino.user_id)
