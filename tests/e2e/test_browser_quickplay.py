"""Quick play in real browsers: two members tap "Play Japanese" on the home page and both
land at the started match; a classic player who asked for bots gets them after the wait
(the wait shortened by its setting); the section on a phone and a laptop, in ka and ru."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import MATCH

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
TABLE_URL = re.compile(r"/tables/\d+/$")
SECTION = "#quickplay"


def tap(page, variant, stake=None, bots=False):
    section = page.locator(SECTION)
    if stake is not None:
        section.locator(f".quickplay-chip:has(input[value='{stake}'])").click()
    if bots:
        section.locator(".quickplay-bots input").check()
    section.locator(f"button[name=variant][value={variant}]").click()


def snap_section(page, snap, name):
    """The whole page, and the quick play section by itself beside it (to look at closely)."""
    path = snap(page, name)
    page.locator(SECTION).screenshot(path=path.with_name(path.stem + "-section.png"), animations="disabled")


def table_of(page) -> int:
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def test_two_members_tap_play_japanese_and_both_land_at_the_started_match(new_member, snap, browser_problems):
    tamar = new_member("tamar", **LAPTOP)
    levan = new_member("levan", locale="ru-RU", **PHONE)

    tamar.goto("/ka/")
    tap(tamar, "japanese", stake=25)
    panel = tamar.locator("#quickplay-panel")
    expect(panel.locator(".quickplay-status")).to_be_visible()
    expect(panel.locator(".quickplay-looking")).to_have_text("1")
    expect(panel.locator("[data-quickplay-waited]")).to_have_text(re.compile(r"^0:0[1-9]$"))  # it ticks
    snap_section(tamar, snap, "tamar-waits")

    levan.goto("/ru/")
    tap(levan, "japanese", stake=25)
    for page in (levan, tamar):  # levan's tap went straight to the table; tamar's page followed it live
        expect(page).to_have_url(TABLE_URL)
        expect(page.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))
    assert table_of(tamar) == table_of(levan)
    snap(tamar, "tamar-at-the-match")
    snap(levan, "levan-at-the-match-phone")

    # Back on the home page while the match runs: the way back to it, not the buttons.
    tamar.goto("/ka/")
    expect(tamar.locator(SECTION).get_by_role("link")).to_have_attribute("href", f"/ka/tables/{table_of(levan)}/")
    expect(tamar.locator(SECTION).locator("button[name=variant]")).to_have_count(0)


@pytest.mark.site_settings(QUICKPLAY_BOTS_AFTER_SECONDS=3)
def test_a_classic_player_who_asked_for_bots_gets_them_after_the_wait(new_member, snap, browser_problems):
    nino = new_member("nino", **PHONE)
    nino.goto("/ka/")
    tap(nino, "classic", bots=True)
    expect(nino.locator("[data-quickplay-countdown]")).to_be_visible()
    snap_section(nino, snap, "waiting-for-bots")
    expect(nino).to_have_url(TABLE_URL, timeout=15_000)
    expect(nino.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))
    snap(nino, "playing-with-bots")

    from games.models import Seat, Table

    table = Table.objects.get(pk=table_of(nino))
    assert table.variant == "classic" and not table.rated
    assert Seat.objects.filter(table=table, is_bot=True).count() == 3


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_quick_play_section_fits_a_phone_and_a_laptop(new_member, snap, browser_problems, language):
    from django.contrib.auth import get_user_model

    from coins.services import balance_of, staff_adjust

    for size, context in (("phone", PHONE), ("laptop", LAPTOP)):
        name = f"{language}_{size}"
        page = new_member(name, **context)
        page.goto(f"/{language}/")
        assert_nothing_cut_off(page)
        snap_section(page, snap, f"{size}-buttons")

        user = get_user_model().objects.get(username=name)
        staff = get_user_model().objects.create_user(f"staff_{name}", is_staff=True)
        staff_adjust(user, 10 - balance_of(user), "test set-up", staff)
        tap(page, "japanese", stake=250)
        expect(page.locator(".quickplay-message")).to_be_visible()  # 10 coins do not cover 250
        assert_nothing_cut_off(page)
        snap_section(page, snap, f"{size}-refused")

        tap(page, "classic", stake=0, bots=True)
        expect(page.locator(".quickplay-status")).to_be_visible()
        expect(page.locator("[data-quickplay-waited]")).to_have_text(re.compile(r"^0:0[1-9]$"))  # ticked
        expect(page.locator("[data-quickplay-range]")).to_have_text(re.compile(r"^\d{3,4}–\d{4}$"))
        expect(page.locator("[data-quickplay-countdown]")).to_have_text(re.compile(r"^0:[0-2]\d$"))
        assert_nothing_cut_off(page)
        snap_section(page, snap, f"{size}-waiting")
        page.locator(SECTION).get_by_role("button").click()  # leave the queue
        expect(page.locator(f"{SECTION} button[name=variant]")).to_have_count(2)


@pytest.mark.embedded_site
@pytest.mark.site_settings(QUICKPLAY_BOTS_AFTER_SECONDS=3)
def test_under_make_run_the_worker_pairs_and_both_pages_move(new_embedded_member, snap, browser_problems):
    """The embedded default (SQLite, no Redis): the pairing the worker's beat runs reaches the
    page through the local channel layer, as a join's pairing in the web process does."""
    tamar, levan = new_embedded_member("tamar"), new_embedded_member("levan", **PHONE)
    tamar.goto("/ka/")
    tap(tamar, "japanese")
    expect(tamar.locator(".quickplay-looking")).to_have_text("1")
    levan.goto("/ru/")
    tap(levan, "japanese")
    for page in (tamar, levan):
        expect(page).to_have_url(TABLE_URL)
    assert table_of(tamar) == table_of(levan)

    nino = new_embedded_member("nino")
    nino.goto("/ka/")
    tap(nino, "classic", bots=True)
    expect(nino).to_have_url(TABLE_URL, timeout=15_000)  # made by the worker's periodic pairing
    expect(nino.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))
    snap(nino, "embedded-with-bots")
