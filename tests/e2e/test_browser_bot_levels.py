"""A practice table at each bot level, made through the table form in Georgian: the table
keeps the level asked for, every bot's seat shows it beside the bot's name, and the bots
answer a move made against them. On a phone the narrow side seats show every level's name
whole, in Georgian and in Russian."""

import re

import pytest
from playwright.sync_api import expect

from e2e.deals import joker_lead_seed
from e2e.layout import PHONE
from e2e.match_play import MATCH, expect_move_answered, make_a_move, version_of
from e2e.tables import seat_members

# The level's name as the Georgian page says it (games/locale/ka).
LEVEL_NAMES_KA = {"beginner": "დამწყები", "club": "კლუბური", "master": "ოსტატი"}
LEVEL_NAMES = {"ka": LEVEL_NAMES_KA, "ru": {"beginner": "Новичок", "club": "Клубный", "master": "Мастер"}}


@pytest.mark.parametrize("level", ["beginner", "club", "master"])
def test_a_practice_table_at_each_bot_level_from_the_table_form_in_georgian(new_member, level, snap):
    from games.models import Match, Table

    page = new_member("tamar")
    page.goto("/ka/tables/new/?variant=classic")
    expect(page.locator("input[name=variant]")).to_have_value("classic")
    page.wait_for_load_state("load")  # a tap on a page still loading can be lost
    expect(page.locator("label[for=id_bot_level]")).to_have_text("ბოტების დონე:")
    page.locator("select[name=clock_seconds]").select_option("120")
    page.locator("input[name=fill_with_bots]").check()
    page.locator("select[name=bot_level]").select_option(level)
    page.locator("form.table-form [type=submit]").click()
    expect(page).to_have_url(re.compile(r"/ka/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))

    for seat in (1, 2, 3):
        expect(page.locator(f"{MATCH} .player[data-seat='{seat}'] .seat-name")).to_have_text(
            f"ბოტი {seat + 1} · {LEVEL_NAMES_KA[level]}")
    expect(page.locator(f"{MATCH} .player[data-seat='0'] .seat-name")).not_to_contain_text("·")
    table = Table.objects.get(pk=table_id)
    assert (table.bot_level, table.fill_with_bots, table.rated) == (level, True, False)
    snap(page, f"practice-table-{level}-ka")

    # The bots have moved up to our turn; our move is answered, and the bots move on to our next turn.
    expect(page.locator(f"{MATCH}.my-turn")).to_have_count(1)
    version = version_of(page)
    make_a_move(page)
    answered = expect_move_answered(page, version)
    expect(page.locator(f"{MATCH}.my-turn")).to_have_count(1)
    assert version_of(page) >= answered
    moves_by_seat = {seat: 0 for seat in range(4)}
    for deal in Match.objects.get(table=table).record["deals"]:
        for action in deal["actions"]:
            moves_by_seat[action["seat"]] += 1
    assert moves_by_seat[0] >= 1 and all(moves_by_seat[seat] >= 1 for seat in (1, 2, 3)), moves_by_seat


SIDE_SEAT_HEIGHTS = """(match) => [1, 3].map(
  (seat) => document.querySelector(`${match} .player[data-seat='${seat}']`).getBoundingClientRect().height)"""


@pytest.mark.parametrize("language", ["ka", "ru"])
@pytest.mark.site_settings(TEST_DEAL_SEED=joker_lead_seed())  # the seat on my right deals the first deal
def test_a_phone_shows_each_bot_level_whole_in_the_side_seats(new_member, language, snap):
    phone = new_member("nino", **PHONE)
    for level in ("beginner", "club", "master"):
        table_id = seat_members("classic", ["nino"], game_type="nines", fill_with_bots=True,
                                bot_level=level, clock_seconds=120)
        phone.goto(f"/{language}/tables/{table_id}/")
        for seat in (1, 3):  # the seats left and right of mine
            level_name = phone.locator(f"{MATCH} .player[data-seat='{seat}'] .seat-name .bot-level")
            expect(level_name).to_have_text(LEVEL_NAMES[language][level])
            # Whole: on its own line, not wider than the seat leaves it (no "…").
            assert level_name.evaluate("e => e.scrollWidth <= e.clientWidth"), (language, level, seat)
        # The dealer's mark is a chip on its seat's corner: the side seat that deals is no taller
        # than the other (the mark took a third line under the name and the level).
        expect(phone.locator(f"{MATCH} .player[data-seat='3'] .dealer-mark")).to_have_count(1)
        # Both measured in one turn of the page's script: a redraw between two measurements
        # would leave the first on a seat no longer in the page (0 px high).
        heights = phone.evaluate(SIDE_SEAT_HEIGHTS, MATCH)
        assert abs(heights[0] - heights[1]) < 1, (language, level, heights)
        snap(phone, f"side-seats-{level}-{language}")
