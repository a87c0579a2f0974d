"""The arena in real browsers: a member joins from /tournaments/ on a phone in Georgian, a
second joins in Russian on a laptop and both land at one match; they play, one resigns, a
visitor's tournament page shows the standings move without a reload, both are seated again
at once; the final page shows the podium with the match's replay."""

import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import MATCH, play_until

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
TABLE_URL = re.compile(r"/tables/\d+/$")


def table_of(page) -> int:
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def test_join_an_arena_play_a_match_see_the_standings_move_and_the_final_page(new_member, new_person, snap,
                                                                              browser_problems):
    from tournaments.models import Status, Tournament

    arena = Tournament.objects.create(name="Evening arena", variant="japanese", minutes=60, rated=False,
                                      starts_at=timezone.now() - timedelta(minutes=1), status=Status.RUNNING)
    tamar = new_member("tamar", **PHONE)
    levan = new_member("levan", locale="ru-RU", **LAPTOP)
    visitor = new_person("visitor", locale="ru-RU", **LAPTOP)

    tamar.goto("/ka/tournaments/")
    expect(tamar.locator("#tournaments-running")).to_contain_text("Evening arena")
    assert_nothing_cut_off(tamar)
    snap(tamar, "list-ka-phone")
    tamar.get_by_role("link", name="Evening arena").click()
    tamar.get_by_role("button", name="არენაზე შესვლა").click()
    expect(tamar.locator("#arena-mine")).to_contain_text("თქვენი ადგილი: 1")
    assert_nothing_cut_off(tamar)
    snap(tamar, "joined-ka-phone")

    visitor.goto(f"/ru/tournaments/{arena.pk}/")
    expect(visitor.locator("#arena-standings")).to_contain_text("tamar")
    levan.goto(f"/ru/tournaments/{arena.pk}/")
    levan.get_by_role("button", name="Войти на арену").click()
    for page in (levan, tamar):  # levan's join seated both; tamar's arena page followed live
        expect(page).to_have_url(TABLE_URL)
        expect(page.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))
    first_table = table_of(levan)
    assert table_of(tamar) == first_table
    expect(visitor.locator("#arena-games")).to_contain_text("levan")  # the match being played, live
    snap(visitor, "playing-ru-laptop")

    moves = iter(range(4))
    play_until([tamar, levan], lambda: next(moves) >= 3)  # a few moves, by whoever's turn it is
    levan.locator("details.resign summary").click()
    levan.locator("details.resign button").click()

    winner_row = visitor.locator("#arena-standings tbody tr").first
    expect(winner_row).to_contain_text("tamar")
    expect(winner_row.locator("td").nth(2)).to_have_text("2")  # the standings moved without a reload
    snap(visitor, "standings-moved-ru-laptop")
    for page in (tamar, levan):  # seated again at once (only two in the arena: together again)
        expect(page).not_to_have_url(re.compile(rf"/tables/{first_table}/$"))
        expect(page).to_have_url(TABLE_URL)

    Tournament.objects.filter(pk=arena.pk).update(status=Status.FINISHED)
    tamar.goto(f"/ka/tournaments/{arena.pk}/")
    expect(tamar.locator("#arena-podium li").first).to_contain_text("tamar")
    expect(tamar.locator(f"#arena-results a[href='/ka/tables/{first_table}/replay/']")).to_have_count(2)
    assert_nothing_cut_off(tamar)
    snap(tamar, "final-ka-phone")
    levan.goto(f"/ru/tournaments/{arena.pk}/")
    expect(levan.get_by_role("heading", name="Пьедестал")).to_be_visible()
    expect(levan.locator("#arena-podium")).to_contain_text("levan")
    snap(levan, "final-ru-laptop")
