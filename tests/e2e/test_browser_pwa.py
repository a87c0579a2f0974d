"""The installable app (pwa/, docs/pwa.md): Chrome finds the site installable, the service
worker controls the page, pages read before stay readable with the network cut (the lobby,
a rules page) and any other page shows the site's own offline page, in Georgian and in
Russian; a live page says it is offline and comes back by itself; an iPhone shows the
add-to-home-screen hint until it is dismissed."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from rules_pages import content

BROWSER_LOCALE = {"ka": "ka-GE", "ru": "ru-RU"}
IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)
# The page's socket cannot connect while the network is cut: htmx logs the socket's error
# event to the console ("[object Event]"), Chromium the failed connection.
SOCKET_CUT = r"websocket|console error: \[object Event\] at .*/htmx\.min\.js|ERR_INTERNET_DISCONNECTED"


def translated(language, text):
    with translation.override(language):
        return translation.gettext(text)


def wait_until_controlled(page):
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")


def wait_until_kept(page, path):
    """The worker stores a page after answering it: wait until its copy is in the cache."""
    page.wait_for_function(
        "async (path) => { const cache = await caches.open('pages');"
        " return !!(await cache.match(new URL(path, location.href).href)); }",
        arg=path,
    )


def test_chrome_finds_the_site_installable_and_the_worker_controls_the_page(
        browser_type, browser_type_launch_args, live_site, browser_problems, tmp_path):
    # Chrome never installs from an off-the-record window (Playwright's usual contexts are):
    # a browser with a profile on disk, as a person's is.
    context = browser_type.launch_persistent_context(
        tmp_path / "profile", **browser_type_launch_args, base_url=live_site.url, locale="ka-GE")
    browser_problems.watch(context, "player")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto("/ka/")
        manifest = page.request.get("/ka/manifest.webmanifest").json()
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/ka/"
        assert manifest["lang"] == "ka" and manifest["short_name"] == translated("ka", "Joker")
        assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
        assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
        wait_until_controlled(page)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest")["url"].endswith("/ka/manifest.webmanifest")
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_with_the_network_cut_the_lobby_and_a_rules_page_read_before_are_shown(
        new_person, snap, browser_problems, language):
    page = new_person("player", service_workers="allow", locale=BROWSER_LOCALE[language], **PHONE)
    page.goto(f"/{language}/")
    wait_until_controlled(page)
    lobby, rules = f"/{language}/lobby/", f"/{language}/rules/{content.PAGE_SLUGS[0]}/"
    title = content.load_page(language, content.PAGE_SLUGS[0]).title
    page.goto(rules)
    expect(page.locator("main h1")).to_have_text(title)
    wait_until_kept(page, rules)
    page.goto(lobby)
    lobby_heading = page.locator("main h1").inner_text()
    wait_until_kept(page, lobby)

    offline_note = page.locator("#offline-note")
    with browser_problems.expected(SOCKET_CUT):
        page.context.set_offline(True)
        page.goto(rules)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("main h1")).to_have_text(title)
        snap(page, f"offline-rules-{language}")

        page.goto(lobby)
        expect(page.locator("main h1")).to_have_text(lobby_heading)
        # The lobby is live (a socket): it says it is offline.
        expect(offline_note).to_be_visible()
        expect(offline_note).to_have_text(
            translated(language, "You are offline. This page reconnects by itself when the network returns."))
        snap(page, f"offline-lobby-{language}")

        page.goto(f"/{language}/leaderboard/")  # never read: the site's own offline page
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("main h1")).to_have_text(translated(language, "You are offline"))
        assert_nothing_cut_off(page)
        snap(page, f"offline-page-{language}")

        page.goto(lobby)
        expect(offline_note).to_be_visible()
        page.context.set_offline(False)
        # The socket reconnects by itself and the note goes.
        expect(offline_note).to_be_hidden()


def test_a_page_that_holds_a_hand_or_an_account_is_never_kept(new_member, live_site):
    page = new_member("nino", service_workers="allow")
    page.goto("/ka/")
    wait_until_controlled(page)
    page.goto("/ka/accounts/profile/")
    page.goto("/ka/lobby/")
    wait_until_kept(page, "/ka/lobby/")
    kept = page.evaluate(
        "async () => (await (await caches.open('pages')).keys()).map((request) => new URL(request.url).pathname)")
    assert kept == ["/ka/lobby/"]
    # Logging out forgets the kept pages: the next person on this phone never reads them.
    page.get_by_role("button", name=translated("ka", "Log out")).click()
    expect(page.get_by_role("link", name=translated("ka", "Log in"))).to_be_visible()
    page.wait_for_function("async () => (await (await caches.open('pages')).keys()).length <= 1")


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_an_iphone_shows_the_home_screen_hint_until_it_is_dismissed(new_person, snap, language):
    page = new_person("player", locale=BROWSER_LOCALE[language], user_agent=IPHONE_SAFARI, **PHONE)
    page.goto(f"/{language}/")
    hint = page.locator("#install-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(re.compile(r"[\u10d0-\u10ff]" if language == "ka" else r"[\u0400-\u04ff]"))
    assert_nothing_cut_off(page)
    snap(page, f"install-hint-{language}")
    hint.get_by_role("button").click()
    expect(hint).to_be_hidden()
    page.reload()
    expect(page.locator("main h1")).to_be_visible()
    expect(hint).to_be_hidden()


def test_other_browsers_show_no_home_screen_hint(page):
    page.goto("/ka/")
    expect(page.locator("main h1")).to_be_visible()
    page.wait_for_load_state("load")
    expect(page.locator("#install-hint")).to_be_hidden()
