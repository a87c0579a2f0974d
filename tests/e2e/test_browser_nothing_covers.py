"""When it is my turn nothing lies over what I need to act: my hand, the trick and the
action buttons are what a tap at their middles reaches (document.elementFromPoint), at
the start of a deal (the last deal's summary is one line where the trick will be, and its
sheet opens only when asked for), while I bid, and with a leading joker's menu open at
each of its two steps. On a 360×740 phone in Georgian and Russian and a 1366×768 desktop."""

import pytest
from playwright.sync_api import expect

from e2e.deals import deal_seed, joker_lead_seed
from e2e.layout import assert_nothing_cut_off
from e2e.match_play import MATCH, expect_newer_than, expect_table_at_rest, play_until, version_of
from e2e.test_browser_table import SCROLLS_BY_ITSELF, practice_table

LOOKS = [("phone-360", "ka"), ("phone-360", "ru"), ("desktop-1366", "ru")]
LOOK_IDS = [f"{size}-{language}" for size, language in LOOKS]
NEEDED = [".hand .card-button", ".trick", ".action-panel button"]

# For each element: what a tap at the middle of its visible part reaches (a card of the
# hand shows its left part when the next one overlaps it). The element itself or something
# inside it is fine; anything else lies over it.
_COVERED = """
(selectors) => selectors.flatMap((selector) => {
  const found = [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length);
  return found.flatMap((el, index) => {
    const box = el.getBoundingClientRect();
    const next = found[index + 1]?.getBoundingClientRect();
    const right = next && Math.abs(next.top - box.top) < box.height / 2 && next.left > box.left
      ? Math.min(box.right, next.left) : box.right;
    const x = (box.left + right) / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && el.contains(hit)) return [];
    const name = el.querySelector('[data-card]')?.dataset.card || el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 20);
    return [`${selector} "${name}" at (${Math.round(x)}, ${Math.round(y)}) is covered by ${
        hit ? hit.outerHTML.slice(0, 100) : 'nothing (off the screen)'}`];
  });
})
"""


def expect_nothing_over(page, selectors=NEEDED):
    expect_table_at_rest(page)
    covered = page.evaluate(_COVERED, [f"{MATCH} {selector}" for selector in selectors])
    assert not covered, "covered when it is my turn:\n  " + "\n  ".join(covered)


@pytest.mark.parametrize(("size", "language"), LOOKS, ids=LOOK_IDS)
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_at_the_start_of_a_deal_and_while_bidding_nothing_covers_the_hand_trick_or_bids(
        new_member, snap, size, language):
    page, _match_id = practice_table(new_member, size, language)
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(page.locator(MATCH)).to_have_attribute("data-phase", "bid")
    expect_nothing_over(page)
    snap(page, "first-bid")

    # The first deal played out: the next one starts with its summary where the trick will be.
    scored = page.locator(f"{MATCH} .score-sheet tr.deal-row:not(.current)")
    play_until([page], lambda: scored.count() > 0 and page.locator(f"{MATCH}.my-turn").count() > 0)
    summary = page.locator("#deal-summary")
    expect(summary.locator(".deal-summary-line")).to_be_visible()
    expect(summary.locator(".deal-summary-sheet")).to_be_hidden()
    assert page.evaluate("() => document.querySelector('.trick').contains(document.querySelector('#deal-summary'))")
    expect_nothing_over(page)
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
    snap(page, "deal-2-starts-with-the-summary-line")

    # Opened, the whole summary is a sheet; its column heads break between words only.
    summary.locator(".deal-summary-line").click()
    sheet = summary.locator(".deal-summary-sheet")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tbody tr")).to_have_count(4)
    assert not page.evaluate(_HEADS_BROKEN_MID_WORD), page.evaluate(_HEADS_BROKEN_MID_WORD)
    snap(page, "deal-2-summary-opened")
    sheet.locator("[data-dismiss-summary]").click()
    expect(sheet).to_be_hidden()

    # The line stays until the deal's first card; then the trick has the middle of the table.
    play_until([page], lambda: page.locator(f"{MATCH} .trick > .trick-slot").count() > 0)
    expect(summary).to_have_count(0)


# A column head broken inside a word: its text in more lines than it has words.
_HEADS_BROKEN_MID_WORD = """() => [...document.querySelectorAll('.deal-summary-table thead th')].filter((th) => {
  const range = document.createRange();
  range.selectNodeContents(th);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  return lines > th.textContent.trim().split(/\\s+/).length;
}).map((th) => th.textContent.trim())"""


@pytest.mark.parametrize(("size", "language"), LOOKS, ids=LOOK_IDS)
@pytest.mark.site_settings(TEST_DEAL_SEED=joker_lead_seed())
def test_a_leading_jokers_two_steps_never_cover_the_hand_or_the_trick(new_member, snap, size, language):
    """The person leads the first trick holding a joker: the menu asks high or let it take,
    then the suit, in the words of the rules pages; neither step covers the hand or the trick
    and no word of it is cut."""
    page, _match_id = practice_table(new_member, size, language)
    for selector in ("button.trump-choice", "button.bid-choice:not([disabled])"):
        version = version_of(page)
        page.locator(f"{MATCH} {selector}").first.click()
        expect_newer_than(page, version)
    expect(page.locator(MATCH)).to_have_attribute("data-phase", "play")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()

    joker = page.locator(f"{MATCH} details.joker-choice").first
    joker.locator("summary").click(position={"x": 8, "y": 30})
    calls = joker.locator(".joker-call-choice")
    expect(calls).to_have_text([RULES_WORDS[language]["high"], RULES_WORDS[language]["let it take"]])
    expect_nothing_over(page, [".hand .card-button", ".trick"])
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
    snap(page, "joker-lead-step-1")

    calls.first.click()
    suits = joker.locator(".joker-suits:visible button[ws-send]")
    expect(suits).to_have_count(4)
    expect(suits.first).to_be_focused()
    expect_nothing_over(page, [".hand .card-button", ".trick"])
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
    snap(page, "joker-lead-step-2")
    version = version_of(page)
    suits.first.click()
    expect_newer_than(page, version)
    expect(page.locator(f"{MATCH} .trick-slot[data-seat='0'][data-card^='X']").first).to_be_attached()  # led


# The words of the rules pages (rules_pages' catalogue, context "joker lead").
RULES_WORDS = {"ka": {"high": "მაღალი", "let it take": "წაიღოს"},
               "ru": {"high": "старшую", "let it take": "пусть берёт"}}
