"""The page frame: navigation, log-in/out, the Georgian webfont and htmx served from packages."""

import re

import pytest
from accounts_support import body, client_for, fast_password_hashing, make_member  # noqa: F401
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db


def nav_of(page):
    return page[page.index('<nav class="site-nav"'):page.index("</nav>")]


def test_visitors_see_friends_log_in_and_sign_up_links():
    page = body(Client().get("/en/"))
    assert 'href="/en/friends/"' in nav_of(page)
    assert 'href="/en/accounts/login/?next=/en/"' in page and 'href="/en/accounts/signup/?next=/en/"' in page


def test_log_in_link_brings_you_back_to_the_page_you_were_on():
    page = body(Client().get("/en/friends/"))
    assert 'href="/en/accounts/login/?next=/en/friends/"' in page


def test_members_see_profile_and_a_log_out_button():
    page = body(client_for(make_member("eka", display_name="Eka")).get("/ka/"))
    assert 'href="/ka/accounts/profile/"' in nav_of(page)
    assert 'action="/ka/accounts/logout/"' in page and "გასვლა" in page
    assert ">Eka</a>" in page


@pytest.mark.urls("frame_urls")
def test_sections_of_other_apps_appear_once_routed_in_the_right_order():
    nav = nav_of(body(Client().get("/ru/friends/")))
    links = re.findall(r'href="([^"]+)"', nav)
    assert links == ["/ru/lobby/", "/ru/rules/", "/ru/leaderboard/", "/ru/tournaments/", "/ru/friends/", "/ru/coins/"]
    assert 'href="/ru/friends/" aria-current="page"' in nav
    assert "Лобби" in nav and "Правила" in nav and "Коины" in nav


def test_the_georgian_webfont_comes_from_a_package_and_covers_georgian_letters():
    css_path = finders.find("vendor/fonts/noto-sans-georgian/400.css")
    assert css_path, "run `make install` (npm ci) for the bundled fonts"
    css = open(css_path, encoding="utf-8").read()
    assert "U+10A0-10FF" in css.upper() or "U+10A0-10FF" in css.replace(" ", "").upper()
    for font_file in re.findall(r"url\(\.?/?([^)]+\.woff2)\)", css):
        assert finders.find(f"vendor/fonts/noto-sans-georgian/{font_file}"), font_file
    assert not re.search(r"url\((['\"]?)(https?:)?//", css)
    page = body(Client().get("/ka/"))
    assert "/static/vendor/fonts/noto-sans-georgian/400.css" in page
    site_css = open(finders.find("css/site.css"), encoding="utf-8").read()
    assert '"Noto Sans Georgian"' in site_css and "http" not in site_css


def test_htmx_2_and_its_ws_extension_are_served_from_the_package():
    htmx = finders.find("vendor/htmx/htmx.min.js")
    assert htmx and 'version:"2.' in open(htmx, encoding="utf-8").read().replace(" ", "")
    assert finders.find("vendor/htmx-ext-ws/ws.js")
    page = body(Client().get("/ka/"))
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in page
    # The one script before them that is not deferred, so that a tap on a button they have not
    # wired yet is kept (docs/live-match.md, "Taps before the scripts").
    assert page.index('<script src="/static/js/early-taps.js"></script>') < page.index("htmx.min.js")


def test_the_frame_is_made_for_phones_and_keyboards():
    page = body(Client().get("/ka/"))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert 'class="skip-link" href="#main"' in page and '<main id="main"' in page
    assert '<legend class="visually-hidden">ენა</legend>' in page


def test_server_error_page_renders_without_a_request():
    with translation.override("en"):
        assert "Something went wrong" in render_to_string("500.html")
