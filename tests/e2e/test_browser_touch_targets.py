"""Thumb-sized targets at the table: every control of the table and of the site's header
is at least 44×44 CSS px, and every card of the largest hand (nine cards in classic, ten
and more in Japanese) shows at least 44 px of itself to a tap, on a 360×740 phone in
Georgian and Russian and on a 1366×768 desktop."""

import pytest
from playwright.sync_api import expect

from e2e.deals import deal_seed
from e2e.layout import cards_out_of_reach
from e2e.match_play import MATCH, expect_newer_than, expect_table_at_rest, open_the_drawer, version_of
from e2e.tables import seat_members
from e2e.test_browser_table import CLOCK_SECONDS, LOCALES, SIZES, practice_table

THUMB_PX = 44
LOOKS = [("phone-360", "ka"), ("phone-360", "ru"), ("desktop-1366", "ka")]
LOOK_IDS = [f"{size}-{language}" for size, language in LOOKS]
MY_CARDS = f"{MATCH} .hand .card-button:not(span), {MATCH} .columns.mine .card-button:not(span)"

# The box of every control a person can see (the visually hidden 1-px pattern aside).
# Cards are measured by what of them shows (below), not by their box.
_SMALL_CONTROLS = """
([selector, least]) => [...document.querySelectorAll(selector)]
  .filter((el) => el.checkVisibility({visibilityProperty: true, opacityProperty: false})
                  && !el.closest('.hand, .columns'))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, box]) => box.width > 1 && box.height > 1)
  .filter(([el, box]) => box.width < least - 0.5 || box.height < least - 0.5)
  .map(([el, box]) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${
      (el.getAttribute('aria-label') || el.textContent).trim().replace(/\\s+/g, ' ').slice(0, 30)}" is ${
      Math.round(box.width)}x${Math.round(box.height)}`)
"""

def expect_thumb_sized_controls(page, selector):
    expect_table_at_rest(page)
    small = page.evaluate(_SMALL_CONTROLS, [selector, THUMB_PX])
    assert not small, f"controls under {THUMB_PX}x{THUMB_PX} px:\n  " + "\n  ".join(small)


def expect_every_card_shows_a_thumb(page, count):
    expect(page.locator(f"{MATCH} .hand .card-button")).to_have_count(count)
    expect_table_at_rest(page)
    hidden = cards_out_of_reach(page, MY_CARDS, THUMB_PX)
    assert not hidden, "cards a thumb cannot hit:\n  " + "\n  ".join(hidden)


TABLE_AND_HEADER = (".site-header a, .site-header button, .site-header summary, "
                    f"{MATCH} button, {MATCH} summary, {MATCH} a")


@pytest.mark.parametrize(("size", "language"), LOOKS, ids=LOOK_IDS)
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_every_control_and_card_of_a_classic_table_is_thumb_sized(new_member, snap, size, language):
    """The dealer bids last with nine cards: the bid buttons, the table's tools, the header's
    links and the drawer's controls are 44 px each way; each card shows 44 px of itself."""
    page, _match_id = practice_table(new_member, size, language)
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(page.locator(MATCH)).to_have_attribute("data-phase", "bid")
    expect_thumb_sized_controls(page, TABLE_AND_HEADER)
    expect_every_card_shows_a_thumb(page, 9)
    snap(page, "classic-bid-nine-cards")

    version = version_of(page)
    page.locator(f"{MATCH} button.bid-choice:not([disabled])").first.click()
    expect_newer_than(page, version)
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect_every_card_shows_a_thumb(page, 9)
    snap(page, "classic-play-nine-cards")

    open_the_drawer(page)
    expect_thumb_sized_controls(page, f"{MATCH} .match-extras :is(button, summary, a)")
    snap(page, "classic-drawer")


def play_from_the_columns_until_the_hand_holds(host, guest, cards):
    """Both play; the host plays face-up cards while allowed, so that her hand grows. Stops
    when it is her turn with `cards` in her hand."""
    for _ in range(40):
        if host.locator(f"{MATCH}.my-turn").count() and host.locator(f"{MATCH} .hand .card-button").count() >= cards:
            return
        actor = host if host.locator(f"{MATCH}.my-turn").count() else guest
        version = version_of(actor)
        column_card = actor.locator(f"{MATCH} .columns.mine button.card-button.legal")
        if actor is host and column_card.count():
            choice = column_card.first
        else:
            choice = actor.locator(f"{MATCH} .columns.mine .card-button.legal, {MATCH} .hand .card-button.legal").first
        opens_a_menu = choice.evaluate("el => el.tagName") == "SUMMARY"
        choice.click(position={"x": 8, "y": 30})
        if opens_a_menu:
            actor.locator(f"{MATCH} details.joker-choice[open] .joker-menu button").first.click()
        expect_newer_than(actor, version)
        expect_table_at_rest(host)
    raise AssertionError(f"the host's hand never held {cards} cards at her turn")


@pytest.mark.parametrize(("size", "language"), LOOKS, ids=LOOK_IDS)
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_every_card_of_a_grown_japanese_hand_is_thumb_sized(new_member, snap, size, language):
    """Japanese Joker: the lead with eight cards and five face-up columns, then a hand of ten
    as face-up cards are played and their hidden cards picked up."""
    host = new_member("tamar", locale=LOCALES[language], **SIZES[size])
    guest = new_member("levan")
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=CLOCK_SECONDS)
    for page, lang in ((host, language), (guest, "en")):
        page.goto(f"/{lang}/tables/{table_id}/")
        expect(page.locator(MATCH)).to_have_attribute("data-version", "1")
    expect(host.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect_thumb_sized_controls(host, TABLE_AND_HEADER)
    version = version_of(host)
    host.locator(f"{MATCH} button.trump-choice").first.click()
    expect_newer_than(host, version)

    expect_thumb_sized_controls(host, TABLE_AND_HEADER)
    expect_every_card_shows_a_thumb(host, 8)
    snap(host, "japanese-lead-eight-cards")
    play_from_the_columns_until_the_hand_holds(host, guest, 10)
    expect_every_card_shows_a_thumb(host, host.locator(f"{MATCH} .hand .card-button").count())
    snap(host, "japanese-ten-cards")
