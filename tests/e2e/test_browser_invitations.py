"""Friends online and an invitation accepted from the header, in Georgian and Russian.

Player A sits at a password table and invites friend B; B, on another page of the site
(the lobby), sees the notice arrive in the header's bell and as a banner with Accept and
Decline without reloading, and its "Sit down" seats B at the table without the password. A's friends page shows B online,
then playing now with a link to watch. Screenshots of the header with its notices and
of the friends page at 360×740 and 1366×768 in both languages; nothing cut off."""

import re
import threading

import pytest
from django.utils import translation
from playwright.sync_api import expect

from accounts.friends import accept_friend_request, send_friend_request
from accounts.players import player_for_user
from e2e.layout import PHONE, assert_nothing_cut_off
from games.models import Seat
from games.services import tables as table_service
from games.services.tables import TableSettings

DESKTOP = {"viewport": {"width": 1366, "height": 768}, "screen": {"width": 1366, "height": 768}}
LOCALES = {"ka": "ka-GE", "ru": "ru-RU"}
# Who looks at which size: each language sees the header and the friends page at both sizes.
LOOKS = {"ka": (DESKTOP, PHONE), "ru": (PHONE, DESKTOP)}  # (A's screen, B's screen)


def words(language, text):
    with translation.override(language):
        return translation.gettext(text)


def the_other_size(page, screen):
    """Each person is also seen at the other size (360×740 or 1366×768)."""
    page.set_viewport_size((DESKTOP if screen is PHONE else PHONE)["viewport"])


def bell(page):
    return page.locator("header .notices-menu")


def friends_menu(page):
    return page.locator("header .friends-menu")


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_a_friend_invited_to_a_password_table_sits_down_from_the_header(new_member, snap, language, live_site):
    a_screen, b_screen = LOOKS[language]
    host = new_member(f"anano_{language}", locale=LOCALES[language], **a_screen)
    friend = new_member(f"bachana_{language}", locale=LOCALES[language], **b_screen)
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    a_user, b_user = users.get(username=f"anano_{language}"), users.get(username=f"bachana_{language}")
    made = {}

    def set_up():  # in a thread of its own: Playwright's loop runs in this one, and the changes broadcast
        send_friend_request(a_user, b_user)
        accept_friend_request(b_user, a_user)  # answered: its notice is read
        send_friend_request(users.create_user(f"tsiuri_{language}"), b_user)  # still to answer
        made["table"] = table_service.create_table(player_for_user(a_user), TableSettings(
            variant="japanese", visibility="password", password="tbilisi-1958", rated=False))

    worker = threading.Thread(target=set_up)
    worker.start()
    worker.join()
    table = made["table"]

    # B is on the lobby: nobody online yet.
    friend.goto(f"/{language}/lobby/")
    expect(friends_menu(friend).locator("#friends-online-count")).to_contain_text("0")
    expect(bell(friend).locator("#notices-count")).to_contain_text("1")  # C's friend request

    # A opens the friends page: B is online there, and B's header sees A come, live.
    host.goto(f"/{language}/friends/")
    online_now = host.locator("#friends-online-section")
    expect(online_now.locator(".person")).to_have_text(f"bachana_{language}")
    expect(online_now).to_contain_text(words(language, "Online"))
    expect(friends_menu(friend).locator("#friends-online-count")).to_contain_text("1")
    snap(host, f"{language}-friends-page-friend-online")
    assert_nothing_cut_off(host)

    # A goes to the table and invites B; A's friend list then shows A waiting at a table.
    host.goto(f"/{language}/tables/{table.pk}/")
    panel = host.locator("#invite-panel")
    expect(panel).to_contain_text(words(language, "Invite a friend"))
    panel.get_by_role("button", name=re.compile(words(language, "Invite"))).click()
    expect(panel.locator(".invite-message")).to_contain_text(f"bachana_{language}")
    expect(panel.locator(".badge")).to_have_text(words(language, "Invited"))
    snap(host, f"{language}-table-friend-invited")

    # B, still on the lobby, sees the notice arrive in the bell without reloading.
    expect(bell(friend).locator("#notices-count")).to_contain_text("2")
    expect(friend.locator("#notices-announce")).not_to_be_empty()
    friends_menu(friend).locator("summary").click()
    expect(friends_menu(friend).locator("#friends-online-list")).to_contain_text(words(language, "Waiting at a table"))
    snap(friend, f"{language}-header-friends-online")
    assert_nothing_cut_off(friend)
    bell(friend).locator("summary").click()
    expect(friends_menu(friend)).not_to_have_attribute("open", "")
    notice = bell(friend).locator(".notice-invitation")
    with translation.override(language):
        invite_text = translation.gettext("%(name)s invites you to their table: %(variant)s.") % {
            "name": f"anano_{language}", "variant": translation.gettext("Japanese Joker")}
    expect(notice).to_contain_text(invite_text)
    # It is also a banner at the bottom of the page, arrived live, with Accept and Decline.
    banner = friend.locator("#invitation-banner")
    expect(banner).to_contain_text(invite_text)
    with translation.override(language):
        accept, decline = translation.pgettext("invitation", "Accept"), translation.pgettext("invitation", "Decline")
    expect(banner.get_by_role("button", name=accept)).to_be_visible()
    expect(banner.get_by_role("button", name=decline)).to_be_visible()
    buttons = banner.locator("button").evaluate_all("bs => bs.map(b => b.getBoundingClientRect().height)")
    assert min(buttons) >= 44, buttons
    snap(friend, f"{language}-header-notices")
    assert_nothing_cut_off(friend)
    the_other_size(friend, b_screen)
    snap(friend, f"{language}-header-notices-other-size")
    assert_nothing_cut_off(friend)

    # "Sit down" seats B (no password asked) and the two-seat table starts.
    notice.get_by_role("button", name=words(language, "Sit down")).click()
    expect(friend).to_have_url(re.compile(rf"/{language}/tables/{table.pk}/$"))
    expect(friend.locator("#match")).not_to_be_empty()
    assert Seat.objects.filter(table=table, player__user=b_user, left_at__isnull=True).exists()
    expect(bell(friend).locator(".notice-invitation")).to_have_count(0)
    expect(friend.locator("#invitation-banner section")).to_have_count(0)  # taken: no banner any more

    # A's friends page: B is playing now, with a link to watch the match.
    host.goto(f"/{language}/friends/")
    expect(online_now.locator(".friend-playing .person")).to_have_text(f"bachana_{language}")
    expect(online_now.locator(".friend-playing a.friend-go")).to_have_attribute("href", f"/{language}/tables/{table.pk}/")
    snap(host, f"{language}-friends-page-friend-playing")
    assert_nothing_cut_off(host)
    the_other_size(host, a_screen)
    snap(host, f"{language}-friends-page-friend-playing-other-size")
    assert_nothing_cut_off(host)
