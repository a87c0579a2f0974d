"""A phone zoomed for larger text (125 % and 150 %: 288 and 240 CSS pixels across a 360-px
screen, as Android's browsers and Safari zoom a page): every page a member reaches from the
site's menu fits, in Georgian and in Russian. None scrolls sideways and nothing is cut off; a
table too wide for the screen scrolls in its own box; the header leaves most of the first
screen to the page. (The table itself, at these sizes: test_browser_match_on_a_phone.py.)"""

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE_ZOOMED_125, PHONE_ZOOMED_150, assert_nothing_cut_off

SCREENS = {"zoomed-125": PHONE_ZOOMED_125, "zoomed-150": PHONE_ZOOMED_150}
# Boxes that scroll sideways by design: wide tables (the Domino Coin ledger, the profile's games),
# the rules' example score sheets, and the site's menu, one row at these sizes.
SCROLLS_BY_ITSELF = [".table-scroll", ".site-nav ul"]


def menu_pages(page, language):
    """The site's own pages the home page links to (the menu, the play cards), each once."""
    page.goto(f"/{language}/")
    expect(page.locator("h1")).to_be_visible()
    links = page.eval_on_selector_all(
        f"main a[href^='/{language}/'], header a[href^='/{language}/']", "(links) => links.map((a) => a.getAttribute('href'))")
    return list(dict.fromkeys(link for link in links if "logout" not in link))


@pytest.mark.parametrize(("screen", "language"), [("zoomed-150", "ka"), ("zoomed-125", "ru")])
def test_every_page_of_the_menu_fits_a_zoomed_phone(new_member, snap, screen, language):
    phone = new_member("tamar", **SCREENS[screen])
    pages = menu_pages(phone, language)
    # The header (brand, friends and notices, account, languages, menu) leaves the page most of the
    # first screen: at 150 % it took the whole screen, the menu alone four rows.
    header = phone.locator("header.site-header").bounding_box()
    assert header["height"] <= 0.5 * phone.viewport_size["height"], f"the header is {header['height']:.0f}px tall"
    # The menu's pages are there to be checked (a broken link list would make this test pass on nothing).
    for expected in ("lobby/", "rules/", "coins/", "accounts/profile/", "tournaments/", "lesson/"):
        assert f"/{language}/{expected}" in pages, f"no link to /{language}/{expected} on the home page: {pages}"
    for path in pages:
        response = phone.goto(path)
        assert response.ok, f"{path}: HTTP {response.status}"
        assert_nothing_cut_off(phone, allow=SCROLLS_BY_ITSELF)
    snap(phone, f"last-page-{screen}-{language}")
