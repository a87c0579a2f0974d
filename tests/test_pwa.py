"""The installable app (pwa/, docs/pwa.md): the manifest in each language, the service worker
at the site's root, the offline page, and the allow-list of pages kept for reading offline."""

import json
import re

import pytest
from django.test import Client

from pwa import views as pwa_views
from pwa.offline import OFFLINE_HEADER
from tests.factories import PASSWORD
from tests.replay_helpers import seated_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, short_name, name", [
    ("ka", "ჯოკერი", "ჯოკერი — ქართული ბანქოს თამაში"),
    ("ru", "Джокер", "Джокер — грузинская карточная игра"),
    ("en", "Joker", "Joker — the Georgian card game"),
])
def test_the_manifest_speaks_the_language_of_its_prefix(language, short_name, name):
    response = Client().get(f"/{language}/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (manifest["lang"], manifest["short_name"], manifest["name"]) == (language, short_name, name)
    assert manifest["start_url"] == f"/{language}/" and manifest["display"] == "standalone"


def test_the_manifest_names_icons_that_are_served_and_one_is_maskable():
    manifest = json.loads(Client().get("/ka/manifest.webmanifest").content)
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        served = Client().get(icon["src"])
        assert served.status_code == 200
        png = b"".join(served.streaming_content) if served.streaming else served.content
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{height}" == icon["sizes"]


def test_every_page_links_the_manifest_of_its_language_and_loads_the_worker_script():
    page = Client().get("/ru/rules/").content.decode()
    assert '<link rel="manifest" href="/ru/manifest.webmanifest">' in page
    assert re.search(r'<script src="/static/js/app\.js[^"]*" defer>', page)


def test_the_worker_is_served_from_the_root_never_kept_stale_and_names_the_offline_pages():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache" and response["Service-Worker-Allowed"] == "/"
    script = response.content.decode()
    assert 'const OFFLINE_PAGES = {"ka": "/ka/offline/", "ru": "/ru/offline/", "en": "/en/offline/"};' in script
    assert f'const OFFLINE_HEADER = "{OFFLINE_HEADER}";' in script
    assert "&quot;" not in script  # JSON written as it is, not escaped for HTML


def test_a_changed_static_file_changes_the_workers_version(tmp_path, settings):
    (tmp_path / "site.css").write_text("body { color: red }")
    settings.STATICFILES_DIRS = [tmp_path]
    before = pwa_views.static_digest()
    (tmp_path / "site.css").write_text("body { color: darkred }")
    assert pwa_views.static_digest() != before


@pytest.mark.parametrize("language, heading", [("ka", "ქსელთან კავშირი არ არის"), ("ru", "Вы не в сети")])
def test_the_offline_page_is_in_its_language_and_names_nobody(language, heading):
    page = Client().get(f"/{language}/offline/").content.decode()
    assert f'<html lang="{language}">' in page and f"<h1>{heading}</h1>" in page
    assert "ws-connect" not in page and "csrf" not in page.lower()


@pytest.mark.parametrize("path", ["/ka/lobby/", "/ru/rules/", "/ka/rules/classic/", "/ka/lesson/"])
def test_the_lobby_rules_and_lesson_are_marked_readable_offline(path):
    response = Client().get(path)
    assert response.status_code == 200 and response[OFFLINE_HEADER] == "1"


def test_an_htmx_fragment_of_an_allowed_page_is_not_marked():
    response = Client().get("/ka/lobby/", HTTP_HX_REQUEST="true")
    assert OFFLINE_HEADER not in response


def test_the_match_page_the_home_page_and_a_members_pages_are_never_marked():
    match, players = seated_match("japanese", ("tamar", "levan"))
    client = Client()
    assert client.login(username=players[0].user.username, password=PASSWORD)
    for path in (f"/ka/tables/{match.table_id}/", "/ka/", "/ka/accounts/profile/", "/ka/coins/", "/ka/friends/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert OFFLINE_HEADER not in response, path
