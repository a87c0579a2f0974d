"""Web Push (push/, docs/push.md) against a real push service of the test's own: a local HTTP
endpoint that checks the VAPID JWT (ES256, signed by the site's key, for its own origin) and
decrypts the aes128gcm payload with the subscription's keys, as a browser's push service
and the browser do. Nothing of the protocol is mocked."""

import json
import os

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.cache import cache

from accounts.models import Player
from push import notify
from push.models import MutedKind, Subscription
from push.tasks import deliver
from tests.factories import make_player
from tests.push_service import PushService, SubscribedBrowser, b64url, check_vapid, site_public_key, unb64url

pytestmark = pytest.mark.django_db


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def eager_celery():
    """Tasks run in the caller, as soon as they are queued (the worker's work, in the test)."""
    from joker_site.celery import app

    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def member(username, language):
    player = make_player(username)
    Player.objects.filter(pk=player.pk).update(language=language)
    return player.user


def test_a_friends_invitation_reaches_the_device_encrypted_signed_and_in_the_members_language(push_service):
    nino = member("nino", "ka")
    browser = SubscribedBrowser(push_service, "nino-phone")
    browser.subscribe(nino)
    assert deliver(nino.pk, "friend_invites", 17, {"friend": "levan"}) == 1
    [(path, headers, body)] = push_service.received
    assert path == "/push/nino-phone"
    check_vapid(headers, push_service.origin)
    assert body[:4] != b"{" and browser.read(body) == {
        "kind": "friend_invites", "title": "მოწვევა", "body": "levan გეპატიჟებათ მაგიდასთან №17.",
        "url": "/ka/tables/17/", "tag": "friend_invites:17", "lang": "ka",
    }


@pytest.mark.parametrize("kind, language, expected", [
    ("your_move", "ru", {"title": "Ваш ход", "body": "Ваш ход за столом № 5.", "url": "/ru/tables/5/"}),
    ("match_starts", "ka", {"title": "თქვენი მატჩი იწყება", "body": "მაგიდა №5 შეივსო: თქვენი მატჩი იწყება.",
                            "url": "/ka/tables/5/"}),
    ("quickplay_found", "ru", {"title": "Партия найдена", "body": "Ваша быстрая партия готова за столом № 5.",
                               "url": "/ru/tables/5/"}),
])
def test_each_kind_says_its_words_in_the_members_language_and_holds_no_card(push_service, kind, language, expected):
    user = member("tamar", language)
    browser = SubscribedBrowser(push_service, "tamar")
    browser.subscribe(user)
    deliver(user.pk, kind, 5, {})
    [(_path, headers, body)] = push_service.received
    check_vapid(headers, push_service.origin)
    message = browser.read(body)
    assert {key: message[key] for key in expected} == expected
    assert set(message) == {"kind", "title", "body", "url", "tag", "lang"}  # nothing else: no card, no hand


def test_every_device_of_the_member_gets_it_and_a_device_the_service_forgot_is_removed(push_service):
    nino = member("nino", "en")
    phone, laptop = SubscribedBrowser(push_service, "phone"), SubscribedBrowser(push_service, "laptop")
    phone.subscribe(nino)
    laptop.subscribe(nino)
    assert deliver(nino.pk, "match_starts", 3, {}) == 2
    assert {phone.read(body)["title"] for _p, _h, body in push_service.received[:1]} == {"Your match starts"}

    push_service.status = 410  # the browser unsubscribed: the service says Gone
    assert deliver(nino.pk, "match_starts", 3, {}) == 0
    assert not Subscription.objects.filter(user=nino).exists()


@pytest.mark.parametrize("status", [404, 410])
def test_only_gone_answers_remove_a_subscription(push_service, status):
    nino = member("nino", "en")
    SubscribedBrowser(push_service, "phone").subscribe(nino)
    push_service.status = 500  # the service is down for a while: keep the device
    deliver(nino.pk, "match_starts", 3, {})
    assert Subscription.objects.filter(user=nino).count() == 1
    push_service.status = status
    deliver(nino.pk, "match_starts", 3, {})
    assert Subscription.objects.filter(user=nino).count() == 0


def test_a_muted_kind_is_not_sent(push_service):
    nino = member("nino", "en")
    SubscribedBrowser(push_service, "phone").subscribe(nino)
    MutedKind.objects.create(user=nino, kind="friend_invites")
    assert deliver(nino.pk, "friend_invites", 3, {"friend": "levan"}) == 0
    assert push_service.received == []


def test_your_move_is_sent_once_per_match_in_thirty_seconds_and_never_while_its_page_is_visible(
        push_service, eager_celery, django_capture_on_commit_callbacks):
    cache.delete_many([f"push:your-move:{m}:{u}" for m in (8, 9) for u in range(1, 1000)])
    nino = member("nino", "ru")
    browser = SubscribedBrowser(push_service, "phone")
    browser.subscribe(nino)
    with django_capture_on_commit_callbacks(execute=True):
        assert notify.your_move(nino.pk, match_id=8, table_id=4, match_page_visible=True) is False
        assert notify.your_move(nino.pk, match_id=8, table_id=4, match_page_visible=False) is True
        assert notify.your_move(nino.pk, match_id=8, table_id=4, match_page_visible=False) is False
        assert notify.your_move(nino.pk, match_id=9, table_id=6, match_page_visible=False) is True
    assert [browser.read(body)["url"] for _p, _h, body in push_service.received] == ["/ru/tables/4/", "/ru/tables/6/"]
    # The throttle is a cache key that lives PUSH_YOUR_MOVE_SECONDS: once gone, the next move is sent.
    cache.delete(f"push:your-move:8:{nino.pk}")
    with django_capture_on_commit_callbacks(execute=False):
        assert notify.your_move(nino.pk, match_id=8, table_id=4, match_page_visible=False) is True


def test_nothing_is_queued_for_a_member_without_a_device():
    nino = member("nino", "en")
    assert notify.send(nino.pk, "match_starts", 3) is False
    assert notify.your_move(nino.pk, match_id=8, table_id=3, match_page_visible=False) is False


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown push kind 'tournament'"):
        notify.send(1, "tournament", 3)


# --- The member's page, the subscription the browser sends, and the wiring -------------------

def browser_subscription(endpoint="https://push.example.net/send/abc"):
    key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": b64url(key), "auth": b64url(os.urandom(16))}}


def logged_in(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36"


def test_a_member_subscribes_a_device_sees_it_and_removes_it():
    nino = member("nino", "ka")
    client = logged_in(nino)
    page = client.get("/ka/notifications/").content.decode()
    from push.keys import application_server_key

    assert f'data-key="{application_server_key()}"' in page and "შემატყობინე" in page
    assert unb64url(application_server_key()) == site_public_key()
    response = client.post("/ka/notifications/subscribe/", json.dumps(browser_subscription()),
                           content_type="application/json", HTTP_USER_AGENT=ANDROID_CHROME)
    assert response.status_code == 201
    subscription = Subscription.objects.get(user=nino)
    assert subscription.device == "Android · Chrome"
    assert "Android · Chrome" in client.get("/ka/notifications/").content.decode()
    assert client.post(f"/ka/notifications/devices/{subscription.pk}/remove/").status_code == 302
    assert not Subscription.objects.exists()


def test_a_member_cannot_remove_another_members_device():
    nino, levan = member("nino", "en"), member("levan", "en")
    logged_in(levan).post("/en/notifications/subscribe/", json.dumps(browser_subscription()),
                          content_type="application/json")
    [subscription] = Subscription.objects.all()
    assert logged_in(nino).post(f"/en/notifications/devices/{subscription.pk}/remove/").status_code == 404
    assert Subscription.objects.filter(user=levan).count() == 1


@pytest.mark.parametrize("body, message", [
    ("not json", "Send the subscription as JSON."),
    (json.dumps({"endpoint": "https://push.example.net/x"}), "an endpoint and its keys"),
    (json.dumps({**browser_subscription("http://push.example.net/x")}), "must be an https address"),
    (json.dumps({**browser_subscription(), "keys": {"p256dh": "BAAA", "auth": b64url(os.urandom(16))}}),
     "not a P-256 public key"),
    (json.dumps({**browser_subscription(), "keys": {**browser_subscription()["keys"], "auth": "c2hvcnQ"}}),
     "must be 16 bytes"),
    (json.dumps({**browser_subscription(), "keys": {**browser_subscription()["keys"], "auth": "!!"}}),
     "is not base64url"),
])
def test_a_subscription_the_browser_could_not_have_made_is_refused_and_nothing_kept(body, message):
    response = logged_in(member("nino", "en")).post("/en/notifications/subscribe/", body,
                                                    content_type="application/json")
    assert response.status_code == 400 and message in response.json()["error"]
    assert not Subscription.objects.exists()


def test_a_visitor_cannot_subscribe():
    from django.test import Client

    response = Client().post("/en/notifications/subscribe/", json.dumps(browser_subscription()),
                             content_type="application/json")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Subscription.objects.exists()


def test_the_member_chooses_the_kinds_and_an_unknown_kind_changes_nothing():
    nino = member("nino", "en")
    client = logged_in(nino)
    client.post("/en/notifications/kinds/", {"kind": ["your_move", "quickplay_found"]})
    muted = {"match_starts", "friend_invites", "tournament_starts"}
    assert set(MutedKind.objects.filter(user=nino).values_list("kind", flat=True)) == muted
    client.post("/en/notifications/kinds/", {"kind": ["your_move", "poker_night"]})
    assert set(MutedKind.objects.filter(user=nino).values_list("kind", flat=True)) == muted


def test_a_friends_invitation_reaches_the_invitees_device(push_service, eager_celery,
                                                          django_capture_on_commit_callbacks):
    """notices.invitations.invite sends the kind once the invitation is committed."""
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from notices import invitations
    from tests.factories import make_friends

    host, nino = make_player("levan"), make_player("nino")
    make_friends(host, nino)
    browser = SubscribedBrowser(push_service, "nino")
    browser.subscribe(nino.user)
    table = table_service.create_table(host, TableSettings(variant="japanese"))
    with django_capture_on_commit_callbacks(execute=True):
        invitations.invite(table.pk, host, nino.user)
    [(_path, _headers, body)] = push_service.received
    assert browser.read(body)["body"] == f"levan გეპატიჟებათ მაგიდასთან №{table.pk}."


def test_a_quickplay_pairing_reaches_both_members_devices(push_service, eager_celery,
                                                          django_capture_on_commit_callbacks):
    """quickplay.services sends the kind to each member it seats, once the pairing is committed."""
    from quickplay import services

    tamar, levan = make_player("tamar"), make_player("levan")
    Player.objects.filter(pk=levan.pk).update(language="ru")
    browsers = {"tamar": SubscribedBrowser(push_service, "tamar"), "levan": SubscribedBrowser(push_service, "levan")}
    browsers["tamar"].subscribe(tamar.user)
    browsers["levan"].subscribe(levan.user)
    services.join(tamar, "japanese", 0)
    with django_capture_on_commit_callbacks(execute=True):
        table = services.join(levan, "japanese", 0).table
    read = {path.rsplit("/", 1)[1]: browsers[path.rsplit("/", 1)[1]].read(body) for path, _h, body in push_service.received}
    assert read["levan"]["body"] == f"Ваша быстрая партия готова за столом № {table.pk}."
    assert read["tamar"]["url"] == f"/ka/tables/{table.pk}/" and read["tamar"]["kind"] == "quickplay_found"


def test_a_table_that_fills_tells_the_waiting_member_away_from_it_that_the_match_starts(
        push_service, eager_celery, django_capture_on_commit_callbacks):
    """push/receivers.py hears games' MatchStarted: each seated member without the table open."""
    from games.services import tables as table_service
    from games.services.tables import TableSettings

    host, guest_of_the_table = make_player("levan"), make_player("nino")
    Player.objects.filter(pk=host.pk).update(language="ru")
    browser = SubscribedBrowser(push_service, "levan")
    browser.subscribe(host.user)
    table = table_service.create_table(host, TableSettings(variant="japanese"))
    with django_capture_on_commit_callbacks(execute=True):
        table_service.sit(table.pk, guest_of_the_table)
    [(_path, _headers, body)] = push_service.received
    told = browser.read(body)
    assert told["kind"] == "match_starts" and told["url"] == f"/ru/tables/{table.pk}/"


def test_a_practice_table_with_bots_tells_nobody_that_its_match_starts(
        push_service, eager_celery, django_capture_on_commit_callbacks):
    from games.services import tables as table_service
    from games.services.tables import TableSettings

    host = make_player("levan")
    SubscribedBrowser(push_service, "levan").subscribe(host.user)
    with django_capture_on_commit_callbacks(execute=True):
        table_service.create_table(host, TableSettings(variant="japanese", fill_with_bots=True, rated=False))
    assert push_service.received == []


def test_a_member_whose_match_page_is_out_of_sight_is_told_it_is_their_move_and_one_looking_is_not(
        push_service, eager_celery, django_capture_on_commit_callbacks):
    """games announces TurnBegan with how many of the seat's pages are in sight (the pages say,
    games/services/presence.py); push/receivers.py tells a member none of whose pages is."""
    import random

    from games.models import Seat
    from games.services import presence
    from games.services.matches import load_state
    from tests.replay_helpers import fresh, random_move, seated_match

    match, (_tamar, levan) = seated_match("japanese", ("tamar", "levan"))
    seat = Seat.objects.get(table_id=match.table_id, player=levan)
    cache.delete_many([f"seat-pages-in-sight:{seat.pk}", f"push:your-move:{match.pk}:{levan.user_id}"])
    browser = SubscribedBrowser(push_service, "levan")
    browser.subscribe(levan.user)
    rng = random.Random(2)

    def moves_until_levans_turn():
        """Moves until one of tamar's makes it levan's turn."""
        for _ in range(40):
            current = fresh(match)
            by_tamar = load_state(current).to_act != seat.index
            with django_capture_on_commit_callbacks(execute=True):
                random_move(current, rng)
            if by_tamar and load_state(fresh(match)).to_act == seat.index:
                return
        raise AssertionError("it never became levan's turn")

    presence.page_in_sight(seat.pk, True)  # levan looks at the match
    moves_until_levans_turn()
    moves_until_levans_turn()
    assert push_service.received == []
    presence.page_in_sight(seat.pk, False)  # ... and switches to another app
    moves_until_levans_turn()
    [(_path, _headers, body)] = push_service.received
    told = browser.read(body)
    assert told["kind"] == "your_move" and told["url"] == f"/ka/tables/{match.table_id}/"
    moves_until_levans_turn()  # within PUSH_YOUR_MOVE_SECONDS: not again
    assert len(push_service.received) == 1


def test_a_database_gone_just_after_the_move_costs_the_push_alone_and_logs_no_traceback(
        push_service, monkeypatch, caplog, django_capture_on_commit_callbacks):
    """CI once stopped PostgreSQL between a move's commit and its push: the push's query failed
    and its traceback filled the log (joker_site/db_outage.py says an outage once)."""
    import random

    from django.db.utils import OperationalError

    from games.models import Seat
    from games.services import presence
    from games.services.matches import load_state
    from tests.replay_helpers import fresh, random_move, seated_match

    match, (_tamar, levan) = seated_match("japanese", ("tamar", "levan"))
    seat = Seat.objects.get(table_id=match.table_id, player=levan)
    SubscribedBrowser(push_service, "levan").subscribe(levan.user)
    presence.page_in_sight(seat.pk, False)

    def database_away(*args, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(notify, "your_move", database_away)
    rng = random.Random(2)
    for _ in range(40):
        before = fresh(match)
        if load_state(before).to_act == seat.index:
            break
        with django_capture_on_commit_callbacks(execute=True):
            random_move(before, rng)
        assert fresh(match).version == before.version + 1  # the move is kept
    else:
        raise AssertionError("it never became levan's turn")
    assert push_service.received == []
    assert not [record for record in caplog.records if record.exc_info], caplog.text


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_seats_page_says_whether_it_is_in_sight_and_a_malformed_word_changes_nothing():
    """The match page's socket (games/consumers.py): in sight from its connection, out of sight
    when it says so, and nothing counted once it closes; `visible` must be true or false."""
    import json as json_module

    from asgiref.sync import sync_to_async

    from games.models import Seat
    from games.services import presence
    from tests.live_clients import connect
    from tests.replay_helpers import seated_match

    match, (tamar, _levan) = await sync_to_async(seated_match)("japanese", ("tamar", "levan"))
    seat = await sync_to_async(Seat.objects.get)(table_id=match.table_id, player=tamar)
    await sync_to_async(cache.delete)(f"seat-pages-in-sight:{seat.pk}")
    page = await connect(match.table_id, tamar)
    await page.receive_from(timeout=5)  # the position
    in_sight = sync_to_async(presence.pages_in_sight)
    assert await in_sight(seat.pk) == 1
    await page.send_to(text_data=json_module.dumps({"type": "visibility", "visible": "no"}))
    assert "true or false" in await page.receive_from(timeout=5)
    assert await in_sight(seat.pk) == 1
    await page.send_to(text_data=json_module.dumps({"type": "visibility", "visible": False}))
    await page.send_to(text_data=json_module.dumps({"type": "visibility", "visible": False}))  # said twice
    await page.send_to(text_data=json_module.dumps({"type": "resync"}))
    await page.receive_from(timeout=5)  # the frames before it were read
    assert await in_sight(seat.pk) == 0
    await page.send_to(text_data=json_module.dumps({"type": "visibility", "visible": True}))
    await page.send_to(text_data=json_module.dumps({"type": "resync"}))
    await page.receive_from(timeout=5)
    assert await in_sight(seat.pk) == 1
    await page.disconnect()
    assert await in_sight(seat.pk) == 0


def test_a_tournament_the_member_said_they_will_come_to_tells_their_device_once_with_its_page(
        push_service, eager_celery, django_capture_on_commit_callbacks):
    """tournaments.services.tell_those_coming: the kind carries the tournament's page, not a
    table's, and the schedule's name in the member's language; a doubled start tells nobody twice."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import services
    from tournaments.models import Status, Tournament

    tournament = Tournament.objects.create(name="Japanese evening arena", variant="japanese", rated=False,
                                           starts_at=timezone.now() - timedelta(seconds=1), status=Status.UPCOMING)
    nino = make_player("nino")
    Player.objects.filter(pk=nino.pk).update(language="ru")
    browser = SubscribedBrowser(push_service, "nino")
    browser.subscribe(nino.user)
    services.will_come(nino, tournament)
    with django_capture_on_commit_callbacks(execute=True):
        services.tick()
        services.tick()  # a doubled start
    [(_path, headers, body)] = push_service.received
    check_vapid(headers, push_service.origin)
    assert browser.read(body) == {
        "kind": "tournament_starts", "title": "Турнир начинается",
        "body": "Турнир «Вечерняя арена японского джокера» начался: приходите играть.",
        "url": f"/ru/tournaments/{tournament.pk}/", "tag": f"tournament_starts:{tournament.pk}", "lang": "ru"}


def test_whether_a_member_has_a_device_is_read_once_and_known_again_at_once_when_it_changes(
        push_service, django_assert_num_queries):
    """"Your move" asks at every turn; a query a turn cost the load test 15 % of its moves."""
    user = member("tamar", "ka")
    with django_assert_num_queries(1):
        assert notify.has_devices(user.pk) is False
        assert notify.has_devices(user.pk) is False  # known: no second query
    subscription = SubscribedBrowser(push_service, "tamar").subscribe(user)
    assert notify.has_devices(user.pk) is True  # a saved device is read afresh
    subscription.delete()
    assert notify.has_devices(user.pk) is False
