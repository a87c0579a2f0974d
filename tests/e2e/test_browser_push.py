""""Your move" reaches a member's phone as a push only while no page of the match is in sight,
end to end: the "Notify me" button on the notifications page, the served site, its Celery
worker, and a push service of the test's own (tests/push_service.py) that checks the VAPID
signature and decrypts the payload with the subscription's keys, as a browser does.

The device's subscription is written by the test (a browser's is made with its vendor's push
service, which the site accepts only over https; tests/test_push.py checks the page's
subscribing): everything after it — the match page, the server, the worker, the site's key,
the encryption — is the real thing. The page is put out of sight as a browser does when its tab goes to the background:
`document.hidden` becomes true and `visibilitychange` fires, so the match page's own script
tells the server (static/js/match.js, "whether the page is in sight")."""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from e2e.match_play import (
    MATCH,
    expect_move_answered,
    expect_table_at_rest,
    is_my_turn,
    make_a_move,
    version_of,
)
from e2e.tables import seat_members
from tests.push_service import PushService, SubscribedBrowser, check_vapid, unb64url

# What a browser does when its tab goes to the background.
_OUT_OF_SIGHT = """
() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}
"""
PUSH_ARRIVES_WITHIN_SECONDS = 30
WORDS = {
    "ka": {"title": "თქვენი სვლა", "body": "მაგიდასთან"},
    "ru": {"title": "Ваш ход", "body": "за столом"},
}


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def _subscribed_member(new_member, push_service, username, language):
    """A member of `language` with a device subscribed to the test's push service, and the
    site's public key as the notifications page gives it to the browser."""
    from django.contrib.auth import get_user_model

    from accounts.models import Player

    page = new_member(username, locale={"ka": "ka-GE", "ru": "ru-RU"}[language])
    Player.objects.filter(user__username=username).update(language=language)
    device = SubscribedBrowser(push_service, username)
    device.subscribe(get_user_model().objects.get(username=username))
    page.goto(f"/{language}/notifications/")
    expect(page.locator("#devices-title + ul.people li")).to_have_count(1)
    site_key = unb64url(page.locator(".push-subscribe").get_attribute("data-key"))
    return page, device, site_key


def _until_my_turn(page):
    expect(page.locator(f"{MATCH}.my-turn")).to_have_count(1)
    expect_table_at_rest(page)


def _one_move_then_my_turn_again(page):
    """The member moves; the bot answers until it is the member's move again."""
    version = version_of(page)
    make_a_move(page)
    expect_move_answered(page, version)
    _until_my_turn(page)


def _pushes_after(push_service, moment, count):
    deadline = time.monotonic() + PUSH_ARRIVES_WITHIN_SECONDS
    while len(push_service.received) < count and time.monotonic() < deadline:
        time.sleep(0.1)  # the worker's POST arrives on the service's own thread
    return [when for when in push_service.received_at if when >= moment]


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_your_move_comes_as_a_push_only_while_no_page_of_the_match_is_in_sight(
        new_member, live_site, push_service, snap, language):
    page, device, site_key = _subscribed_member(new_member, push_service, "tamar", language)
    table_id = seat_members("japanese", ["tamar"], fill_with_bots=True, rated=False)
    page.goto(f"/{language}/tables/{table_id}/")
    _until_my_turn(page)

    # In sight: the bot's answers make it the member's move twice, and nothing is pushed.
    _one_move_then_my_turn_again(page)
    _one_move_then_my_turn_again(page)
    assert push_service.received == []

    # Out of sight: the next time the bot makes it the member's move, the phone is told.
    page.evaluate(_OUT_OF_SIGHT)
    hidden_at = time.time()
    _one_move_then_my_turn_again(page)
    assert is_my_turn(page)
    arrived = _pushes_after(push_service, hidden_at, 1)
    assert len(arrived) == 1 and len(push_service.received) == 1, push_service.received_at

    path, headers, body = push_service.received[0]
    assert path == "/push/tamar"
    check_vapid(headers, push_service.origin, public_key=site_key)
    told = device.read(body)
    assert told["kind"] == "your_move" and told["lang"] == language
    assert told["url"] == f"/{language}/tables/{table_id}/"
    assert told["title"] == WORDS[language]["title"]
    assert WORDS[language]["body"] in told["body"] and str(table_id) in told["body"]
    assert not re.search(r"\b[2-9TJQKA][shdc]\b|[♠♥♦♣]", json.dumps(told, ensure_ascii=False))  # no card
    snap(page, f"{language}-told-while-away")
