"""The clock's bank and each player's rating at the table, in real browsers: at a
15 s + 60 s table every seat shows its bank beside the clock; once the move time is over
the bank of the seat to act runs down on the page, and the figure the server sends after
the move is what is left. Each name carries its rating, a new player's marked provisional.
In Georgian and Russian, on a 360×740 phone and a 1366×768 laptop screen."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from e2e.layout import assert_nothing_cut_off
from e2e.match_play import MATCH, boxes_of, expect_newer_than, expect_table_at_rest, version_of
from e2e.tables import _player, match_of, seat_members

pytestmark = pytest.mark.e2e

SIZES = {"phone-360": {"width": 360, "height": 740}, "laptop-1366": {"width": 1366, "height": 768}}
MOVE, BANK = 15, 60
LATE = MOVE + 20  # the host's move time ran out this long ago: 20 s of the bank are being used
ESTABLISHED = 11  # rated matches: past the provisional ten
SCROLLS_BY_ITSELF = [".score-scroll", ".match-extras"]


def _rated_history():
    """Eleven rated Japanese matches between tamar and levan: both past provisional."""
    from games.models import Match
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from tests.factories import resign_and_forgive

    tamar, levan = _player("tamar"), _player("levan")
    for i in range(ESTABLISHED):
        table = table_service.create_table(tamar, TableSettings(variant="japanese", rated=True))
        table_service.sit(table.pk, levan)
        resign_and_forgive(Match.objects.get(table=table).pk, levan if i % 3 else tamar)


def _move_time_ran_out(match_id, seconds_ago):
    """The position's clock started `seconds_ago` (its deadline as the move would have written it)."""
    from games.models import Match
    from games.services import clocks
    from games.services.matches import load_state

    Match.objects.filter(pk=match_id).update(turn_started_at=timezone.now() - timedelta(seconds=seconds_ago))
    match = Match.objects.select_related("table").get(pk=match_id)
    Match.objects.filter(pk=match_id).update(deadline_at=clocks.deadline(match, load_state(match).to_act))


def _bank_seconds(locator):
    return float(locator.get_attribute("data-bank"))


def _shown_seconds(locator):
    return int("".join(ch for ch in locator.locator(".bank-value").inner_text() if ch.isdigit()))


def test_the_bank_beside_the_clock_and_the_rating_beside_each_name(new_member, snap):
    from ratings.models import Rating
    from ratings.services import shown_rating

    page = new_member("tamar")
    for name in ("levan", "nino"):
        new_member(name).close()
    _rated_history()
    tamar_rating = shown_rating(Rating.objects.get(player=_player("tamar"), variant="japanese"))
    assert not tamar_rating.provisional
    table_id = seat_members("japanese", ["tamar", "nino"], clock_seconds=MOVE, bank_seconds=BANK, rated=True)
    match_id = match_of(table_id)
    _move_time_ran_out(match_id, LATE)

    for language in ("ka", "ru"):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(f"/{language}/tables/{table_id}/")
            mine, theirs = page.locator(f"{MATCH} .player.mine"), page.locator(f"{MATCH} .player:not(.mine)")
            # Ratings: mine established, nino's provisional (no rated match yet).
            expect(mine.locator(".player-name .rating-badge")).to_contain_text(str(tamar_rating.value))
            expect(mine.locator(".player-name .rating-badge")).not_to_have_class(re.compile(r"\bprovisional\b"))
            expect(theirs.locator(".player-name .rating-badge.provisional")).to_be_visible()
            expect(mine.locator(".player-name")).to_contain_text("tamar")
            # The banks: nino's untouched, mine running down since the move time ran out.
            expect(theirs.locator(".bank")).to_contain_text(f"{BANK} ")
            expect(theirs.locator(".bank-label")).to_have_text({"ka": "მარაგი", "ru": "Запас"}[language])
            bank = mine.locator(".bank")
            expect(bank).to_have_class(re.compile(r"\bbank-running\b"))
            first = _shown_seconds(bank)
            assert 0 < first <= BANK - 15, first
            page.wait_for_timeout(1300)
            assert _shown_seconds(bank) < first, "the bank does not run down on the page"
            badges = boxes_of(page, f"{MATCH} .player .rating-badge, {MATCH} .player .bank")
            assert badges
            for box in badges:
                assert box["width"] and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, box
            assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
            snap(page, f"bank-and-ratings-{language}-{size}")

    # The host chooses trump now: the server takes what was used past the move time off the bank.
    version = version_of(page)
    page.locator(f"{MATCH} button.trump-choice").first.click()
    expect_newer_than(page, version)
    from games.models import Seat

    spent = Seat.objects.get(table_id=table_id, index=0).bank_spent_ms
    assert LATE - MOVE <= spent / 1000 < BANK, spent
    mine = page.locator(f"{MATCH} .player.mine")
    shown = _bank_seconds(mine.locator(".bank"))
    assert abs(shown - (BANK - spent / 1000)) < 0.2, (shown, spent)
    expect(page.locator(f"{MATCH} .player:not(.mine) .bank")).to_contain_text(f"{BANK} ")
    snap(page, "bank-after-the-move")


def test_a_ready_made_clock_on_the_table_form_makes_a_table_with_a_bank(new_member, snap):
    from games.models import Table

    page = new_member("tamar")
    presets = {"ka": "სვლაზე 25 წმ + 150 წმ მარაგი", "ru": "25 с на ход + 150 с запаса"}
    for language, (size, viewport) in (("ka", ("phone-360", SIZES["phone-360"])),
                                       ("ru", ("laptop-1366", SIZES["laptop-1366"]))):
        page.set_viewport_size(viewport)
        page.goto(f"/{language}/tables/new/?variant=japanese")
        preset = page.locator(".clock-preset", has_text=presets[language])
        expect(preset).to_be_visible()
        expect(preset).to_have_attribute("aria-pressed", "false")
        preset.click()
        expect(preset).to_have_attribute("aria-pressed", "true")
        expect(page.locator("select[name=clock_seconds]")).to_have_value("25")
        expect(page.locator("select[name=bank_seconds]")).to_have_value("150")
        assert_nothing_cut_off(page)
        snap(page, f"table-form-presets-{language}-{size}")
        page.locator("select[name=bank_seconds]").select_option("0")  # changed by hand: no preset holds
        expect(preset).to_have_attribute("aria-pressed", "false")
        preset.click()
        page.locator("form.table-form [type=submit]").click()
        expect(page).to_have_url(re.compile(rf"/{language}/tables/\d+/$"))
        table = Table.objects.get(pk=int(re.search(r"/tables/(\d+)/", page.url).group(1)))
        assert (table.clock_seconds, table.bank_seconds) == (25, 150)
        expect(page.locator("main")).to_contain_text({"ka": "მარაგში 150 წამი", "ru": "150 секунд в запасе"}[language])
        snap(page, f"waiting-table-with-a-bank-{language}-{size}")
        page.locator("form[action$='/stand/'] [type=submit]").click()


_BADGES_OUTSIDE_THEIR_NAME = """
(match) => [...document.querySelectorAll(match + ' .player')].flatMap((seat) => {
  const name = seat.querySelector('.player-name'), badge = name.querySelector('.rating-badge');
  const outer = name.getBoundingClientRect(), inner = badge.getBoundingClientRect();
  const label = seat.getAttribute('aria-label');
  if (inner.height < 10 || inner.width < 16) return [`${label}: the rating is squeezed to ${inner.width}x${inner.height}`];
  if (inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5) return [`${label}: the rating sticks out of the name`];
  return [];
})
"""


def test_four_ratings_fit_a_classic_table_on_a_phone(new_member, snap):
    """Four members with long names at a classic table, 360×740: each rating badge is whole
    inside its seat (the name gives way first)."""
    names = ["tamar_tsereteli", "levan_abashidze", "nino_kipiani", "giorgi_chavchavadze"]
    page = new_member(names[0])
    for name in names[1:]:
        new_member(name).close()
    table_id = seat_members("classic", names, game_type="short", clock_seconds=60, bank_seconds=60)
    for language in ("ka", "ru"):
        page.set_viewport_size(SIZES["phone-360"])
        page.goto(f"/{language}/tables/{table_id}/")
        seats = page.locator(f"{MATCH} .player")
        expect(seats).to_have_count(4)
        expect(page.locator(f"{MATCH} .player .player-name .rating-badge")).to_have_count(4)
        expect(page.locator(f"{MATCH} .player .bank")).to_have_count(4)
        expect_table_at_rest(page)
        problems = page.evaluate(_BADGES_OUTSIDE_THEIR_NAME, MATCH)
        assert not problems, problems
        assert_nothing_cut_off(page, allow=SCROLLS_BY_ITSELF)
        snap(page, f"classic-ratings-{language}-phone-360")
