"""A hint and a deal's review in a real browser, on a 360×740 phone in Russian: the hint button
among the table's tools, the hint above the hand (covering no card), then the deal played out
and its review read in the deal's summary."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, PHONE_ZOOMED_150, assert_nothing_cut_off
from e2e.match_play import MATCH, boxes_of, expect_deal_line_whole, expect_table_at_rest, play_until
from e2e.test_browser_score_sheet import start_from_home

DESKTOP = {"viewport": {"width": 1366, "height": 768}}


def _overlap(a, b) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def ask_and_read_a_hint(page, button_name, label):
    hint_button = page.get_by_role("button", name=button_name)
    expect(hint_button).to_be_enabled()  # the player's move
    expect_table_at_rest(page)
    # Measured in one step in the page: a redraw between finding the button and measuring it
    # would leave a detached element to measure.
    box = page.evaluate("() => { const r = document.getElementById('hint-ask').getBoundingClientRect();"
                        " return {width: r.width, height: r.height}; }")
    assert box["width"] >= 44 and box["height"] >= 44, box
    hint_button.click()
    hint = page.locator(f"{MATCH} #match-hint")
    expect(hint).to_contain_text(label)
    hint_box = hint.bounding_box()
    for card in boxes_of(page, f"{MATCH} .hand .card-button"):
        assert not _overlap(hint_box, card), (hint_box, card)  # near the hand, over none of its cards
    return hint


def finish_the_deal_and_read_its_review(page, bid_words):
    summary = page.locator("#deal-summary")
    play_until([page], lambda: summary.count() > 0, max_moves=40)
    summary.locator(".deal-summary-line").click()
    review = page.locator("#deal-review")
    expect(review).to_contain_text(bid_words)  # the player's bid against the tricks
    return summary, review


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_hint_then_the_review_of_the_deal_in_russian(new_person, snap, viewport):
    page = new_person("lela", locale="ru-RU", **viewport)
    start_from_home(page, "ru", "classic_bots")
    ask_and_read_a_hint(page, "Подсказка", "Подсказка:")
    expect_deal_line_whole(page, "Раздача 1 из", viewport is PHONE)
    snap(page, "hint")
    summary, review = finish_the_deal_and_read_its_review(page, re.compile(r"Вы (сказали пас|заказали)"))
    expect(review.locator("h3")).to_have_text("Разбор вашей раздачи")
    snap(page, "review")
    summary.locator("[data-dismiss-summary]").click()
    expect(summary.locator(".deal-summary-sheet")).to_be_hidden()  # the table is the player's again


@pytest.mark.parametrize("viewport", [PHONE, PHONE_ZOOMED_150, DESKTOP], ids=["phone", "zoomed-150", "desktop"])
def test_a_hint_then_the_review_of_the_deal_in_georgian(new_person, snap, viewport):
    """Also on a phone zoomed to 150 % (240 px), where the summary's Total column once lay past
    the sheet's edge (at 288 px already)."""
    page = new_person("nana", locale="ka-GE", **viewport)
    start_from_home(page, "ka", "classic_bots")
    ask_and_read_a_hint(page, "მინიშნება", "მინიშნება:")
    expect_deal_line_whole(page, "დარიგება 1 /", viewport is not DESKTOP)
    snap(page, "hint")
    finish_the_deal_and_read_its_review(page, "თქვით")
    assert_nothing_cut_off(page, allow=[".site-nav ul"])  # the summary's every column on its sheet
    snap(page, "review")


# The table's socket tells the page it is open only when the test says so (a slow handshake).
_HOLD_THE_TABLES_OPEN_EVENT = """
class HeldSocket extends WebSocket {
  set onopen(handler) {
    if (!this.url.includes("/ws/table/")) { super.onopen = handler; return; }
    window.openTheTable = () => handler.call(this, new Event("open"));
  }
  get onopen() { return super.onopen; }
}
window.WebSocket = HeldSocket;
"""


def test_a_hint_tapped_before_the_tables_socket_has_opened_comes_once_it_opens(new_person):
    """The page's script has run and shows the hint button, but its socket has not opened yet
    (a slow handshake); a tap then was lost: a CI run waited for a hint that was never asked.
    It is kept, and asked when the socket opens."""
    page = new_person("eka", locale="ru-RU", **PHONE)
    start_from_home(page, "ru", "classic_bots")
    expect(page.get_by_role("button", name="Подсказка")).to_be_enabled()  # the player's move
    page.add_init_script(_HOLD_THE_TABLES_OPEN_EVENT)
    page.reload()
    hint_button = page.get_by_role("button", name="Подсказка")
    expect(hint_button).to_be_enabled()
    expect_table_at_rest(page)  # the page's script has run
    page.wait_for_function("() => typeof window.openTheTable === 'function'")
    hint_button.click()  # before the socket has said it is open
    page.wait_for_timeout(300)
    expect(page.locator(f"{MATCH} #match-hint")).to_have_text("")  # nothing could be asked yet
    page.evaluate("window.openTheTable()")
    expect(page.locator(f"{MATCH} #match-hint")).to_contain_text("Подсказка:")
