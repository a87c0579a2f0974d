"""The replay in a real browser on a phone: stepping with buttons and arrow keys
(htmx swaps the board in place and the address follows), nothing cut off at 360 px, nor at
240 px (the phone zoomed to 150 %), a Japanese replay's table columns included."""

import random
import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, PHONE_ZOOMED_150, assert_nothing_cut_off, text_past_its_box
from games.replay import deal_starts, step_places
from games.services.matches import abort
from tests.replay_helpers import fresh, play_moves, seated_match

# Tables and score sheets may scroll inside their own box, and so does the site's menu on a
# zoomed phone (one row).
SCROLLING_BOXES = (".score-scroll", ".site-nav ul")
SCREENS = {"phone": PHONE, "zoomed-150": PHONE_ZOOMED_150}


def test_replay_steps_with_keys_and_buttons_on_a_phone(new_person, snap):
    # To 21: one deal is worth 18 points at most, so the match (its deals are not fixed)
    # cannot end with the first one, and 45 moves always reach the second.
    match, _players = seated_match("japanese", ("tamar", "levan"), target=21)
    match = play_moves(match, random.Random(3), moves=45)  # into the second deal
    abort(match.pk, "browser test")
    match = fresh(match)
    starts = deal_starts(match.record)
    viewer = new_person("viewer", locale="en-GB", **PHONE)

    viewer.goto(f"/en/tables/{match.table_id}/replay/")
    board = viewer.locator("#replay")
    expect(board).to_have_attribute("data-step", "0")
    snap(viewer, "first-step")
    assert_nothing_cut_off(viewer, allow=SCROLLING_BOXES)

    viewer.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-step", "1")
    viewer.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-step", "2")
    expect(viewer).to_have_url(re.compile(r"\?step=2$"))
    viewer.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-step", "1")

    viewer.get_by_role("link", name="Step forward").click()
    expect(board).to_have_attribute("data-step", "2")
    snap(viewer, "a-card-played")
    assert_nothing_cut_off(viewer, allow=SCROLLING_BOXES)

    viewer.keyboard.press("PageDown")
    expect(board).to_have_attribute("data-step", str(starts[1]))
    viewer.keyboard.press("End")
    expect(board).to_have_attribute("data-step", str(len(step_places(match.record)) - 1))
    expect(viewer.locator(".replay-event")).to_contain_text("stopped before its end")
    snap(viewer, "last-step")

    viewer.go_back()  # the address bar history follows the steps
    expect(board).to_have_attribute("data-step", str(starts[1]))


@pytest.mark.parametrize("screen", list(SCREENS))
def test_classic_replay_fits_a_phone_screen(new_person, snap, screen):
    """Also zoomed to 150 % (240 px across), where the deal chooser's button once ran 80 px off
    the screen and the whole page scrolled sideways."""
    match, _players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    match = play_moves(match, random.Random(5), moves=30)
    abort(match.pk, "browser test")
    viewer = new_person("viewer", **SCREENS[screen])
    viewer.goto(f"/ka/tables/{match.table_id}/replay/?step=25")
    expect(viewer.locator("#replay")).to_have_attribute("data-step", "25")
    expect(viewer.locator("form.deal-jump")).to_be_visible()
    assert_nothing_cut_off(viewer, allow=SCROLLING_BOXES)
    snap(viewer, f"classic-{screen}")
    viewer.goto(f"/ka/tables/{match.table_id}/fairness/")
    assert_nothing_cut_off(viewer, allow=(".recipe", *SCROLLING_BOXES))
    snap(viewer, f"deal-checks-{screen}")


def test_a_japanese_replay_fits_a_zoomed_phone_in_russian(new_person, snap):
    """At 240 px each of the five table columns is narrower than a card: the cards ran 9 px into
    the next column and the last past its seat. They take the column's width."""
    match, _players = seated_match("japanese", ("tamar", "levan"), target=21)
    abort(fresh(match).pk, "browser test")
    viewer = new_person("viewer", locale="ru-RU", **PHONE_ZOOMED_150)
    viewer.goto(f"/ru/tables/{match.table_id}/replay/")
    expect(viewer.locator("#replay")).to_have_attribute("data-step", "0")
    expect(viewer.locator(".replay-column .replay-up").first).to_be_visible()
    assert_nothing_cut_off(viewer, allow=SCROLLING_BOXES)
    assert text_past_its_box(viewer, ".replay-seat") == []
    snap(viewer, "japanese-zoomed-150-ru")
