"""Notices in the header: a friend request, an invitation and "your table is full, the
match started" each make one notice, pushed live to the reader's pages and kept until
read; marking read is the reader's only, and bad input changes nothing."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from accounts.friends import send_friend_request
from games.models import Seat
from games.services import tables as table_service
from games.services.tables import TableSettings
from notices import notify
from notices.models import Notice, NoticeKind
from tests.factories import make_player
from tests.social_support import client_of, english, forget_site_holds, frames_until, open_page  # noqa: F401


@pytest.mark.django_db
def test_a_friend_request_makes_one_notice_kept_until_read():
    nino, levan = make_player("nino"), make_player("levan")
    send_friend_request(nino.user, levan.user)
    send_friend_request(nino.user, levan.user)  # asked again: changes nothing
    notice = Notice.objects.get()
    assert (notice.user_id, notice.kind, notice.actor_id) == (levan.user_id, NoticeKind.FRIEND_REQUEST, nino.user_id)
    client = client_of(levan)
    page = client.get("/en/lobby/").content.decode()
    assert "nino asks to be your friend." in page
    assert page.count("nino asks to be your friend.") == 1
    again = client.get("/en/").content.decode()
    assert "nino asks to be your friend." in again, "kept until read"
    assert notify.unread_count(levan.user_id) == 1
    assert notify.unread_count(nino.user_id) == 0

    assert client.post("/en/notices/read/", {"notice": notice.pk}).status_code == 302
    assert Notice.objects.get().read_at is not None
    assert "nino asks to be your friend." not in client.get("/en/lobby/").content.decode()
    assert notify.unread_count(levan.user_id) == 0


@pytest.mark.django_db
def test_only_the_reader_marks_a_notice_read_and_bad_input_changes_nothing():
    nino, levan, eka = make_player("nino"), make_player("levan"), make_player("eka")
    send_friend_request(nino.user, levan.user)
    notice = Notice.objects.get()
    intruder = client_of(eka)
    intruder.post("/en/notices/read/", {"notice": notice.pk})
    intruder.post("/en/notices/read/")  # "all" of eka's: none of levan's
    assert Notice.objects.get().read_at is None
    reader = client_of(levan)
    for bad in ("x", "-1", "1" * 20, "1; drop"):
        assert reader.post("/en/notices/read/", {"notice": bad}).status_code == 400
    assert reader.get("/en/notices/read/").status_code == 405
    assert Client().post("/en/notices/read/").status_code == 403
    assert Notice.objects.get().read_at is None


@pytest.mark.django_db
def test_mark_all_read_through_htmx_answers_the_empty_list():
    levan = make_player("levan")
    for name in ("nino", "eka", "dato"):
        send_friend_request(make_player(name).user, levan.user)
    client = client_of(levan)
    page = client.get("/en/lobby/").content.decode()
    assert 'id="notices-count"' in page and ">3</span>" in page.split('id="notices-count"')[1][:200]
    answer = client.post("/en/notices/read/", HTTP_HX_REQUEST="true").content.decode()
    assert "No new notices." in answer and 'hx-swap-oob="true"' in answer
    assert notify.unread_count(levan.user_id) == 0


@pytest.mark.django_db(transaction=True)
def test_the_match_started_notice_goes_once_to_members_away_from_the_table():
    host, away, here = make_player("host"), make_player("away"), make_player("here")
    table = table_service.create_table(host, TableSettings(variant="classic", rated=False))
    table_service.sit(table.pk, away)
    Seat.objects.filter(table=table, player=host).update(connections=1)  # the host has the table open
    table_service.sit(table.pk, here)
    Seat.objects.filter(table=table, player=here).update(connections=1)
    fourth = make_fourth_at(table)  # the fourth seat fills the table: the match starts
    assert table_service.Table.objects.get(pk=table.pk).status == "playing"
    # Not to those with the table open; the fourth, who sat by a form post, lands on the table next.
    assert set(Notice.objects.values_list("user_id", "kind")) == {
        (away.user_id, NoticeKind.MATCH_STARTED), (fourth.user_id, NoticeKind.MATCH_STARTED)}
    assert notify.match_started(table.pk) == 0, "made once"
    assert Notice.objects.count() == 2
    client = client_of(away)
    assert "Your table is full: the match has started (Classic Joker)." in client.get("/en/lobby/").content.decode()
    client.get(f"/en/tables/{table.pk}/")  # opening the table reads it
    assert Notice.objects.get(user=away.user).read_at is not None
    assert Notice.objects.get(user=fourth.user).read_at is None


def make_fourth_at(table):

    member = make_player("fourth")
    table_service.sit(table.pk, member)
    return member


@pytest.mark.django_db(transaction=True)
def test_a_practice_table_filled_with_bots_makes_no_notice():
    host = make_player("host")
    table_service.create_table(host, TableSettings(variant="japanese", fill_with_bots=True, rated=False))
    assert not Notice.objects.exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_notice_arrives_live_on_every_open_page_and_goes_when_read():
    nino, levan = await sync_to_async(make_player)("nino"), await sync_to_async(make_player)("levan")
    page, ok, _code = await open_page(levan, language="ru")
    other_tab, ok2, _code = await open_page(levan, language="en")
    assert ok and ok2
    await frames_until(page, 'id="notices-list"')
    await frames_until(other_tab, 'id="notices-list"')
    await sync_to_async(send_friend_request)(nino.user, levan.user)
    frames = await frames_until(page, "nino")
    assert "хочет с вами дружить" in frames[-1], "in the page's own language"
    assert "Новое уведомление" in frames[-1], "said aloud to a screen reader"
    frames = await frames_until(other_tab, "nino asks to be your friend.")
    await sync_to_async(notify.mark_read)(levan.user_id)
    frames = await frames_until(page, "Нет новых уведомлений.")
    await page.disconnect()
    await other_tab.disconnect()


@pytest.mark.django_db
def test_a_friend_request_answered_or_withdrawn_takes_its_notice_away():
    from accounts.friends import accept_friend_request, cancel_friend_request, decline_friend_request

    nino, levan, eka, dato = (make_player(n) for n in ("nino", "levan", "eka", "dato"))
    send_friend_request(nino.user, levan.user)
    send_friend_request(eka.user, levan.user)
    send_friend_request(dato.user, levan.user)
    send_friend_request(nino.user, dato.user)
    assert notify.unread_count(levan.user_id) == 3
    accept_friend_request(levan.user, nino.user)
    decline_friend_request(levan.user, eka.user)
    cancel_friend_request(dato.user, levan.user)
    assert notify.unread_count(levan.user_id) == 0
    assert Notice.objects.count() == 4, "kept, read"
    send_friend_request(dato.user, nino.user)  # crossing requests: accepted at once
    assert notify.unread_count(dato.user_id) == 0
