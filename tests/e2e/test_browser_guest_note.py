"""A guest's note takes one line at a table on a 360×740 phone (it took about 170 px of
every table screen): who they play as, and the sign-up link, at least 44 px high."""

import pytest
from playwright.sync_api import expect

from e2e.deals import no_trump_seed
from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import MATCH, boxes_of, expect_deal_line_whole
from e2e.test_browser_score_sheet import start_from_home

ONE_LINE_PX = 50  # one line: a 44-px tap target, the note's padding and its border


# The first deal turns a joker: the table's head says "no trump", its widest words (in Russian
# they once pushed the head's tools past the screen's edge, when the cards fell so).
@pytest.mark.site_settings(TEST_DEAL_SEED=no_trump_seed())
@pytest.mark.parametrize("language", ["ka", "ru"])
def test_a_guests_note_is_one_line_at_a_table(new_person, snap, language):
    page = new_person("guest", locale=f"{language}-{language.upper()}", **PHONE)
    start_from_home(page, language, "classic_bots")
    expect(page.locator(f"{MATCH}")).to_be_visible()
    expect(page.locator(f"{MATCH} .trump-box strong")).to_have_text({"ka": "ბეზი", "ru": "без козыря"}[language])
    expect_deal_line_whole(page, {"ka": "დარიგება 1 /", "ru": "Раздача 1 из"}[language], phone=True)
    note = page.locator(".guest-note")
    expect(note.locator(".guest-note-short a")).to_be_visible()
    expect(note.locator(".guest-note-long")).to_be_hidden()
    box = boxes_of(page, ".guest-note")[0]
    assert box["height"] <= ONE_LINE_PX, f"the guest's note is {box['height']} px high"
    link = boxes_of(page, ".guest-note-short a")[0]
    assert link["height"] >= 44 and link["x"] + link["width"] <= 360, link
    assert_nothing_cut_off(page, allow=[".score-scroll", ".match-extras"])
    snap(page, f"guest-at-a-table-{language}")

    page.goto(f"/{language}/")  # elsewhere the note says all it has to say
    expect(page.locator(".guest-note-long")).to_be_visible()
