"""Ratings in real browsers: beside a waiting player in the lobby, the profile's chart and
figures, and the leaderboard, in Georgian and Russian on a phone and a laptop screen."""

from playwright.sync_api import expect

from e2e.layout import assert_nothing_cut_off
from e2e.tables import _player

SIZES = {"phone": {"width": 360, "height": 740}, "laptop": {"width": 1366, "height": 768}}
RATED_MATCHES = 12  # past the provisional ten, so both are on the leaderboard


def _rated_history():
    """Twelve rated Japanese matches between tamar and levan (tamar wins 9), then a rated
    table tamar waits at."""
    from games.models import Match
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from tests.factories import resign_and_forgive

    tamar, levan = _player("tamar"), _player("levan")
    for i in range(RATED_MATCHES):
        table = table_service.create_table(tamar, TableSettings(variant="japanese", rated=True))
        table_service.sit(table.pk, levan)
        resign_and_forgive(Match.objects.get(table=table).pk, levan if i % 4 else tamar)
    table_service.create_table(tamar, TableSettings(variant="japanese", rated=True))


def test_the_rating_in_the_lobby_on_the_profile_and_on_the_leaderboard(new_member, snap):
    from ratings.models import Rating
    from ratings.services import shown_rating

    page = new_member("levan", viewport=SIZES["laptop"])
    new_member("tamar").close()
    _rated_history()
    tamar_rating = shown_rating(Rating.objects.get(player=_player("tamar"), variant="japanese"))
    assert not tamar_rating.provisional

    for language in ("ka", "ru"):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(f"/{language}/lobby/")
            row = page.locator(".table-row").first
            expect(row.locator(".waiting-players")).to_contain_text("tamar")
            expect(row.locator(".rating-badge")).to_contain_text(str(tamar_rating.value))
            expect(row.locator(".table-rated")).to_be_visible()
            snap(page, f"lobby-{language}-{size}")

            page.goto(f"/{language}/players/tamar/")
            japanese = page.locator(".rating-variant[data-variant='japanese']")
            expect(japanese.locator(".rating-chart polyline")).to_be_attached()
            expect(japanese.locator(".rating-now .rating-badge")).to_contain_text(str(tamar_rating.value))
            box = japanese.locator(".rating-chart").bounding_box()
            assert box and box["width"] > 200 and box["height"] > 60, box
            snap(page, f"profile-{language}-{size}")

            page.goto(f"/{language}/leaderboard/japanese/")
            rows = page.locator("#leaderboard-top tbody tr")
            expect(rows).to_have_count(2)
            expect(rows.first).to_contain_text("tamar")
            expect(page.locator("#leaderboard-improved")).to_contain_text("tamar")
            snap(page, f"leaderboard-{language}-{size}")
            if size == "phone":
                for path in ("lobby/", "leaderboard/japanese/"):
                    page.goto(f"/{language}/{path}")
                    assert_nothing_cut_off(page)
                # On a phone each recent match is a block of its own: nothing scrolls sideways.
                page.goto(f"/{language}/players/tamar/")
                ratings = page.locator("section.ratings").bounding_box()
                assert ratings["x"] >= 0 and ratings["x"] + ratings["width"] <= SIZES["phone"]["width"], ratings
                assert_nothing_cut_off(page)
                page.goto(f"/{language}/players/tamar/matches/")  # all of them, a page at a time
                expect(page.locator(".match-history tbody tr").first).to_be_visible()
                assert_nothing_cut_off(page)
                snap(page, f"all-matches-{language}-{size}")

    # The friends filter: levan has no friends yet, so only levan is listed.
    page.goto("/en/leaderboard/japanese/?friends=1")
    expect(page.locator("#leaderboard-top tbody tr")).to_have_count(1)
    expect(page.locator("#leaderboard-top tbody tr")).to_contain_text("levan")
