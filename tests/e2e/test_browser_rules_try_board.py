"""In a real browser: the try-it board plays out, and card faces fit a phone.

Browser tests run in their own pytest invocation: `pytest -m e2e tests/e2e`
(Playwright's sync API and pytest-asyncio do not share a process)."""

import pytest

from games.card_faces import render_cards
from rules_pages import content


def test_reader_plays_the_joker_board_and_sees_why(new_person):
    page = new_person("reader", viewport={"width": 390, "height": 844}, locale="en-GB")
    page.goto("/en/rules/classic/#try-it")
    board = page.locator("#example-try-joker-high")
    board.locator('.card-btn[data-card="9H"]').click()
    message = board.locator(".try-board__message")
    message.filter(has_text="not allowed").wait_for()
    legal = board.locator(".card-btn.is-legal")
    assert sorted(legal.evaluate_all("els => els.map(e => e.dataset.card)")) == ["QH", "X2"]
    assert board.locator(".try-board__why").is_visible()

    board.locator('.card-btn[data-card="X2"]').click()
    assert board.locator(".try-board__joker").is_visible()
    board.locator('.try-board__joker [data-mode="take"]').click()
    message.filter(has_text="You take the trick").wait_for()
    played = board.locator(".try-board__trick [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert played == ["X1", "X2", "AH", "7C"]

    board.locator(".try-board__reset").click()
    assert board.locator(".try-board__trick [data-card]").count() == 1
    assert board.locator(".card-btn:disabled").count() == 0


def rows_of(page, selector):
    boxes = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.top, r.right]; })"
    )
    return len({round(top) for top, _right in boxes}), max(right for _top, right in boxes)


def test_a_nine_card_hand_fits_a_360_px_phone_in_two_rows(new_person):
    page = new_person("reader", viewport={"width": 360, "height": 740})
    hand = render_cards(["AS", "KS", "TH", "9H", "X1", "QD", "7C", "JC", "X2"], "md")
    page.goto("/en/rules/")
    page.evaluate("html => { document.querySelector('main').innerHTML = html; }", str(hand))
    assert page.locator("main .card").count() == 9
    rows, right = rows_of(page, "main .card")
    assert rows <= 2 and right <= 360


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_no_rules_page_scrolls_sideways_on_a_360_px_phone(new_person, lang):
    page = new_person("reader", viewport={"width": 360, "height": 740})
    for path in [f"/{lang}/rules/"] + [f"/{lang}/rules/{slug}/" for slug in content.PAGE_SLUGS]:
        page.goto(path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
