"""The theme and the card faces (docs/accounts.md, "Appearance"): the dark theme follows the
device (prefers-color-scheme) and the footer's switch, a member's choice is kept on the
server and a visitor's in the browser; every visible text on the lobby, the table (a
practice table with bots) and the score sheet keeps 4.5:1 against its background, light
and dark; the table's layout check passes with the four-colour and the large-index cards."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import expect

from accounts.models import Player
from accounts.players import player_for_user
from e2e.contrast import assert_text_readable
from e2e.deals import deal_seed
from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import MATCH, expect_table_at_rest
from e2e.tables import match_of, seat_members
from e2e.test_browser_table import click_for_the_next_position

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
LOCALES = {"ka": "ka-GE", "ru": "ru-RU"}


def translated(language, text):
    with translation.override(language):
        return translation.gettext(text)


def open_practice_table(page, language):
    table_id = seat_members("classic", ["tamar"], game_type="nines", fill_with_bots=True, clock_seconds=120)
    page.goto(f"/{language}/tables/{table_id}/")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect_table_at_rest(page)
    return match_of(table_id)


def check_the_score_sheet(page):
    """On a phone the sheet is a drawer: open it, measure, close it; beside the table otherwise."""
    toggle = page.locator(f"{MATCH} .extras-toggle")
    if toggle.is_visible():
        toggle.click()
        expect(page.locator(f"{MATCH} .score-sheet")).to_be_in_viewport()
        assert_text_readable(page)
        page.locator(f"{MATCH} .extras-close").click()
    else:
        expect(page.locator(f"{MATCH} .score-sheet")).to_be_in_viewport()


def choose(page, name, value):
    """Picks in the footer's switch, as a person does (the select's own label)."""
    label = {"theme": "Theme", "deck": "Card faces"}[name]
    language = page.locator("html").get_attribute("lang")
    page.get_by_label(translated(language, label)).select_option(value)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_the_theme_follows_the_device_and_every_text_keeps_its_contrast(new_member, snap, scheme):
    page = new_member("tamar", locale="ru-RU", color_scheme=scheme, **DESKTOP)
    page.goto("/ru/lobby/")
    expect(page.locator("html")).to_have_attribute("data-scheme", scheme)
    assert_text_readable(page)
    snap(page, f"lobby-{scheme}")

    open_practice_table(page, "ru")
    expect(page.locator("html")).to_have_attribute("data-scheme", scheme)
    assert_text_readable(page)  # bidding: the table and the sheet beside it
    snap(page, f"table-bidding-{scheme}")
    # A card's index is measured on a face that is not faded as unplayable: after the bid.
    click_for_the_next_position(page, "button.bid-choice:not([disabled])", "play")
    expect(page.locator(f"{MATCH}.my-turn")).to_be_visible()
    expect_table_at_rest(page)
    checked = assert_text_readable(page)
    assert checked["cards"] >= 1, checked
    check_the_score_sheet(page)
    snap(page, f"table-playing-{scheme}")


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_a_member_switches_to_dark_on_a_light_phone_and_it_is_kept(new_member, snap):
    page = new_member("tamar", locale="ka-GE", color_scheme="light", **PHONE)
    page.goto("/ka/lobby/")
    expect(page.locator("html")).to_have_attribute("data-scheme", "light")
    with page.expect_response(re.compile(r"/ka/appearance/$")) as saved:
        choose(page, "theme", "dark")
    assert saved.value.status == 204
    expect(page.locator("html")).to_have_attribute("data-scheme", "dark")
    assert Player.objects.get(user__username="tamar").theme == "dark"
    assert_text_readable(page)
    assert_nothing_cut_off(page)
    snap(page, "lobby-dark")

    open_practice_table(page, "ka")  # the server's page comes dark: the choice was kept
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("html")).to_have_attribute("data-scheme", "dark")
    assert_text_readable(page)
    snap(page, "dark-table-phone-ka")
    check_the_score_sheet(page)

    # Back to the device's setting: light again.
    page.goto("/ka/rules/")
    with page.expect_response(re.compile(r"/ka/appearance/$")):
        choose(page, "theme", "system")
    expect(page.locator("html")).to_have_attribute("data-scheme", "light")
    assert Player.objects.get(user__username="tamar").theme == "system"


def test_a_visitors_choice_is_kept_in_the_browser(new_person, snap):
    page = new_person("visitor", locale="ru-RU", color_scheme="light", **PHONE)
    page.goto("/ru/rules/")
    choose(page, "theme", "dark")
    choose(page, "deck", "four-colour")
    expect(page.locator("html")).to_have_attribute("data-scheme", "dark")
    page.goto("/ru/rules/classic/")
    # The page came light from the server; the browser's own copy of the choice settles it.
    expect(page.locator("html")).to_have_attribute("data-scheme", "dark")
    expect(page.locator("html")).to_have_attribute("data-deck", "four-colour")
    expect(page.get_by_label(translated("ru", "Theme"))).to_have_value("dark")
    diamond = page.locator('svg.card[data-card$="D"]').first
    expect(diamond).to_have_css("color", "rgb(21, 86, 201)")
    assert_text_readable(page)
    snap(page, "rules-dark-four-colour")
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("deck", ["four-colour", "large-index"])
@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_the_table_fits_the_screen_in_every_phase_with_each_card_face(new_member, snap, deck):
    """tests/e2e/test_browser_table.py's layout check of a classic table, with these cards."""
    from e2e.test_browser_table import test_a_classic_table_fits_the_screen_in_every_phase as fits_the_screen

    pages = []

    def member_with_this_deck(username, **context_args):
        page = new_member(username, **context_args)
        player = player_for_user(get_user_model().objects.get(username=username))
        Player.objects.filter(pk=player.pk).update(card_deck=deck)
        pages.append(page)
        return page

    fits_the_screen(member_with_this_deck, snap, "phone-360", "ka")
    page = pages[0]
    expect(page.locator("html")).to_have_attribute("data-deck", deck)
    card = page.locator(f"{MATCH} .hand svg.card").first
    if deck == "four-colour":
        assert page.locator(f'{MATCH} svg.card[data-card$="C"]').count() + page.locator(
            f'{MATCH} svg.card[data-card$="D"]').count() > 0
        expect(page.locator(f'{MATCH} svg.card[data-card$="D"], {MATCH} svg.card[data-card$="C"]').first).to_have_css(
            "color", re.compile(r"rgb\((21, 86, 201|18, 121, 58)\)"))
    else:
        expect(card.locator(".card__rank")).to_have_css("transform", "matrix(1.6, 0, 0, 1.6, 0, 0)")
    assert_text_readable(page)
