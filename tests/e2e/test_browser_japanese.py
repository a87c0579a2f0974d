"""Japanese Joker in real browsers: a password table, a whole deal played by clicking
the marked cards (a joker lead with a named suit among them), a reload in the middle
of a deal, the match page on a phone, and a player who closes the page."""

import re

import pytest
from playwright.sync_api import expect

from e2e.deals import deal_seed
from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import (
    MATCH,
    everyone_at,
    expect_marked_moves_are_the_legal_ones,
    expect_newer_than,
    expect_version,
    legal_cards,
    make_a_move,
    open_the_drawer,
    play_joker,
    play_until,
    position_as_seen,
    version_of,
)
from e2e.tables import match_of, seat_two_members_at_a_japanese_table

TABLE_PASSWORD = "tbilisi-1"
# Slow machines and busy CI: nobody's move clock should run out during a scenario.
CLOCK_SECONDS = "120"
# The score sheet may scroll sideways inside its own box on a phone.
SCROLLS_BY_ITSELF = [".score-scroll"]


def create_password_table(host):
    host.goto("/ka/lobby/")
    host.locator("a[href$='variant=japanese']").click()
    expect(host.locator("input[name=variant]")).to_have_value("japanese")
    host.wait_for_load_state("load")  # as in test_browser_classic: a tap on a page still loading can be lost
    host.locator("select[name=visibility]").select_option("password")
    host.locator("input[name=password]").fill(TABLE_PASSWORD)
    host.locator("select[name=clock_seconds]").select_option(CLOCK_SECONDS)
    host.locator("form.table-form [type=submit]").click()
    expect(host).to_have_url(re.compile(r"/ka/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/", host.url).group(1))


def sit_down(guest, password):
    guest.locator(".join-form input[name=password]").fill(password)
    guest.locator(".join-form [type=submit]").click()


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_two_people_play_a_whole_japanese_deal_at_a_password_table(new_member, snap, browser_problems):
    host = new_member("tamar")
    guest = new_member("levan", **PHONE)

    table_id = create_password_table(host)
    expect(host.locator("#seat-list li")).to_have_count(2)
    snap(host, "table-waiting-for-a-second-player")

    # The guest finds the table in the lobby, marked as a password table.
    guest.goto("/ka/lobby/")
    row = guest.locator(f".table-row[data-table-id='{table_id}']")
    expect(row.locator(".lock")).to_be_visible()
    assert_nothing_cut_off(guest)  # the lobby on a phone: each table a block of its own
    snap(guest, "lobby-phone")
    row.get_by_role("link").click()
    expect(guest).to_have_url(re.compile(rf"/tables/{table_id}/$"))

    sit_down(guest, "not-the-password")
    expect(guest.locator(".messages .error")).to_be_visible()
    expect(guest.locator(".join-form")).to_be_visible()  # still not seated
    expect(guest.locator(MATCH)).to_be_empty()
    snap(guest, "wrong-password-refused")

    sit_down(guest, TABLE_PASSWORD)
    pages = [host, guest]
    everyone_at(pages, 1)  # the host's waiting room turned into the match by itself
    match_id, seats = match_of(table_id), {host: 0, guest: 1}
    expect(host.locator("#waiting-room")).to_be_hidden()
    snap(host, "match-started-host-chooses-trump")
    assert_nothing_cut_off(guest, allow=SCROLLS_BY_ITSELF)
    snap(guest, "match-started-phone")

    # The host declares: trump from the first three cards.
    expect_marked_moves_are_the_legal_ones(host, match_id, 0)
    expect(guest.locator(f"{MATCH} .trump-choice")).to_have_count(0)
    host.locator(f"{MATCH} button.trump-choice").first.click()
    version = expect_newer_than(host, 1)
    everyone_at(pages, version)
    expect(host.locator(f"{MATCH} .hand svg[data-card]")).to_have_count(8)
    expect(host.locator(f"{MATCH} .columns.mine .column")).to_have_count(5)

    # A joker lead with a named suit: the guest must answer with their highest card of it.
    joker = next(card for card in legal_cards(host) if card.startswith("X"))
    led = play_joker(host, joker, suit=_suit_the_guest_holds(guest))  # Japanese: always to take, no mode
    version = expect_newer_than(host, version)
    everyone_at(pages, version)
    expect(guest.locator(f"{MATCH} .trick-slot[data-seat='0'] svg[data-card='{joker}']")).to_be_visible()
    expect_marked_moves_are_the_legal_ones(guest, match_id, 1)
    answers = [card for card in legal_cards(guest) if not card.startswith("X")]
    assert len(answers) == 1 and answers[0][1] == led["suit"], answers
    snap(host, "joker-led-with-a-named-suit")
    assert_nothing_cut_off(guest, allow=SCROLLS_BY_ITSELF)
    snap(guest, "joker-led-phone-must-answer-the-highest")

    halfway = {"snapped": False}

    def snap_halfway(page):
        if not halfway["snapped"] and version_of(page) >= version + 16:
            halfway["snapped"] = True
            snap(host, "halfway-host")
            assert_nothing_cut_off(guest, allow=SCROLLS_BY_ITSELF)
            snap(guest, "halfway-phone")
        return False

    deal_rows = host.locator(f"{MATCH} .score-sheet tr.deal-row:not(.current)")
    play_until(pages, lambda: deal_rows.count() > 0, match_id=match_id, seats=seats, before_move=snap_halfway)

    # The deal is over: its 18 tricks and score on the sheet; the next deal has begun.
    from games.models import Match
    from games.services.matches import load_state

    sheet = load_state(Match.objects.get(pk=match_id)).view(0)["score_sheet"]["deals"]
    assert len(sheet) == 1 and sum(sheet[0]["tricks"]) == 18
    for page in pages:
        open_the_drawer(page)  # on a phone the score sheet is one tap away
        expect(page.locator(f"{MATCH} .score-sheet")).to_have_attribute("open", "")  # open by itself
        row = page.locator(f"{MATCH} .score-sheet tr.deal-row:not(.current)")
        expect(row).to_have_count(1)
        cells = row.locator("td")
        for seat in range(2):  # the sheet's columns are the seats in order: tricks, points, total
            points = sheet[0]["scores"][seat]
            expect(cells.nth(3 * seat)).to_have_text(re.compile(rf"^(★ )?{sheet[0]['tricks'][seat]}$"))
            expect(cells.nth(3 * seat + 1)).to_have_text(f"+{points}" if points else "0")
        expect(page.locator(MATCH)).to_have_attribute("data-phase", "trump")
    snap(host, "deal-over-score-sheet")
    assert_nothing_cut_off(guest, allow=SCROLLS_BY_ITSELF)
    snap(guest, "deal-over-score-sheet-phone")


def _suit_the_guest_holds(guest):
    hand = guest.locator(f"{MATCH} .hand svg[data-card]").evaluate_all("fs => fs.map(f => f.dataset.card)")
    suits = [card[1] for card in hand if not card.startswith("X")]
    return max(set(suits), key=suits.count)


@pytest.mark.site_settings(TEST_DEAL_SEED=deal_seed())
def test_a_reload_in_the_middle_of_a_deal_shows_the_same_position(new_member, snap):
    host, guest = new_member("tamar"), new_member("levan")
    table_id = seat_two_members_at_a_japanese_table("tamar", "levan", clock_seconds=int(CLOCK_SECONDS))
    pages = [host, guest]
    for page in pages:
        page.goto(f"/ka/tables/{table_id}/")
    everyone_at(pages, 1)
    moves = {"made": 0}

    def count(page):
        moves["made"] += 1
        return False

    play_until(pages, lambda: moves["made"] >= 9, before_move=count)  # trump, then four tricks
    mover = next(page for page in pages if page.locator(f"{MATCH}.my-turn").count())
    before = position_as_seen(mover)
    assert before["legal"], "the player to move has no marked card"
    snap(mover, "before-the-reload")

    mover.reload()
    expect_version(mover, before["version"])
    after = position_as_seen(mover)
    assert after == before
    snap(mover, "after-the-reload")

    # The reloaded page plays on: its new socket carries the next move to both.
    make_a_move(mover)
    version = expect_newer_than(mover, int(before["version"]))
    everyone_at(pages, version)


@pytest.mark.site_settings(DISCONNECT_GRACE_SECONDS=3)
def test_closing_the_page_loses_the_match_after_the_grace_time(new_member, snap):
    from games.models import Match

    host, guest = new_member("tamar"), new_member("levan")
    table_id = seat_two_members_at_a_japanese_table("tamar", "levan", clock_seconds=int(CLOCK_SECONDS))
    for page in (host, guest):
        page.goto(f"/ka/tables/{table_id}/")
    everyone_at([host, guest], 1)

    guest.close()
    note = host.locator(f"{MATCH} .player[data-seat='1'] .disconnected-note")
    expect(note).to_be_visible()
    snap(host, "opponent-disconnected-grace-running")

    end = host.locator(f"{MATCH} .match-end")
    expect(end).to_be_visible(timeout=20_000)  # 3 s of grace, then Celery's timer
    expect(end.locator(".match-end-winner")).to_contain_text("tamar")
    expect(host.locator(f"{MATCH} .card-button.legal")).to_have_count(0)
    snap(host, "won-after-the-grace-time")
    match = Match.objects.get(table_id=table_id)
    assert (match.status, match.end_reason, match.winners) == ("finished", "forfeit", [0])
