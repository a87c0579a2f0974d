"""A spectator finds a live match in the lobby's list of matches being played, follows its
Watch link to the match page and watches it live (no hand, no move buttons); the players see
how many watch ("👁 1", named for screen readers) and see it go when the spectator leaves.
On a 360×740 phone and a 1366×768 desktop, in Georgian and Russian; screenshots of the lobby's
list and of the spectator's table."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from e2e.layout import assert_nothing_cut_off
from e2e.match_play import MATCH, everyone_at, expect_newer_than, is_my_turn, make_a_move, version_of
from e2e.tables import seat_members

LOCALES = {"ka": "ka-GE", "ru": "ru-RU"}


def screen(width, height, phone):
    size = {"width": width, "height": height}
    extra = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if phone else {}
    return {"viewport": size, "screen": size, **extra}


SIZES = {"phone-360": screen(360, 740, True), "desktop-1366": screen(1366, 768, False)}


def _watching(language, n):
    with translation.override(language):
        return translation.ngettext("%(n)s person watching", "%(n)s people watching", n) % {"n": n}


@pytest.mark.parametrize("size, language", [("phone-360", "ka"), ("desktop-1366", "ru"),
                                            ("phone-360", "ru"), ("desktop-1366", "ka")])
def test_a_spectator_watches_from_the_lobby_and_the_players_see_the_count(
        live_site, new_member, new_person, snap, size, language):
    players = [new_member(name, **SIZES["desktop-1366"], locale=LOCALES[language]) for name in ("tamar", "levan")]
    table_id = seat_members("japanese", ["tamar", "levan"], clock_seconds=120, target=11)
    for page in players:
        page.goto(f"/{language}/tables/{table_id}/")
    everyone_at(players, 1)
    count = players[0].locator("#spectator-count")
    expect(count).to_be_hidden()  # nobody watches yet

    # A visitor (or, in Russian, a member) opens the lobby and finds the match being played.
    if language == "ru":
        spectator = new_member("nino", **SIZES[size], locale=LOCALES[language])
    else:
        spectator = new_person("visitor", **SIZES[size], locale=LOCALES[language])
    spectator.goto(f"/{language}/lobby/")
    row = spectator.locator(f'tr.running-row[data-table-id="{table_id}"]')
    expect(row).to_be_visible()
    expect(row).to_contain_text("tamar")
    expect(row).to_contain_text("levan")
    expect(row.locator(".running-spectators")).to_contain_text("0")
    # One call that finds the row and scrolls to it: the lobby re-renders its lists whenever a
    # table changes, and a row found first and scrolled later can have been replaced meanwhile.
    row.evaluate("element => element.scrollIntoView({block: 'nearest'})")
    assert_nothing_cut_off(spectator)
    snap(spectator, f"lobby-running-{size}-{language}")

    # Watch: the match page itself, at the address a friend's link gives.
    row.locator("a.watch-link").click()
    expect(spectator).to_have_url(re.compile(rf"/{language}/tables/{table_id}/$"))
    expect(spectator.locator(f"{MATCH}.spectating")).to_be_visible()
    expect(spectator.locator(f"{MATCH} .watching-note")).to_be_visible()
    assert spectator.locator(f"{MATCH} .hand .card-button").count() == 0
    assert spectator.locator(f"{MATCH} [ws-send]").count() == 0

    # The players see one spectator, named for screen readers in their language.
    for page in players:
        expect(page.locator("#spectator-count")).to_be_visible()
        expect(page.locator("#spectator-count")).to_have_attribute("aria-label", _watching(language, 1))
        expect(page.locator("#spectator-count")).to_contain_text("1")

    # The spectator's page follows the match live.
    version = version_of(spectator)
    for _ in range(3):
        mover = next(page for page in players if is_my_turn(page))
        make_a_move(mover)
        version = expect_newer_than(spectator, version)
        everyone_at(players, version)
    # A spectator holds no cards: no hand under the felt, not even an empty one.
    assert spectator.locator(f"{MATCH} .hand").count() == 0
    expect(spectator.locator(f"{MATCH} .columns .card-button svg[data-card]").first).to_be_visible()
    assert_nothing_cut_off(spectator, allow=[".score-scroll", ".match-extras"])
    snap(spectator, f"spectator-view-{size}-{language}")
    snap(players[0], f"player-sees-the-count-{language}")

    # The spectator leaves: the players' count goes.
    spectator.close()
    for page in players:
        expect(page.locator("#spectator-count")).to_be_hidden()
        expect(page.locator("#spectator-count")).to_have_attribute("data-count", "0")


SEAT_TWO_MEMBERS = """
from accounts.players import player_for_user
from django.contrib.auth import get_user_model
from games.services import tables
from games.services.tables import TableSettings

host, guest = (player_for_user(get_user_model().objects.get(username=name)) for name in ("ana", "giorgi"))
table = tables.create_table(host, TableSettings(variant="japanese", clock_seconds=120, target=11))
tables.sit(table.pk, guest)
print(table.pk)
"""


@pytest.mark.embedded_site
def test_under_make_run_the_players_see_a_spectator_come_and_go(live_site, new_embedded_member, new_person, snap):
    """The count is kept in the database: it works under `make run`'s SQLite and in-memory
    channel layer as under PostgreSQL and Redis."""
    players = [new_embedded_member(name) for name in ("ana", "giorgi")]
    table_id = int(live_site.run_python(SEAT_TWO_MEMBERS).strip().splitlines()[-1])
    for page in players:
        page.goto(f"/ka/tables/{table_id}/")
    everyone_at(players, 1)
    expect(players[0].locator("#spectator-count")).to_be_hidden()
    visitor = new_person("visitor", **SIZES["phone-360"])
    visitor.goto("/ka/lobby/")
    visitor.locator(f'tr.running-row[data-table-id="{table_id}"] a.watch-link').click()
    expect(visitor.locator(f"{MATCH}.spectating")).to_be_visible()
    for page in players:
        expect(page.locator("#spectator-count")).to_have_attribute("data-count", "1")
        expect(page.locator("#spectator-count")).to_be_visible()
    visitor.close()
    for page in players:
        expect(page.locator("#spectator-count")).to_be_hidden()


def test_a_table_without_spectators_is_made_from_the_form_and_a_visitor_is_told_why(
        live_site, new_member, new_person, snap, browser_problems):
    host = new_member("tamar", **SIZES["phone-360"])
    host.goto("/ka/tables/new/?variant=japanese")
    box = host.locator('input[name="allow_spectators"]')
    expect(box).to_be_checked()
    box.uncheck()
    box.scroll_into_view_if_needed()
    snap(host, "the-box-unticked-ka")
    host.locator("form.table-form button[type=submit]").click()
    expect(host).to_have_url(re.compile(r"/ka/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", host.url).group(1))
    guest = new_member("levan")
    guest.goto(f"/ka/tables/{table_id}/")
    guest.locator("form.join-form button[type=submit]").click()
    expect(guest.locator(f"{MATCH}[data-version]")).to_be_visible()

    for language, size in (("ka", "phone-360"), ("ru", "desktop-1366")):
        visitor = new_person(f"visitor-{language}", **SIZES[size], locale=LOCALES[language])
        with browser_problems.expected(r"403"):
            response = visitor.goto(f"/{language}/tables/{table_id}/")
        assert response.status == 403
        with translation.override(language):
            sentence = translation.gettext("The players of this table asked to play without spectators.")
        expect(visitor.locator("#watch-refused")).to_have_text(sentence)
        assert_nothing_cut_off(visitor)
        snap(visitor, f"refused-{size}-{language}")
