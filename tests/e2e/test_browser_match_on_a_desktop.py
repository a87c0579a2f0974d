"""The match page on a laptop (1366×768) and on a large monitor (1920×1080): the cards grow
with the screen (on the monitor a quarter larger than on the laptop, and the whole table still
within its height), and the Japanese trick's card lies between the two rows of columns
(at both sizes it lay over the caption of the player's own columns)."""

import pytest
from playwright.sync_api import expect

from e2e.deals import deal_seed
from e2e.layout import assert_nothing_cut_off, trick_cards_out_of_place
from e2e.match_play import MATCH, everyone_at, expect_newer_than, play_a_marked_plain_card, version_of
from e2e.tables import seat_members

CLOCK_SECONDS = 120  # nobody's move clock should run out during a scenario
SCREENS = {"laptop": {"viewport": {"width": 1366, "height": 768}},
           "monitor": {"viewport": {"width": 1920, "height": 1080}}}
HAND_CARD_HEIGHT = {"laptop": 102, "monitor": 128}  # CSS px: 6.4rem and 8rem
SCROLLS_BY_ITSELF = [".score-scroll"]

# Measured in the page in one step: a notice may redraw the table between finding an element and
# measuring it (a bot's bid did, and the hand's card found had no box any more).
_BOX = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, height: r.height}; }"""


def box(page, selector):
    return page.evaluate(_BOX, selector)


def check_the_table(page, screen):
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
    assert trick_cards_out_of_place(page) == []
    hand_card = box(page, f"{MATCH} .hand .card")
    assert hand_card["height"] >= HAND_CARD_HEIGHT[screen] - 1, hand_card
    if screen == "monitor":  # a laptop's browser shows less than its 768 px: the player scrolls there
        table = box(page, MATCH)
        assert table["bottom"] <= page.viewport_size["height"], f"the table ends at {table['bottom']:.0f} px"


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_the_japanese_table_grows_with_the_screen_and_its_trick_lies_between_the_columns(new_member, snap, screen):
    player = new_member("tamar", **SCREENS[screen])  # seat 0: declares trump and leads the first trick
    opponent = new_member("levan")
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=CLOCK_SECONDS)
    for page in (player, opponent):
        page.goto(f"/ka/tables/{table_id}/")
    everyone_at([player, opponent], 1)
    expect(player.locator(f"{MATCH}.my-turn")).to_be_visible()
    version = version_of(player)
    player.locator(f"{MATCH} button.trump-choice").first.click()
    expect_newer_than(player, version)

    play_a_marked_plain_card(player)
    slot = f"{MATCH} .trick .trick-slot[data-seat='0']"
    expect(player.locator(f"{slot} svg[data-card]")).to_be_visible()
    card, caption = box(player, slot), box(player, f"{MATCH} .columns.mine .columns-owner")
    their_columns = box(player, f"{MATCH} .columns:not(.mine)")
    assert their_columns["bottom"] <= card["top"] and card["bottom"] <= caption["top"], (their_columns, card, caption)
    check_the_table(player, screen)
    snap(player, f"japanese-card-led-{screen}")


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_the_classic_table_grows_with_the_screen_and_fits_it(new_member, snap, screen):
    player = new_member("tamar", locale="ru-RU", **SCREENS[screen])  # seat 0, the first dealer: bids after the bots
    table_id = seat_members("classic", ["tamar"], game_type="nines", fill_with_bots=True, clock_seconds=CLOCK_SECONDS)
    player.goto(f"/ru/tables/{table_id}/")
    expect(player.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(player.locator(MATCH)).to_have_attribute("data-phase", "bid")
    expect(player.locator(f"{MATCH} .hand .card")).to_have_count(9)
    check_the_table(player, screen)
    snap(player, f"classic-first-move-{screen}")
