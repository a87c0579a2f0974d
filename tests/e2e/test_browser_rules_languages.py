"""The rules pages in Georgian and Russian on a phone: the index and every page open in
that language (the html lang, a translated heading, the page's own title in its script),
links lead from one page to another, and nothing is cut off at 360 px."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from rules_pages import content

BROWSER_LOCALE = {"ka": "ka-GE", "ru": "ru-RU"}
# Each language's own letters: a heading in it has at least one of them.
# Wide example score sheets scroll sideways inside their own box (rules.css .table-scroll).
SCROLLS_BY_ITSELF = [".table-scroll"]
SCRIPT = {"ka": re.compile(r"[\u10d0-\u10ff]"), "ru": re.compile(r"[\u0400-\u04ff]")}


def translated(language, text):
    with translation.override(language):
        return translation.gettext(text)


def expect_in_language(page, language):
    expect(page.locator("html")).to_have_attribute("lang", language)
    heading = page.locator("main h1")
    expect(heading).to_have_text(SCRIPT[language])


def expect_rules_page(page, language, slug):
    title = content.load_page(language, slug).title
    expect(page).to_have_url(re.compile(rf"/{language}/rules/{slug}/(#.*)?$"))
    expect_in_language(page, language)
    expect(page.locator("main h1")).to_have_text(title)
    expect(page.locator("article.rules")).to_have_attribute("lang", language)
    # The site's own words around the content are translated too.
    expect(page.locator(".rules-crumbs a")).to_have_text(translated(language, "Rules of Joker"))
    expect(page.locator(".rules-more h2")).to_have_text(translated(language, "More about Joker"))


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_rules_index_and_every_page_read_in_the_language_on_a_phone(new_person, snap, language):
    reader = new_person("reader", locale=BROWSER_LOCALE[language], **PHONE)
    reader.goto(f"/{language}/rules/")
    expect_in_language(reader, language)
    expect(reader.locator("main h1")).to_have_text(translated(language, "Rules of Joker"))
    expect(reader.locator(".rules-index li")).to_have_count(len(content.PAGE_SLUGS))
    assert_nothing_cut_off(reader, allow=SCROLLS_BY_ITSELF)
    snap(reader, f"index-{language}")

    # From the index to the first page, as a person would.
    first = content.PAGE_SLUGS[0]
    reader.locator(f".rules-index a[href='/{language}/rules/{first}/']").click()
    expect_rules_page(reader, language, first)
    assert_nothing_cut_off(reader, allow=SCROLLS_BY_ITSELF)
    snap(reader, f"{first}-{language}")

    # From one page to the next through "More about Joker".
    second = content.PAGE_SLUGS[1]
    reader.locator(f".rules-more a[href='/{language}/rules/{second}/']").click()
    expect_rules_page(reader, language, second)
    assert_nothing_cut_off(reader, allow=SCROLLS_BY_ITSELF)
    snap(reader, f"{second}-{language}")

    for slug in content.PAGE_SLUGS[2:]:
        reader.goto(f"/{language}/rules/{slug}/")
        expect_rules_page(reader, language, slug)
        assert_nothing_cut_off(reader, allow=SCROLLS_BY_ITSELF)
        snap(reader, f"{slug}-{language}")

    # Back to the index by the breadcrumb.
    reader.locator(".rules-crumbs a").click()
    expect(reader).to_have_url(re.compile(rf"/{language}/rules/$"))
    expect_in_language(reader, language)


def test_the_read_in_links_switch_a_rules_page_between_georgian_and_russian(new_person, snap):
    reader = new_person("reader", **PHONE)
    reader.goto("/ka/rules/japanese/")
    expect_rules_page(reader, "ka", "japanese")
    reader.locator(".rules-translations a[hreflang=ru]").click()
    expect_rules_page(reader, "ru", "japanese")
    snap(reader, "japanese-in-russian")
    reader.locator(".rules-translations a[hreflang=ka]").click()
    expect_rules_page(reader, "ka", "japanese")
    snap(reader, "japanese-back-in-georgian")
