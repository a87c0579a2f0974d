"""The ends of matches in real browsers: a Japanese match played to its last deal and a
rematch agreed from the end screen; a classic player who closes the page and whose seat
the bot then plays for the three who stay."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import (
    PHONE,
    PHONE_ZOOMED_125,
    PHONE_ZOOMED_150,
    assert_nothing_cut_off,
    find_cut_off,
    spilled_out_of,
)
from e2e.match_play import MATCH, everyone_at, play_until
from e2e.tables import (
    LONG_NAMES,
    give_long_names,
    match_of,
    seat_members,
    seat_two_members_at_a_japanese_table,
)
from tests.replay_helpers import finished_match

CLOCK_SECONDS = 120  # nobody's clock should run out on a busy machine
# A Japanese match to 11 lasts about four deals of 37 moves; this leaves room for long ones.
MOVES_IN_A_LONG_MATCH = 900
SCROLLS_BY_ITSELF = [".score-scroll"]


def test_two_people_play_a_japanese_match_to_the_end_and_meet_again_at_a_rematch(new_member, snap):
    from games.models import Match

    host, guest = new_member("tamar"), new_member("levan", **PHONE)
    table_id = seat_two_members_at_a_japanese_table("tamar", "levan", clock_seconds=CLOCK_SECONDS, target=11)
    pages = [host, guest]
    for page in pages:
        page.goto(f"/en/tables/{table_id}/")
    everyone_at(pages, 1)

    ends = [page.locator(f"{MATCH} .match-end") for page in pages]
    play_until(pages, lambda: ends[0].count() > 0, max_moves=MOVES_IN_A_LONG_MATCH)

    # The end: the same winner on both pages as in the stored match, no move left to make.
    match = Match.objects.get(pk=match_of(table_id))
    assert match.status == "finished" and match.end_reason not in ("forfeit", "resign", "abort"), match.end_reason
    assert len(match.winners) == 1
    winner = ["tamar", "levan"][match.winners[0]]
    for page, end in zip(pages, ends):
        expect(end.locator(".match-end-winner")).to_contain_text(winner)
        expect(page.locator(f"{MATCH} .card-button.legal")).to_have_count(0)
        expect(page.locator(f"{MATCH} .hand")).to_have_count(0)  # no empty hand above the end screen
        expect(end.get_by_role("link", name="Back to the lobby")).to_be_visible()
    snap(host, "match-over")
    assert_nothing_cut_off(guest, allow=SCROLLS_BY_ITSELF)
    snap(guest, "match-over-phone")

    # The guest asks for a rematch and lands at the new table; the host sees the offer live.
    guest.locator(f"{MATCH} .match-end .rematch button").click()
    expect(guest).not_to_have_url(re.compile(rf"/tables/{table_id}/$"))
    expect(guest).to_have_url(re.compile(r"/en/tables/\d+/$"))
    rematch_id = int(re.search(r"/tables/(\d+)/", guest.url).group(1))
    offer = host.locator(f"{MATCH} .match-end .rematch")
    expect(offer).to_contain_text("levan offers a rematch.")
    snap(host, "rematch-offered")
    offer.get_by_role("button", name="Join the rematch").click()
    expect(host).to_have_url(re.compile(rf"/en/tables/{rematch_id}/$"))

    # Both are at the new table and its match has begun.
    everyone_at(pages, 1)
    expect(host.locator(f"{MATCH} .match-end")).to_have_count(0)
    snap(host, "rematch-started")


@pytest.mark.site_settings(DISCONNECT_GRACE_SECONDS=3)
def test_a_classic_player_who_closes_the_page_is_replaced_by_the_bot_for_the_others(new_member, snap):
    names = ["tamar", "levan", "nino", "giorgi"]
    people = {name: new_member(name) for name in names}
    table_id = seat_members("classic", names, game_type="short", clock_seconds=CLOCK_SECONDS)
    for page in people.values():
        page.goto(f"/en/tables/{table_id}/")
    everyone_at(list(people.values()), 1)

    people["giorgi"].close()  # seat 3's only connection
    stayers = [people[name] for name in names[:3]]
    seat = stayers[0].locator(f"{MATCH} .player[data-seat='3']")
    expect(seat.locator(".disconnected-note")).to_be_visible()
    snap(stayers[0], "giorgi-disconnected")
    # 3 s of grace, then Celery's timer: the bot sits in for the rest of the game.
    expect(seat.locator(".player-name")).to_contain_text("giorgi left", timeout=20_000)
    snap(stayers[0], "the-bot-took-giorgis-seat")

    # The three play on; seat 3 makes its moves by itself (here: its bid).
    bid_of_seat_3 = seat.locator(".bid")
    play_until(stayers, lambda: bid_of_seat_3.inner_text() != "–", max_moves=12)
    for page in stayers:
        expect(page.locator(f"{MATCH} .player[data-seat='3'] .bid")).not_to_have_text("–")
    snap(stayers[0], "the-bot-has-bid")

    from games.models import Seat

    seat_3 = Seat.objects.get(table_id=table_id, index=3)
    assert seat_3.left_at is not None and seat_3.player.display_name_text == "giorgi"


@pytest.mark.parametrize(("screen", "language"), [(PHONE_ZOOMED_125, "ru"), (PHONE_ZOOMED_150, "ka")],
                         ids=["zoomed-125-ru", "zoomed-150-ka"])
def test_a_classic_end_with_stakes_and_long_names_fits_a_zoomed_phone(new_person, snap, screen, language):
    """A visitor opens a finished classic match played for coins, its players named with up to 40
    letters, on a phone zoomed to 125 % (288 px) in Russian and 150 % (240 px) in Georgian: the
    end's standings fit the screen (the name "Константинопольский" pushed the page 63 px wider at
    288 px, and at 240 px the Georgian headings 24 px), and no seat's figures run into the next
    seat (in the row of seats above the trick "ქულა -730" was wider than its seat at 240 px)."""
    match, _players = finished_match("classic", ("tamar", "levan", "nino", "dato"), game_type="short", stake=25)
    give_long_names(["levan", "tamar"])
    page = new_person("visitor", locale={"ru": "ru-RU", "ka": "ka-GE"}[language], **screen)
    page.goto(f"/{language}/tables/{match.table_id}/")
    standings = page.locator(f"{MATCH} .match-end .standings")
    expect(standings).to_contain_text(LONG_NAMES["levan"])
    cut_off = [line for line in find_cut_off(page, allow=[*SCROLLS_BY_ITSELF, ".site-nav ul"])
               if "scrolls sideways" not in line]  # what it is, not the page's width for a moment (notes)
    assert cut_off == []
    # Measured in the page in one step: the socket's first frame may redraw the end meanwhile.
    box = page.evaluate("() => { const r = document.querySelector('#match .match-end .standings')"
                        ".getBoundingClientRect(); return {left: r.left, right: r.right}; }")
    assert box["left"] >= 0 and box["right"] <= screen["viewport"]["width"] + 1, box
    assert spilled_out_of(page, f"{MATCH} .player") == []
    snap(page, f"classic-end-{language}")
