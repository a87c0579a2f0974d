import pytest

from e2e.layout import PHONE
from e2e.match_play import MATCH, play_until
from e2e.tables import seat_members


@pytest.mark.parametrize("language", ["ka"])
def test_explore_classic_end(new_member, snap, language):
    page = new_member("dato", **PHONE)
    table_id = seat_members("classic", ["dato"], game_type="short", fill_with_bots=True, bot_level="beginner",
                            clock_seconds=120, rated=False)
    page.goto(f"/{language}/tables/{table_id}/")
    play_until([page], lambda: page.locator("#match-end").count() > 0, max_moves=600)
    snap(page, "classic-end")
    page.locator("#match-end").scroll_into_view_if_needed()
    snap(page, "classic-end-scrolled")
    page.goto(f"/{language}/tables/{table_id}/replay/")
    snap(page, "replay")
    page.goto(f"/{language}/matches/")
    snap(page, "my-matches")
    page.goto(f"/{language}/accounts/profile/")
    snap(page, "profile")
    page.goto(f"/{language}/players/dato/")
    snap(page, "player")
