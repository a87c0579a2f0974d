"""A phone zoomed for larger text (125 % and 150 %: 288 and 240 CSS pixels across a 360-px
screen, as Android's browsers and Safari zoom a page): every page a member reaches from the
site's menu fits, in Georgian and in Russian. None scrolls sideways and nothing is cut off; a
table too wide for the screen scrolls in its own box; the header leaves most of the first
screen to the page, and its menu (one row that scrolls sideways) shows the page's own item.
(The table itself, at these sizes: test_browser_match_on_a_phone.py.) The tournament standings,
podium and leaderboard fit too with the longest names a member may choose, whole words in their
headings, and so do a player's page headed by such a name and the header showing it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from e2e.layout import PHONE_ZOOMED_125, PHONE_ZOOMED_150, assert_nothing_cut_off, words_broken_in
from e2e.tables import LONG_NAMES, _player, give_long_names

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
    give_long_names(["tamar"])  # the header shows the member's name: the longest one may choose
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
        assert current_menu_item_off_its_row(phone) is None, path
        if path.endswith("/lobby/"):  # its two "New table" buttons, stacked, touched
            boxes = [button.bounding_box() for button in phone.locator(".lobby-actions .button").all()]
            assert boxes[1]["y"] - (boxes[0]["y"] + boxes[0]["height"]) >= 6 or boxes[1]["y"] == boxes[0]["y"], boxes
    snap(phone, f"last-page-{screen}-{language}")


@pytest.mark.parametrize(("screen", "language"), [("zoomed-150", "ka"), ("zoomed-125", "ru")])
def test_every_rules_page_fits_a_zoomed_phone(new_person, snap, screen, language):
    """The rules' index and each of its pages, examples included (at 240 px a Georgian example's
    "bids before the dealer" pushed the page 16 px wider)."""
    from rules_pages import content

    page = new_person("reader", **SCREENS[screen])
    for path in [f"/{language}/rules/"] + [f"/{language}/rules/{slug}/" for slug in content.PAGE_SLUGS]:
        page.goto(path)
        expect(page.locator("main h1")).to_be_visible()
        assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
    snap(page, f"last-rules-page-{screen}-{language}")


def test_the_menu_shows_the_pages_own_item_when_the_font_comes_late(new_member):
    """The Georgian web font widens the menu's items when it arrives: on a slow network it comes
    after the page has placed its row, and "პროფილი", the last item, was left past the edge."""
    import time

    phone = new_member("tamar", **PHONE_ZOOMED_150)

    def slowly(route):
        time.sleep(1.0)  # the font's answer held back, as on a slow network (not a wait for the page)
        route.continue_()

    phone.route("**/*.woff2", slowly)
    phone.goto("/ka/accounts/profile/")
    phone.wait_for_load_state("load")
    phone.evaluate("() => document.fonts.ready.then(() => null)")
    assert current_menu_item_off_its_row(phone) is None


def current_menu_item_off_its_row(page):
    """The page's own menu item, when the menu row (which scrolls sideways here) shows it only
    in part or not at all: its text, else None."""
    return page.evaluate("""() => {
        const item = document.querySelector(".site-nav a[aria-current]");
        if (!item) return null;
        const shown = item.getBoundingClientRect(), row = item.closest("ul").getBoundingClientRect();
        return shown.left >= row.left - 1 && shown.right <= row.right + 1 ? null : item.textContent;
    }""")


def tournaments_and_ratings_with_long_names():
    """A running and a finished arena of five players with long names, who are also on the
    Japanese leaderboard."""
    from ratings.models import Rating
    from tests.factories import make_player
    from tournaments.models import Participant, Status, Tournament

    for username in (*LONG_NAMES, "ana"):
        make_player(username)
    players = [*give_long_names(list(LONG_NAMES)), _player("ana")]
    now = timezone.now()
    running = Tournament.objects.create(name="Evening arena", variant="japanese", minutes=60, rated=False,
                                        starts_at=now - timedelta(minutes=5), status=Status.RUNNING)
    finished = Tournament.objects.create(name="Morning arena", variant="japanese", minutes=60, rated=False,
                                         starts_at=now - timedelta(hours=3), status=Status.FINISHED)
    for place, player in enumerate(players):
        Rating.objects.create(player=player, variant="japanese", mu=30 - place, sigma=2, rated_matches=12)
        for tournament in (running, finished):
            Participant.objects.create(tournament=tournament, player=player, score=30 - 4 * place,
                                       streak=2 if place == 1 else 0, played=12, wins=8 - place)
    return running, finished


# At 125 % every table fits whole. At 150 % the leaderboard's four Georgian headings, whole words,
# are wider than 240 px („სარეიტინგო მატჩები“): that table scrolls in its own box, never the page.
# A player's page has the profile's table of games by variant, which scrolls in its box at both.
MAY_SCROLL_IN_ITS_BOX = {"zoomed-125": {"/players/levan/"}, "zoomed-150": {"/leaderboard/japanese/", "/players/levan/"}}


@pytest.mark.parametrize(("screen", "language"), [("zoomed-150", "ka"), ("zoomed-125", "ru")])
def test_standings_podium_and_leaderboard_with_long_names_fit_a_zoomed_phone(new_person, snap, screen, language):
    running, finished = tournaments_and_ratings_with_long_names()
    phone = new_person("visitor", **SCREENS[screen])
    first_row = (".leaderboard-table tbody tr", LONG_NAMES["tamar"])
    shows = {f"/tournaments/{running.pk}/": first_row, f"/tournaments/{finished.pk}/": first_row,
             "/leaderboard/japanese/": first_row, "/players/levan/": ("main h1", LONG_NAMES["levan"])}
    for path, (selector, name) in shows.items():
        phone.goto(f"/{language}{path}")
        expect(phone.locator(selector).first).to_contain_text(name)
        assert_nothing_cut_off(phone, allow=SCROLLS_BY_ITSELF)
        if path not in MAY_SCROLL_IN_ITS_BOX[screen]:
            wider = phone.eval_on_selector_all(
                ".table-scroll", "(boxes) => boxes.filter((b) => b.scrollWidth > b.clientWidth + 1).length")
            assert wider == 0, f"{path}: a table scrolls sideways in its box"
        assert words_broken_in(phone, ".leaderboard-table th") == [], path
        snap(phone, f"{path.strip('/').replace('/', '-')}-{screen}-{language}")
