"""Table chat in the browser: two players and a spectator at one Japanese table, one player
reading Georgian on a phone, the other Russian on a desktop. A quick phrase shows in each
reader's language, the spectator's words never reach the players, a report is taken, and
the closed chat covers none of the phone's cards."""

import re

import pytest
from playwright.sync_api import expect

from e2e.deals import deal_seed
from e2e.layout import PHONE, PHONE_LANDSCAPE, PHONE_ZOOMED_150, assert_nothing_cut_off
from e2e.match_play import MATCH
from e2e.tables import seat_members
from e2e.test_browser_match_on_a_phone import expect_every_hand_card_within_reach

# A wide desktop keeps the chat as a column beside the table (static/css/chat.css); at 1366 px
# and below it is the phone's button and sheet, as test_browser_table's laptop sizes show.
DESKTOP = {"viewport": {"width": 1600, "height": 900}}
CHAT_LOG = "#chat-log"
SCROLLS_BY_ITSELF = [".score-scroll", ".chat-log"]


def messages(page):
    return page.locator(f"{CHAT_LOG} > li")


def make_chat_moderator(username):
    """The member becomes a moderator: staff, in the Moderators group with the chat permissions."""
    from django.contrib.auth import get_user_model

    from tests.moderation_support import moderators_group

    group = moderators_group()
    user = get_user_model().objects.get(username=username)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(group)


def send_phrase(page, key):
    page.locator(f'#chat .chat-phrase[data-phrase="{key}"]').click()


def send_text(page, text):
    page.locator("#chat-text").fill(text)
    page.locator("#chat .chat-form button[type=submit]").click()


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_two_players_and_a_spectator_chat_at_one_table_each_in_their_own_room_and_language(new_member, snap):
    phone = new_member("tamar", **PHONE)  # Georgian
    desktop = new_member("levan", locale="ru-RU", **DESKTOP)  # Russian
    spectator = new_member("nino", **DESKTOP)
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=120)
    phone.goto(f"/ka/tables/{table_id}/")
    desktop.goto(f"/ru/tables/{table_id}/")
    spectator.goto(f"/ka/tables/{table_id}/")
    for page in (phone, desktop, spectator):
        expect(page.locator(MATCH)).to_have_attribute("data-version", "1")

    # On the phone the chat is a button: every card of the hand stays within reach.
    expect(phone.locator("#chat .chat-toggle")).to_be_visible()
    expect(phone.locator("#chat-sheet")).to_be_hidden()
    expect_every_hand_card_within_reach(phone, phone.locator(f"{MATCH} .hand .card-button").count())
    assert_nothing_cut_off(phone, allow=SCROLLS_BY_ITSELF)
    # On the desktop it is a column beside the table, titled for the room.
    expect(desktop.locator("#chat-title")).to_have_text("Чат игроков")
    expect(spectator.locator("#chat-title")).to_have_text("მაყურებლების ჩატი")

    # A quick phrase from the Georgian phone reads in Russian on the desktop.
    phone.locator("#chat .chat-toggle").click()
    expect(phone.locator("#chat-sheet")).to_be_visible()
    snap(phone, "phone-ka-chat-open-empty")
    send_phrase(phone, "good_luck")
    expect(messages(phone).last).to_contain_text("წარმატებები!")
    expect(messages(desktop).last).to_contain_text("Удачи!")
    expect(messages(desktop).last).to_contain_text("tamar")

    # A text from the desktop: the phone, its chat closed, counts it as unread.
    phone.locator("#chat .chat-close").click()
    expect(phone.locator("#chat-sheet")).to_be_hidden()
    send_text(desktop, "Спасибо, и тебе удачи!")
    expect(messages(desktop).last).to_contain_text("Спасибо, и тебе удачи!")
    expect(desktop.locator("#chat-text")).to_have_value("")
    expect(phone.locator("#chat .chat-unread")).to_have_text("1")
    snap(phone, "phone-ka-unread")

    # The spectator's words stay in the spectators' room.
    send_phrase(spectator, "well_played")
    send_text(spectator, "levan holds both jokers")
    expect(messages(spectator)).to_have_count(2)
    expect(messages(spectator).first).to_contain_text("კარგად ითამაშე!")
    phone.wait_for_timeout(700)  # time enough for a message to have arrived, had it been sent
    expect(messages(phone)).to_have_count(2)
    expect(messages(desktop)).to_have_count(2)
    for page in (phone, desktop):
        expect(page.locator(CHAT_LOG)).not_to_contain_text("jokers")
    snap(spectator, "desktop-ka-spectator")

    # A word the filter catches is shown to its author only, who is told.
    send_text(desktop, "ты сука")
    expect(messages(desktop).last).to_contain_text("видите только вы")
    phone.wait_for_timeout(500)
    expect(messages(phone)).to_have_count(2)

    # Reporting a message: the reporter is thanked, the button becomes a mark.
    phone.locator("#chat .chat-toggle").click()
    expect(phone.locator("#chat .chat-unread")).to_be_hidden()
    phone.locator(f"{CHAT_LOG} > li").nth(1).locator(".chat-report").click()
    expect(phone.locator("#chat-status")).to_contain_text("მადლობა")
    expect(phone.locator(f"{CHAT_LOG} > li").nth(1).locator(".chat-reported")).to_be_visible()
    snap(phone, "phone-ka-chat-open")
    snap(desktop, "desktop-ru")

    # Flood control: a burst is refused with a clear sentence.
    for _ in range(4):  # within the burst's 5 seconds, whatever was said before
        send_phrase(desktop, "thanks")
    expect(desktop.locator("#chat-status.error")).to_contain_text(re.compile("Не так быстро"))

    # The other sizes: the Russian reader on a phone, the Georgian on a desktop.
    desktop.set_viewport_size(PHONE["viewport"])
    desktop.reload()
    expect(desktop.locator(MATCH)).to_have_attribute("data-version", "1")
    # The history of the players' room: the filtered message is its author's own; no spectator's word.
    expect(messages(desktop).first).to_contain_text("Удачи!")
    expect(desktop.locator(f"{CHAT_LOG} > li.filtered")).to_have_count(1)
    expect(desktop.locator(CHAT_LOG)).not_to_contain_text("jokers")
    desktop.locator("#chat .chat-toggle").click()
    assert_nothing_cut_off(desktop, allow=SCROLLS_BY_ITSELF)
    snap(desktop, "phone-ru-chat-open")
    desktop.locator("#chat .chat-close").click()
    snap(desktop, "phone-ru-chat-closed")
    phone.set_viewport_size(DESKTOP["viewport"])
    phone.reload()
    expect(phone.locator(MATCH)).to_have_attribute("data-version", "1")
    expect(phone.locator("#chat-sheet")).to_be_visible()
    expect(messages(phone).first).to_contain_text("წარმატებები!")
    snap(phone, "desktop-ka")

    # The moderator finds tamar's report in the queue, with what was said around it, and hides
    # the message: it leaves the open pages at once.
    moderator = new_member("eka", **DESKTOP)
    make_chat_moderator("eka")
    moderator.goto("/admin/chat/chatreport/")
    expect(moderator.locator("#result_list")).to_contain_text("Спасибо, и тебе удачи!")
    snap(moderator, "admin-ka-report-queue")
    moderator.locator("#result_list tbody tr a").first.click()
    expect(moderator.locator(".field-context")).to_contain_text("წარმატებები!")
    snap(moderator, "admin-ka-report")
    moderator.locator("a.moderation-action", has_text="შეტყობინების დამალვა").first.click()
    moderator.locator("textarea[name=reason]").fill("უხეში სიტყვა")
    moderator.locator("input[type=submit]").click()
    expect(moderator.locator("#audit-log")).to_contain_text("უხეში სიტყვა")
    expect(phone.locator(CHAT_LOG)).not_to_contain_text("Спасибо, и тебе удачи!")
    expect(desktop.locator(CHAT_LOG)).not_to_contain_text("Спасибо, и тебе удачи!")


def test_what_was_said_while_a_phones_socket_was_closed_arrives_when_it_opens(new_member, snap):
    """The phone's page is drawn but its socket has not reached the server yet (Playwright
    holds it: what a phone in a tunnel or a slow handshake does); the other player says a
    phrase meanwhile. Once the socket reaches the server, the phrase is there, in Russian,
    counted as unread on the closed chat button."""
    host = new_member("tamar", **DESKTOP)
    phone = new_member("levan", locale="ru-RU", **PHONE)
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=120)
    held = []
    phone.route_web_socket(re.compile(r"/ws/table/"), lambda socket: held.append(socket))
    host.goto(f"/ka/tables/{table_id}/")
    phone.goto(f"/ru/tables/{table_id}/")
    expect(host.locator(MATCH)).to_have_attribute("data-version", "1")
    expect(phone.locator(MATCH)).to_have_attribute("data-version", "1")
    while not held:
        phone.wait_for_timeout(30)
    send_phrase(host, "one_moment")
    expect(messages(host).last).to_contain_text("ერთი წუთით, თუ შეიძლება.")
    phone.wait_for_timeout(300)  # the phrase has gone to every socket in the room by now
    expect(messages(phone)).to_have_count(0)

    held[0].connect_to_server()
    expect(messages(phone).last).to_contain_text("Минутку, пожалуйста.")
    expect(phone.locator("#chat .chat-unread")).to_have_text("1")
    snap(phone, "phone-ru-caught-up-unread")
    phone.locator("#chat .chat-toggle").click()
    expect(phone.locator("#chat .chat-unread")).to_be_hidden()
    snap(phone, "phone-ru-caught-up-open")


def test_a_message_hidden_while_a_phones_socket_was_closed_goes_from_the_page_when_it_opens(new_member, snap):
    """The phone's page is drawn with the one message of the room; its socket is held back
    while a moderator hides that message, so the live removal never reaches it. When the
    socket opens the room has nothing left to show, and the page drops the message and says
    so, in Russian."""
    from django.utils import timezone

    from accounts.models import Player
    from chat import services
    from chat.models import ChatMessage

    new_member("tamar", **DESKTOP)  # the author, whose page stays closed
    phone = new_member("levan", locale="ru-RU", **PHONE)
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=120)
    tamar = Player.objects.get(user__username="tamar")
    rude = services.post(table_id, tamar, text="a word the moderators will hide")
    held = []
    phone.route_web_socket(re.compile(r"/ws/table/"), lambda socket: held.append(socket))
    phone.goto(f"/ru/tables/{table_id}/")
    expect(messages(phone)).to_have_count(1)
    while not held:
        phone.wait_for_timeout(30)
    ChatMessage.objects.filter(pk=rude.pk).update(hidden_at=timezone.now())

    held[0].connect_to_server()
    expect(messages(phone)).to_have_count(0)
    phone.locator("#chat .chat-toggle").click()
    expect(phone.locator("#chat .chat-empty")).to_be_visible()
    expect(phone.locator("#chat .chat-empty")).to_have_text("Сообщений пока нет.")
    snap(phone, "phone-ru-hidden-message-gone")


SEAT_TWO_EMBEDDED_MEMBERS = """
from accounts.players import player_for_user
from django.contrib.auth import get_user_model
from games.services import tables
from games.services.tables import TableSettings

host, guest = (player_for_user(get_user_model().objects.get(username=name)) for name in ("tamar", "levan"))
table = tables.create_table(host, TableSettings(variant="japanese", clock_seconds=120))
tables.sit(table.pk, guest)
print(table.pk)
"""


@pytest.mark.embedded_site
def test_under_make_run_the_chat_is_live_and_its_flood_limit_holds(live_site, new_embedded_member, snap):
    host, guest = new_embedded_member("tamar", **DESKTOP), new_embedded_member("levan", locale="ru-RU", **DESKTOP)
    table_id = int(live_site.run_python(SEAT_TWO_EMBEDDED_MEMBERS).strip().splitlines()[-1])
    host.goto(f"/ka/tables/{table_id}/")
    guest.goto(f"/ru/tables/{table_id}/")
    for page in (host, guest):
        expect(page.locator(MATCH)).to_have_attribute("data-version", "1")
    send_phrase(host, "one_moment")
    expect(messages(guest).last).to_contain_text("Минутку, пожалуйста.")
    expect(messages(host).last).to_contain_text("ერთი წუთით, თუ შეიძლება.")
    for _ in range(4):
        send_phrase(guest, "hurry_please")
    expect(guest.locator("#chat-status.error")).to_contain_text("Не так быстро")
    expect(messages(host)).to_have_count(4)  # one phrase and the three of the burst
    snap(guest, "embedded-ru")


# The smallest phones still in use (an iPhone SE of the first generation); a larger phone with
# the system's font made larger lays the sheet out alike.
SMALL_PHONE = PHONE | {"viewport": {"width": 320, "height": 568}, "screen": {"width": 320, "height": 568}}


def test_on_a_small_phone_the_chats_field_is_within_reach(new_member, snap):
    """On a 320×568 phone in Georgian the open chat's log, its five rows of quick phrases and the
    field are taller than the sheet (62 % of the screen): the field lay below the screen's edge,
    out of reach. Now the sheet scrolls, and the field is reached and used as a finger would."""
    page = new_member("nino", **SMALL_PHONE)
    table_id = seat_members("japanese", ["nino"], fill_with_bots=True, clock_seconds=120)
    page.goto(f"/ka/tables/{table_id}/")
    page.locator("#chat .chat-toggle").click()
    field = page.locator("#chat-text")
    field.fill("გამარჯობა, ბოტო!")  # scrolled into view first, as a finger scrolls; out of reach it times out
    page.locator("#chat .chat-form button[type=submit]").click()
    expect(messages(page).last).to_contain_text("გამარჯობა, ბოტო!")
    box = field.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 568, box
    snap(page, "small-phone-ka-chat")


# How much of an element of the open chat shows (px, top to bottom): inside the screen, the
# sheet's box (which scrolls) and, for a message, the log's (which scrolls too).
_SHOWN_IN_THE_SHEET = """(el) => {
  const box = el.getBoundingClientRect();
  const sheet = el.closest('.chat-sheet').getBoundingClientRect();
  const log = el.closest('#chat-log')?.getBoundingClientRect() || sheet;
  const top = Math.max(box.top, log.top, sheet.top, 0), bottom = Math.min(box.bottom, log.bottom, sheet.bottom, innerHeight);
  return Math.max(0, bottom - top);
}"""


SHORT_SCREENS = {"zoomed-150": (PHONE_ZOOMED_150, "ka", "გამარჯობა, ბოტო! კარგ თამაშს გისურვებ.", "კარგი თამაში იყო!"),
                 "landscape": (PHONE_LANDSCAPE, "ru", "Привет, бот! Хорошей игры.", "Хорошая игра!")}


def _wholly_shown(page, selector):
    element = page.locator(selector)
    return element.evaluate(_SHOWN_IN_THE_SHEET) >= element.bounding_box()["height"] - 1


@pytest.mark.parametrize("screen", list(SHORT_SCREENS))
def test_on_a_zoomed_or_sideways_phone_what_was_said_stays_in_sight_above_the_field(new_member, snap, screen):
    """A 360-px phone zoomed to 150 % (240×493 CSS px) in Georgian: the quick phrases took eight
    rows, the sheet scrolled to the field, and the log (what the others said, what one just sent)
    lay above the screen. A phone held sideways (844×390) in Russian: the sheet scrolled too, its
    heading and × above its top. Now the phrases are one row that scrolls sideways (and the
    sideways phone's sheet is taller): the message just sent is in sight with the field and the
    ×, and a phrase past the edge is reached by scrolling the row."""
    size, language, text, good_game = SHORT_SCREENS[screen]
    page = new_member("nino", **size)
    table_id = seat_members("japanese", ["nino"], fill_with_bots=True, clock_seconds=120)
    page.goto(f"/{language}/tables/{table_id}/")
    page.locator("#chat .chat-toggle").click()
    send_text(page, text)
    expect(messages(page).last).to_contain_text(text)
    shown = messages(page).last.evaluate(_SHOWN_IN_THE_SHEET)
    assert shown >= 20, f"the message just sent shows {shown:.0f} px of itself"
    assert _wholly_shown(page, "#chat-text") and _wholly_shown(page, "#chat .chat-close")
    send_phrase(page, "good_game")  # the row's last phrase: scrolled to, as a finger scrolls the row
    expect(messages(page).last).to_contain_text(good_game)
    snap(page, f"{screen}-{language}-chat")
