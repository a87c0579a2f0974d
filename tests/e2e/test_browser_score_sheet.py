"""The score sheet, the summary after each deal and the end screen in a real browser; the home
page's one-click practice tables. On a 360×740 phone the sheet shows all four players'
columns in the screen's width: neither it nor the page scrolls sideways."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import (
    MATCH,
    assert_sheet_fits_its_box,
    boxes_of,
    expect_move_answered,
    expect_table_at_rest,
    make_a_move,
    open_the_drawer,
    play_until,
    version_of,
)
from e2e.tables import seat_members

SCROLLS_BY_ITSELF = [".score-scroll"]
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
SCORED_ROWS = f"{MATCH} .score-sheet tr.deal-row:not(.current)"
SUMMARY = "#deal-summary"


def start_from_home(page, language, quick_start):
    page.goto(f"/{language}/")
    page.locator(f"button[name=quick_start][value={quick_start}]").click()
    expect(page).to_have_url(re.compile(rf"/{language}/tables/\d+/$"))
    expect(page.locator(MATCH)).to_have_attribute("data-version", re.compile(r"\d+"))
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def play_deals(page, count):
    play_until([page], lambda: page.locator(SCORED_ROWS).count() >= count, max_moves=400)


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_classic_sheet_summary_and_all_four_players_on_a_phone(new_person, snap, language):
    page = new_person("tamar", locale=f"{language}-{language.upper()}", **PHONE)
    start_from_home(page, language, "classic_bots")
    expect(page.locator(f"{MATCH} .score-sheet tr.deal-row.current")).to_have_count(1)  # deal 1 in play
    unit = {"ka": "წმ", "ru": "с"}[language]  # the clock's seconds in the page's language, not "s"
    expect(page.locator(f"{MATCH} .clock-value")).to_have_text(re.compile(rf"^\d+ {unit}$"))

    play_deals(page, 1)
    summary = page.locator(SUMMARY)
    expect(summary.locator(".deal-summary-line")).to_be_visible()  # one line where the trick will be
    summary.locator(".deal-summary-line").click()  # a tap opens the whole summary
    expect(summary.locator("tbody tr")).to_have_count(4)
    snap(page, "deal-1-summary")
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
    summary.locator("[data-dismiss-summary]").click()
    expect(summary.locator(".deal-summary-sheet")).to_be_hidden()

    play_deals(page, 2)
    expect(summary.locator(".deal-summary-line")).to_be_visible()

    sheet = page.locator(f"{MATCH} .score-scroll")
    sheet.scroll_into_view_if_needed()
    expect(page.locator(SCORED_ROWS)).to_have_count(2)
    expect(page.locator(f"{MATCH} .score-sheet tr.deal-row.current")).to_have_count(1)
    snap(page, "sheet-after-two-deals")
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
    # All four players' columns inside the phone's width: the sheet does not scroll sideways.
    assert_sheet_fits_its_box(page)
    columns = boxes_of(page, f"{MATCH} .score-sheet tr.deal-row:not(.current) td")  # two deals, twelve each
    assert len(columns) == 24 and all(0 <= box["x"] and box["x"] + box["width"] <= 360 for box in columns), columns
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # the page does not scroll sideways


@pytest.mark.parametrize(("language", "viewport"), [("ru", DESKTOP), ("ka", PHONE)])
def test_a_japanese_match_against_a_bot_ends_with_the_winner_totals_and_links(new_person, snap, language, viewport):
    from games.models import Match
    from games.services.matches import load_state

    page = new_person("nino", locale=f"{language}-{language.upper()}", **viewport)
    table_id = start_from_home(page, language, "japanese_bot")
    end = page.locator(f"{MATCH} .match-end")
    play_until([page], lambda: end.count() > 0, max_moves=900)

    match = Match.objects.get(table_id=table_id)
    assert match.status == "finished" and len(match.winners) == 1
    expect(end.locator("table.standings tbody tr")).to_have_count(2)
    winner_row = end.locator("table.standings tbody tr").first
    expect(winner_row.locator("td.place")).to_contain_text("1")
    totals = load_state(match).totals
    expect(winner_row.locator("td.score")).to_have_text(str(max(totals)))
    for href in (f"/{language}/tables/{table_id}/replay/", f"/{language}/tables/{table_id}/record.json"):
        expect(end.locator(f"a[href='{href}']")).to_be_visible()
    expect(end.locator(".rematch button")).to_be_visible()
    end.scroll_into_view_if_needed()
    snap(page, "match-over")
    assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)


@pytest.mark.parametrize("quick_start", ["japanese_bot", "classic_bots"])
def test_the_score_sheet_stays_open_or_closed_as_the_player_left_it(new_person, snap, quick_start):
    # Every update draws the table anew: a sheet a player had just opened closed again at the
    # bot's next move (Japanese), one closed opened again (classic).
    page = new_person("eka", locale="ru-RU", **DESKTOP)
    start_from_home(page, "ru", quick_start)
    sheet = page.locator(f"{MATCH} .score-sheet")
    expect(sheet).to_have_attribute("open", "")  # open by itself, in both variants
    for left_open in (False, True):
        expect(page.locator(f"{MATCH}.my-turn")).to_have_count(1)  # the bots have moved: nothing else comes
        sheet.locator("summary").click()
        expect(sheet).to_have_js_property("open", left_open)
        version = version_of(page)
        make_a_move(page)
        expect_move_answered(page, version)  # the table drawn anew
        expect(sheet).to_have_js_property("open", left_open)
        expect(page.locator(f"{MATCH}.my-turn")).to_have_count(1)  # and again after the bots' moves
        expect(sheet).to_have_js_property("open", left_open)
    snap(page, f"sheet-kept-open-{quick_start}")


DRAWER_SCROLL = "() => document.querySelector('#match .match-extras').scrollTop"


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_a_phones_drawer_fits_the_sheet_and_stays_where_the_player_scrolled_it(new_member, snap, language):
    # Eight deals' sheet fits the drawer's width; every update draws the table anew, the drawer
    # with it: a player reading the sheet's last deals at the bottom of the drawer was thrown
    # back to its top at every move of the bots.
    page = new_member("dato", **PHONE)
    table_id = seat_members("classic", ["dato"], game_type="standard", fill_with_bots=True,
                            bot_level="beginner", clock_seconds=120, rated=False)
    page.goto(f"/{language}/tables/{table_id}/")
    # Eight deals on the sheet, the last trick and leaving: more than the drawer's height.
    play_until([page], lambda: page.locator(MATCH).get_attribute("data-deal") == "8", max_moves=300)
    expect(page.locator(f"{MATCH}.my-turn")).to_have_count(1)
    expect_table_at_rest(page)
    open_the_drawer(page)
    # All four players' columns in the screen's width, eight deals of dealers' marks and
    # khishtis on them (a "D" before the dealer's bid pushed the fourth player off the screen).
    assert_sheet_fits_its_box(page, slack=0)
    scrolled = page.evaluate("() => { const d = document.querySelector('#match .match-extras');"
                             " d.scrollTop = d.scrollHeight; return d.scrollTop; }")
    assert scrolled > 100, f"the drawer scrolls only {scrolled}px: nothing to keep"
    # The same position drawn again: the player opens the table in a second tab, which every
    # page of the table is told of.
    page.evaluate("document.querySelector('#match').setAttribute('data-drawn-before', '')")
    second_tab = page.context.new_page()
    second_tab.goto(page.url)
    expect(page.locator("#match[data-drawn-before]")).to_have_count(0)
    expect(page.locator(f"{MATCH}.extras-open")).to_have_count(1)
    assert page.evaluate(DRAWER_SCROLL) == scrolled
    snap(page, "drawer-scrolled-after-a-redraw")


@pytest.mark.parametrize("language", ["ka", "ru"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_home_page_for_a_newcomer(new_person, snap, language, viewport):
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from tests.factories import make_player

    waiting = table_service.create_table(make_player("tamar"), TableSettings(variant="japanese"))
    playing = table_service.create_table(make_player("levan"), TableSettings(variant="classic", fill_with_bots=True))
    page = new_person("visitor", locale=f"{language}-{language.upper()}", **viewport)
    page.goto(f"/{language}/")
    expect(page.locator(f".home-tables a[href='/{language}/tables/{waiting.pk}/']")).to_be_visible()
    # Being played now: once, from the lobby's own list (games/_running_list.html).
    running = page.locator(f".home .running-row[data-table-id='{playing.pk}']")
    expect(running).to_contain_text("levan")
    expect(running.locator(f"a[href='/{language}/tables/{playing.pk}/']")).to_be_visible()
    expect(page.locator(".home .running")).to_have_count(1)
    expect(page.locator("html")).to_have_attribute("lang", language)
    for selector in ("button[value=japanese_bot]", "button[value=classic_bots]",
                     f"a[href='/{language}/lobby/?variant=japanese']", f"a[href='/{language}/lesson/']",
                     f"a[href='/{language}/rules/']"):
        expect(page.locator(f".home {selector}")).to_be_visible()
    assert_nothing_cut_off(page)
    snap(page, "home")
