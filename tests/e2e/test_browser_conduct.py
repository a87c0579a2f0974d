"""Walking out in real browsers: the profile's reliability figure, and a paused player told
until when, on the table form and at a rated table's "Sit down", in Georgian and Russian on a
phone and a laptop screen."""

import re

from playwright.sync_api import expect

from e2e.layout import assert_nothing_cut_off
from e2e.tables import _player

SIZES = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1366, "height": 768}}
PAUSED_WORDS = {"ka": "შეჩერებულია", "ru": "приостановлены"}


def _history():
    """Four rated Japanese matches for tamar: levan and nino each leave one, then tamar leaves
    two (a warning, then ten minutes' pause). Returns the pause's end in the site's time."""
    from django.utils import timezone

    from conduct.services import active_pause
    from games.models import Match
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from tests.factories import walk_out_of

    tamar, levan, nino = _player("tamar"), _player("levan"), _player("nino")
    for opponent, leaver in ((levan, levan), (nino, nino), (levan, tamar), (nino, tamar)):
        table = table_service.create_table(opponent, TableSettings(variant="japanese", rated=True))
        table_service.sit(table.pk, tamar)
        walk_out_of(Match.objects.get(table=table).pk, leaver)
    pause = active_pause(tamar)
    assert pause is not None
    rated = table_service.create_table(levan, TableSettings(variant="japanese", rated=True))
    return timezone.localtime(pause.ends_at).strftime("%H:%M"), rated.pk


def _fits_a_phone(page, selector):
    box = page.locator(selector).first.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= SIZES["phone"]["width"], (selector, box)


def test_reliability_on_the_profile_and_a_paused_player_told_until_when(new_member, snap):
    page = new_member("tamar", viewport=SIZES["laptop"])
    new_member("levan").close()
    new_member("nino").close()
    until, rated_table = _history()

    for language in ("ka", "ru"):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)

            # Tamar's own profile: the figure with its counts, and the pause with its end.
            page.goto(f"/{language}/accounts/profile/")
            section = page.locator("section.reliability")
            expect(section.locator(".reliability-percent")).to_have_text("50%")
            expect(section.locator(".reliability-finished")).to_have_text("2")
            expect(section.locator(".reliability-walked-out")).to_have_text("2")
            expect(section.locator(".pause-notice.paused")).to_contain_text(until)
            expect(section.locator(".pause-notice.paused")).to_contain_text(PAUSED_WORDS[language])
            shot = snap(page, f"profile-{language}-{size}")
            section.screenshot(path=shot.with_name(f"{shot.stem}-section.png"))

            # Another player's profile (levan left one of his two): the figure, not his warning.
            page.goto(f"/{language}/players/levan/")
            expect(page.locator("section.reliability .reliability-percent")).to_have_text("50%")
            expect(page.locator(".pause-notice")).to_have_count(0)

            # The table form: told before trying, refused with the end time when trying.
            page.goto(f"/{language}/tables/new/?variant=japanese")
            expect(page.locator(".pause-notice.paused")).to_contain_text(until)
            expect(page.locator("#id_rated")).to_be_checked()
            shot = snap(page, f"table-form-notice-{language}-{size}")
            page.screenshot(path=shot.with_name(f"{shot.stem}-top.png"))
            if size == "phone":
                _fits_a_phone(page, ".pause-notice")
            page.locator("form.table-form button[type=submit]").click()
            errors = page.locator("form.table-form .errors")
            expect(errors).to_contain_text(until)
            expect(errors).to_contain_text(PAUSED_WORDS[language])
            expect(page.locator(".pause-notice")).to_have_count(0)  # the refusal says it: not twice
            shot = snap(page, f"table-form-refused-{language}-{size}")
            page.screenshot(path=shot.with_name(f"{shot.stem}-top.png"))
            if size == "phone":
                _fits_a_phone(page, "form.table-form .errors")
                assert_nothing_cut_off(page)

            # A rated table waiting for a player: "Sit down" is refused with the end time.
            page.goto(f"/{language}/tables/{rated_table}/")
            page.locator("form.join-form button[type=submit]").click()
            expect(page.locator(".messages")).to_contain_text(until)
            expect(page.locator(".messages")).to_contain_text(PAUSED_WORDS[language])
            shot = snap(page, f"sit-refused-{language}-{size}")
            page.screenshot(path=shot.with_name(f"{shot.stem}-top.png"))

            if size == "phone":
                page.goto(f"/{language}/accounts/profile/")
                _fits_a_phone(page, "section.reliability")
                assert_nothing_cut_off(page)

    # A casual table is still open to a paused player.
    page.goto("/ka/tables/new/?variant=japanese")
    page.locator("#id_rated").uncheck()
    page.locator("form.table-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/ka/tables/\d+/$"))
