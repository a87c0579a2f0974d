"""The home page in a real browser: the three languages, the language switcher in
the page header, and a phone-sized screen."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import boxes_of

LANGUAGES = ["ka", "ru", "en"]


# The header's switcher posts `language` to set_language: either a <select> with a
# button next to it, or one submit button per language (the shape the accounts work
# brings). These helpers do what a person does with whichever the page has.
SWITCHER = "header form:has([name=language])"


def switch_language(page, code):
    switcher = page.locator(SWITCHER)
    select = switcher.locator("select[name=language]")
    if select.count():
        select.select_option(code)
        switcher.locator("[type=submit]").click()
    else:
        switcher.locator(f"button[name=language][value={code}]").click()


def expect_switcher_shows(page, code):
    switcher = page.locator(SWITCHER)
    select = switcher.locator("select[name=language]")
    if select.count():
        expect(select).to_have_value(code)
    else:
        expect(switcher.locator("button[name=language][aria-current=true]")).to_have_attribute("value", code)


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_page_opens_in_each_language(page, snap, language):
    page.goto(f"/{language}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("h1")).to_be_visible()
    expect_switcher_shows(page, language)
    snap(page, f"home-{language}")


def test_bare_address_opens_in_the_browsers_language(new_person, snap):
    georgian, russian = new_person("georgian"), new_person("russian", locale="ru-RU")
    georgian.goto("/")
    russian.goto("/")
    expect(georgian).to_have_url(re.compile(r"/ka/$"))
    expect(russian).to_have_url(re.compile(r"/ru/$"))
    expect(russian.locator("html")).to_have_attribute("lang", "ru")
    snap(russian, "russian-browser")


def test_language_switcher_goes_to_russian_and_back_to_georgian(page, snap):
    page.goto("/ka/")
    expect(page.locator("html")).to_have_attribute("lang", "ka")
    snap(page, "georgian")

    switch_language(page, "ru")
    expect(page).to_have_url(re.compile(r"^http://[^/]+/ru/$"))
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect_switcher_shows(page, "ru")
    snap(page, "switched-to-russian")

    # The choice is remembered: the bare address now opens in Russian, not in the
    # browser's Georgian.
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/ru/$"))

    switch_language(page, "ka")
    expect(page).to_have_url(re.compile(r"^http://[^/]+/ka/$"))
    expect(page.locator("html")).to_have_attribute("lang", "ka")
    snap(page, "back-to-georgian")


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_page_fits_a_phone_screen(new_person, snap, language):
    phone = new_person("phone", **PHONE)
    phone.goto(f"/{language}/")
    expect(phone.locator("h1")).to_be_visible()
    assert_nothing_cut_off(phone)
    snap(phone, f"phone-home-{language}")


# The play buttons a newcomer can press at once: quick play's and the one-tap practice cards'.
PLAY_BUTTONS = "#quickplay button[type=submit], .home-play .button.primary"


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_a_phones_first_screen_on_the_home_page_holds_a_play_button(new_person, snap, language):
    phone = new_person("phone", locale=f"{language}-{language.upper()}", **PHONE)
    phone.goto(f"/{language}/")
    expect(phone.locator(PLAY_BUTTONS).first).to_be_visible()
    first = boxes_of(phone, PLAY_BUTTONS)[0]
    assert first["y"] + first["height"] <= 740, f"the first play button ends at y={first['y'] + first['height']}"
    snap(phone, f"first-screen-{language}")
