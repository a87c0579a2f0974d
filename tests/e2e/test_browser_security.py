"""The pages under the production Content-Security-Policy (issue 36, item 10): the main pages,
a host's password table with its invitation link and a live practice match load, draw and
connect their sockets without one violation. The harness fails a test on any console error,
and a CSP violation is one (docs/testing.md); here the policy is on as in production."""

import re

import pytest
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import MATCH
from e2e.tables import seat_members
from joker_site.settings import MIDDLEWARE, with_content_security_policy

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PRODUCTION_POLICY = pytest.mark.site_settings(MIDDLEWARE=with_content_security_policy(MIDDLEWARE))
MAIN_PAGES = ["", "lobby/", "rules/", "coins/", "leaderboard/", "tables/new/?variant=classic", "accounts/tokens/"]


@PRODUCTION_POLICY
@pytest.mark.parametrize(("language", "locale", "screen"), [("ka", "ka-GE", PHONE), ("ru", "ru-RU", DESKTOP)])
def test_the_main_pages_and_a_live_match_run_under_the_policy_without_a_violation(
        new_member, snap, language, locale, screen):
    page = new_member(f"tamar_{language}", locale=locale, **screen)
    response = page.goto(f"/{language}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    for path in MAIN_PAGES:
        page.goto(f"/{language}/{path}")
        expect(page.locator("main h1").first).to_be_visible()
    snap(page, f"tokens-{language}")

    # A host's password table: the invitation link, its Copy button from our own script.
    page.goto(f"/{language}/tables/new/?variant=japanese")
    page.locator("#id_visibility").select_option("password")
    page.locator("#id_password").fill("secret-77")
    page.locator("form.table-form button[type=submit]").click()
    expect(page.locator("#invitation-link-url")).to_have_text(re.compile(r"/tables/\d+/\?invite=[0-9a-f]{32}$"))
    expect(page.locator("button[data-copy]")).to_be_visible()  # shown by copy-field.js: it ran
    assert_nothing_cut_off(page)
    snap(page, f"invitation-link-{language}")

    # A practice match: its socket connects ('self' covers it) and the position arrives.
    table_id = seat_members("classic", [f"tamar_{language}"], game_type="nines", fill_with_bots=True)
    page.goto(f"/{language}/tables/{table_id}/")
    expect(page.locator(MATCH)).to_have_attribute("data-version", re.compile(r"\d+"))
    snap(page, f"match-{language}")
