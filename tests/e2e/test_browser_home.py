"""The home page in a real browser: the three languages, the language switcher in
the page header, and a phone-sized screen."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off

LANGUAGES = ["ka", "ru", "en"]


def switch_language(page, code):
    """What a person does: pick the language in the header and press the button next to it."""
    switcher = page.locator("header form:has(select[name=language])")
    switcher.locator("select[name=language]").select_option(code)
    switcher.locator("[type=submit]").click()


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_page_opens_in_each_language(page, snap, language):
    page.goto(f"/{language}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("select[name=language]")).to_have_value(language)
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
    expect(page.locator("select[name=language]")).to_have_value("ru")
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
