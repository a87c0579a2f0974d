"""The installable app: the manifest (one per language), the service worker, the offline page."""

import hashlib
import json
import os

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext, override
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .offline import OFFLINE_HEADER

THEME_COLOUR = "#1f6f43"  # the header's felt (static/css/site.css --felt)
BACKGROUND_COLOUR = "#f6f3ec"  # the page (--bg), shown while the app opens

# What every page's frame loads (templates/base.html): kept when the worker installs, so
# the offline page and the pages kept for reading have their styles and fonts offline.
SHELL_STATIC = (
    "css/site.css",
    "css/social.css",
    "css/ratings.css",
    "css/conduct.css",
    "js/app.js",
    "js/appearance.js",
    "js/early-taps.js",
    "img/favicon.svg",
    "vendor/htmx/htmx.min.js",
    "vendor/htmx-ext-ws/ws.js",
    "vendor/fonts/noto-sans-georgian/400.css",
    "vendor/fonts/noto-sans-georgian/700.css",
    "vendor/fonts/noto-sans/400.css",
    "vendor/fonts/noto-sans/700.css",
)


@require_GET
def manifest(request):
    """The web app manifest in the page's language (the URL's prefix)."""
    language = get_language()
    body = {
        "id": "/",
        "name": gettext("Joker — the Georgian card game"),
        "short_name": gettext("Joker"),
        "description": gettext("Play Joker, the Georgian card game, online: classic for four and Japanese for two."),
        "lang": language,
        "dir": "ltr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("img/app/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("img/app/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("img/app/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Type"] = "application/manifest+json"
    return response


def static_digest():
    """A digest of every static file's name, size and modification time. The worker's
    caches are named after it, so a changed file (the site serves static files under their
    plain names) makes a new worker, which drops the old caches. Stat calls only: about
    5–9 ms for the site's ~925 files, so it is made afresh for each request of the worker and
    `make run` picks up an edited stylesheet without a restart."""
    digest = hashlib.sha256()
    for finder in finders.get_finders():
        for path, storage in sorted(finder.list(ignore_patterns=[]), key=lambda item: item[0]):
            stat = os.stat(storage.path(path))
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _offline_pages():
    pages = {}
    for code, _name in settings.LANGUAGES:
        with override(code):
            pages[code] = reverse("pwa:offline")
    return pages


@require_GET
def service_worker(request):
    """The service worker, at the site's root so its scope is every page."""
    context = {
        "version": static_digest(),
        "shell": json.dumps([static(path) for path in SHELL_STATIC]),
        "offline_pages": json.dumps(_offline_pages()),
        "default_language": json.dumps(settings.LANGUAGE_CODE),
        "static_prefix": json.dumps(settings.STATIC_URL),
        "offline_header": json.dumps(OFFLINE_HEADER),
        "notification_icon": json.dumps(static("img/app/icon-192.png")),
    }
    response = render(request, "pwa/sw.js", context, content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on each visit; nothing in between may keep an old one.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@never_cache
@require_GET
def offline(request):
    """What a page that is not kept for reading shows when the network is gone."""
    return render(request, "pwa/offline.html")
