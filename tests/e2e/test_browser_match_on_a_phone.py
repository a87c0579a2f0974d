"""The match page of both variants on a 360×740 phone, and on the same phone zoomed to 125 % and
150 % (larger text): nothing is cut off at any step, every card of the hand is on screen (once
scrolled to) and is what a tap there reaches, a tap on a marked card plays it, and each card of
the trick lies before the seat that played it."""

import time

import pytest
from playwright.sync_api import expect

from e2e.deals import deal_seed
from e2e.layout import (
    PHONE,
    PHONE_ZOOMED_125,
    PHONE_ZOOMED_150,
    assert_nothing_cut_off,
    cards_out_of_reach,
    trick_cards_out_of_place,
)
from e2e.match_play import MATCH, expect_newer_than, play_a_marked_plain_card, version_of
from e2e.tables import seat_members

CLOCK_SECONDS = 120  # nobody's move clock should run out during a scenario
# The score sheet may scroll sideways inside its own box on a phone.
SCROLLS_BY_ITSELF = [".score-scroll"]
HAND_CARDS = f"{MATCH} .hand .card-button"
SCREENS = {"phone": PHONE, "zoomed-125": PHONE_ZOOMED_125, "zoomed-150": PHONE_ZOOMED_150}

def expect_every_hand_card_within_reach(phone, count, settle_seconds=5.0):
    """Every card of the hand can be tapped, once the page has settled: a check made while
    the page is still laying itself out (seen once, under a loaded machine: the cards under
    the site header for a moment after the page opened) is asked again for a few seconds,
    so only a layout that stays wrong fails."""
    cards = phone.locator(HAND_CARDS)
    expect(cards).to_have_count(count)
    deadline = time.monotonic() + settle_seconds
    out_of_reach = scroll_to_the_hand_and_find_cards_out_of_reach(phone)
    while out_of_reach and time.monotonic() < deadline:
        phone.wait_for_timeout(250)
        out_of_reach = scroll_to_the_hand_and_find_cards_out_of_reach(phone)
    assert not out_of_reach, "cards a person cannot tap:\n  " + "\n  ".join(out_of_reach)


def scroll_to_the_hand_and_find_cards_out_of_reach(phone):
    """Zoomed, the table is taller than the screen: a player scrolls down to the hand. Scrolled
    by the page's own script, in one turn with nothing else: an update may redraw the table at
    any moment, and the hand a test had found is then no longer on the page."""
    phone.evaluate("() => document.querySelector('#match .hand').scrollIntoView({block: 'nearest'})")
    return cards_out_of_reach(phone, HAND_CARDS)


def check_the_phone_layout(phone, snap, name):
    assert_nothing_cut_off(phone, allow=SCROLLS_BY_ITSELF)
    misplaced = trick_cards_out_of_place(phone)
    assert not misplaced, "the trick's cards:\n  " + "\n  ".join(misplaced)
    snap(phone, name)


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_the_japanese_match_page_fits_a_phone_and_its_cards_can_be_tapped(new_member, snap, screen):
    phone = new_member("tamar", **SCREENS[screen])  # seat 0: declares trump and leads the first trick
    opponent = new_member("levan")
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=CLOCK_SECONDS)
    for page in (phone, opponent):
        page.goto(f"/ka/tables/{table_id}/")
        expect(page.locator(MATCH)).to_have_attribute("data-version", "1")

    expect(phone.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect_every_hand_card_within_reach(phone, 3)  # the three cards trump is chosen from
    check_the_phone_layout(phone, snap, f"japanese-choose-trump-phone-{screen}")

    version = version_of(phone)
    phone.locator(f"{MATCH} button.trump-choice").first.tap()
    expect_newer_than(phone, version)
    expect_every_hand_card_within_reach(phone, 8)
    expect(phone.locator(f"{MATCH} .columns.mine .column")).to_have_count(5)
    check_the_phone_layout(phone, snap, f"japanese-lead-phone-{screen}")

    played = play_a_marked_plain_card(phone, tap=True)
    trick_card = f"{MATCH} .trick-slot[data-seat='0'] svg[data-card='{played}']"
    expect(phone.locator(trick_card)).to_be_visible()
    expect(opponent.locator(trick_card)).to_be_visible()
    expect(phone.locator(HAND_CARDS)).to_have_count(7)
    check_the_phone_layout(phone, snap, f"japanese-card-played-phone-{screen}")


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_the_classic_match_page_fits_a_phone_and_its_cards_can_be_tapped(new_member, snap, screen):
    phone = new_member("tamar", **SCREENS[screen])  # seat 0, the first dealer: bids after the three bots
    table_id = seat_members("classic", ["tamar"], game_type="nines", fill_with_bots=True,
                            clock_seconds=CLOCK_SECONDS)
    phone.goto(f"/ka/tables/{table_id}/")

    expect(phone.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect(phone.locator(MATCH)).to_have_attribute("data-phase", "bid")
    expect(phone.locator(f"{MATCH} button.bid-choice")).to_have_count(10)
    expect_every_hand_card_within_reach(phone, 9)
    check_the_phone_layout(phone, snap, f"classic-bid-phone-{screen}")

    version = version_of(phone)
    phone.locator(f"{MATCH} button.bid-choice:not([disabled])").first.tap()
    expect_newer_than(phone, version)
    expect(phone.locator(MATCH)).to_have_attribute("data-phase", "play")
    expect(phone.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect_every_hand_card_within_reach(phone, 9)
    # The three bots have played to the first trick: left, across, right, each card before its seat.
    expect(phone.locator(f"{MATCH} .trick > .trick-slot")).to_have_count(3)
    check_the_phone_layout(phone, snap, f"classic-play-phone-{screen}")

    played = play_a_marked_plain_card(phone, tap=True)
    # The person plays last to the first trick: the card is on the table, or in the last trick.
    expect(phone.locator(f"{MATCH} :is(.trick > .trick-slot, .last-trick) svg[data-card='{played}']")).to_have_count(1)
    expect(phone.locator(HAND_CARDS)).to_have_count(8)
    check_the_phone_layout(phone, snap, f"classic-card-played-phone-{screen}")
