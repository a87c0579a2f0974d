"""Quick play in real browsers: two members tap "Play Japanese" on the home page and both
land at the started match; a player alone is offered a game with bots and reaches a started
bot match in each variant, by tapping the offer at the level chosen (Japanese, a Georgian
phone, the master) or by letting it
be taken by itself (classic, a Russian laptop), the waits shortened by their settings; the
section, the wait and the offer on a phone and a laptop, in ka and ru."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, PHONE_ZOOMED_150, assert_nothing_cut_off
from e2e.match_play import MATCH

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
TABLE_URL = re.compile(r"/tables/\d+/$")
SECTION = "#quickplay"


# The offer of bots shows a second after joining, and nothing comes by itself (only a tap takes it).
OFFER_BY_TAP = {"QUICKPLAY_BOT_OFFER_SECONDS": 1, "QUICKPLAY_BOTS_AFTER_SECONDS": 600}
OFFER = ".quickplay-offer"


def tap(page, variant, stake=None, people_only=False):
    section = page.locator(SECTION)
    if stake is not None:
        section.locator(f".quickplay-chip:has(input[value='{stake}'])").click()
    if people_only:
        section.locator(".quickplay-bots input[name=people_only]").check()
    section.locator(f"button[name=variant][value={variant}]").click()


def expect_bot_match(page, variant, bots, timeout=10_000):
    """The page is at a started match of `variant`: casual, free, the player and `bots` bots."""
    expect(page).to_have_url(TABLE_URL, timeout=timeout)
    expect(page.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))
    from games.models import Seat, Table

    table = Table.objects.get(pk=table_of(page))
    assert (table.variant, table.rated, table.stake, table.status) == (variant, False, 0, "playing")
    assert Seat.objects.filter(table=table, is_bot=True).count() == bots
    assert Seat.objects.filter(table=table, is_bot=False).count() == 1


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


@pytest.mark.site_settings(**OFFER_BY_TAP)
@pytest.mark.parametrize("screen", ["phone", "zoomed-150"])
def test_alone_on_a_georgian_phone_japanese_quick_play_offers_a_bot_and_one_tap_starts_the_match(
        new_member, snap, browser_problems, screen):
    nino = new_member("nino", **{"phone": PHONE, "zoomed-150": PHONE_ZOOMED_150}[screen])
    nino.goto("/ka/")
    tap(nino, "japanese")
    offer = nino.locator(OFFER)
    expect(offer).to_be_visible()  # nobody came: the offer, in the page's language
    # Its buttons come into sight by themselves (on a phone they lay below the screen's edge).
    expect(offer.locator(".quickplay-offer-buttons")).to_be_in_viewport(ratio=1)
    expect(offer.locator("button[value=now]")).to_have_text("ითამაშეთ ბოტთან")
    expect(offer).to_contain_text("ჯერ არავინ მოსულა.")
    levels = offer.locator(".quickplay-levels")
    expect(levels.locator("legend")).to_have_text("ბოტების დონე")
    expect(levels.locator("input[value=club]")).to_be_checked()  # club unless the player changes it
    levels.locator(".quickplay-chip:has(input[value=master])").tap()
    expect(levels.locator("input[value=master]")).to_be_checked()
    assert_nothing_cut_off(nino, allow=[".site-nav ul"])  # the menu is one row that scrolls at 240 px
    snap_section(nino, snap, "the-bot-offered")
    offer.locator("button[value=now]").tap()
    expect_bot_match(nino, "japanese", bots=1)
    expect(nino.locator(f"{MATCH} .player[data-seat] .seat-name", has_text="ოსტატი")).to_have_count(1)
    from games.models import Table

    assert Table.objects.get(pk=table_of(nino)).bot_level == "master"
    snap(nino, "playing-the-master-bot")


@pytest.mark.site_settings(QUICKPLAY_BOT_OFFER_SECONDS=1, QUICKPLAY_BOTS_AFTER_SECONDS=5)
def test_alone_on_a_russian_laptop_classic_quick_play_starts_with_bots_by_itself(new_member, snap, browser_problems):
    gio = new_member("gio", locale="ru-RU", **LAPTOP)
    gio.goto("/ru/")
    tap(gio, "classic")
    offer = gio.locator(OFFER)
    expect(offer).to_be_visible()
    expect(offer.locator("button[value=now]")).to_have_text("Играть с ботами")
    expect(offer).to_contain_text("игра с ботами начнётся сама")
    snap_section(gio, snap, "bots-offered")
    # Nobody tapped: the periodic pairing seats them once the 5 s are over.
    expect_bot_match(gio, "classic", bots=3, timeout=20_000)
    snap(gio, "playing-with-bots")


@pytest.mark.site_settings(**OFFER_BY_TAP)
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

        tap(page, "classic", stake=0)
        expect(page.locator(".quickplay-status")).to_be_visible()
        expect(page.locator("[data-quickplay-waited]")).to_have_text(re.compile(r"^0:0[1-9]$"))  # ticked
        expect(page.locator("[data-quickplay-range]")).to_have_text(re.compile(r"^\d{3,4}–\d{4}$"))
        expect(page.locator(f"{OFFER} [data-quickplay-countdown]")).to_have_text(re.compile(r"^9:[0-5]\d$"))
        assert_nothing_cut_off(page)
        snap_section(page, snap, f"{size}-waiting-with-the-offer")
        page.locator(OFFER).locator("button[value=people]").click()  # no bots: people only
        expect(page.locator(OFFER)).to_have_count(0)
        expect(page.locator(".quickplay-panel")).to_contain_text(
            {"ka": "თქვენ მხოლოდ ადამიანებს ელოდებით.", "ru": "Вы ждёте только людей."}[language])
        assert_nothing_cut_off(page)
        snap_section(page, snap, f"{size}-waiting-for-people")
        page.locator(SECTION).get_by_role("button").click()  # leave the queue
        expect(page.locator(f"{SECTION} button[name=variant]")).to_have_count(2)


@pytest.mark.embedded_site
@pytest.mark.site_settings(QUICKPLAY_BOTS_AFTER_SECONDS=3)
def test_under_make_run_the_worker_pairs_and_both_pages_move(new_embedded_member, snap, browser_problems):
    """The embedded default (SQLite, no Redis): the pairing the worker's beat runs reaches the
    page through the local channel layer, as a join's pairing in the web process does."""
    tamar, levan = new_embedded_member("tamar"), new_embedded_member("levan", **PHONE)
    tamar.goto("/ka/")
    tap(tamar, "japanese", people_only=True)  # no bot for her: she waits for levan
    expect(tamar.locator(".quickplay-looking")).to_have_text("1")
    levan.goto("/ru/")
    tap(levan, "japanese", people_only=True)
    for page in (tamar, levan):
        expect(page).to_have_url(TABLE_URL)
    assert table_of(tamar) == table_of(levan)

    nino = new_embedded_member("nino")
    nino.goto("/ka/")
    tap(nino, "classic")  # bots welcome, as the buttons ask unless "people only" is ticked
    expect(nino).to_have_url(TABLE_URL, timeout=15_000)  # made by the worker's periodic pairing
    expect(nino.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))
    snap(nino, "embedded-with-bots")
