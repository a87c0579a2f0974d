"""The Swiss in real browsers: a member joins from /tournaments/ on a phone in Georgian, two more
join in Russian; the beat starts it and pairs round one (tamar–levan, nino sits out); tamar and
levan play and levan resigns; a visitor's Swiss page shows the standings move and round two
paired without a reload (tamar–nino, levan sits out), tamar is taken to her new table, and the
page is photographed on a laptop in Russian."""

import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import MATCH, play_until

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
TABLE_URL = re.compile(r"/tables/\d+/$")
NAME_KA = "შაბათის შვეიცარიული — იაპონური ჯოკერი"


def table_of(page) -> int:
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def test_join_a_swiss_play_a_round_and_see_the_next_round_paired_and_the_standings_move(
        new_member, new_person, snap, browser_problems):
    from tournaments.models import Kind, Tournament

    swiss = Tournament.objects.create(name="Saturday Japanese Swiss", kind=Kind.SWISS, variant="japanese",
                                      rounds=3, rated=False, starts_at=timezone.now() + timedelta(hours=1))
    tamar = new_member("tamar", **PHONE)
    levan = new_member("levan", locale="ru-RU", **LAPTOP)
    nino = new_member("nino", locale="ru-RU", **LAPTOP)
    visitor = new_person("visitor", locale="ru-RU", **LAPTOP)

    tamar.goto("/ka/tournaments/")
    expect(tamar.locator("#tournaments-upcoming")).to_contain_text("შვეიცარიული · 3 ტური")
    tamar.get_by_role("link", name=NAME_KA).click()
    tamar.get_by_role("button", name="შვეიცარიულში შესვლა").click()
    expect(tamar.locator("#arena-mine")).to_contain_text("თქვენი ადგილი: 1")
    expect(tamar.get_by_role("button", name="შვეიცარიულიდან გასვლა")).to_be_visible()
    assert_nothing_cut_off(tamar)
    snap(tamar, "joined-ka-phone")
    for page in (levan, nino):  # levan joins before nino: round one's bye goes to nino, the lowest
        page.goto(f"/ru/tournaments/{swiss.pk}/")
        page.get_by_role("button", name="Войти в швейцарку").click()
        expect(page.get_by_role("button", name="Выйти из швейцарки")).to_be_visible()
    visitor.goto(f"/ru/tournaments/{swiss.pk}/")
    expect(visitor.locator("#swiss-standings tbody tr")).to_have_count(3)

    Tournament.objects.filter(pk=swiss.pk).update(starts_at=timezone.now())  # its hour: the beat starts it
    for page in (tamar, levan):
        expect(page).to_have_url(TABLE_URL)
        expect(page.locator(MATCH)).to_have_attribute("data-version", re.compile(r"^\d+$"))
    first_table = table_of(tamar)
    assert table_of(levan) == first_table
    expect(visitor.locator("#swiss-round-now")).to_have_text("Тур 1 из 3")
    expect(visitor.locator("#swiss-round-1")).to_contain_text("nino · пропускает тур: 2 очка")
    first_row = visitor.locator("#swiss-standings tbody tr").first
    expect(first_row).to_contain_text("nino")  # the bye's 2 points lead while the match is played

    moves = iter(range(4))
    play_until([tamar, levan], lambda: next(moves) >= 3)  # a few moves, by whoever's turn it is
    levan.locator("details.resign summary").click()
    levan.locator("details.resign button").click()

    expect(visitor.locator("#swiss-round-now")).to_have_text("Тур 2 из 3")  # paired without a reload
    expect(visitor.locator("#swiss-round-2")).to_contain_text("levan · пропускает тур: 2 очка")
    expect(visitor.locator("#swiss-round-2 li").first).to_contain_text(re.compile(r"tamar – nino|nino – tamar"))
    expect(first_row).to_contain_text("tamar")  # the standings moved: tamar's win, then the tie-breaks
    expect(first_row.locator("td").nth(2)).to_have_text("2")
    expect(visitor.locator(f"#swiss-round-1 a[href='/ru/tables/{first_table}/replay/']")).to_have_count(1)
    snap(visitor, "swiss-round-two-ru-laptop")

    for page in (tamar, nino):  # round two's players are taken to their table
        expect(page).to_have_url(TABLE_URL)
        expect(page).not_to_have_url(re.compile(rf"/tables/{first_table}/$"))
    assert table_of(tamar) == table_of(nino)
    tamar.goto(f"/ka/tournaments/{swiss.pk}/")
    expect(tamar.locator("#swiss-round-now")).to_have_text("ტური 2 / 3")
    assert_nothing_cut_off(tamar)
    snap(tamar, "round-two-ka-phone")
