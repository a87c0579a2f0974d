"""Which pages the service worker may keep for reading offline: one allow-list, here.

The service worker (templates/pwa/sw.js) keeps a copy of a page only when the page's
answer carries the OFFLINE_HEADER, which only the views named below get. Everything else
(a match or table page that holds a hand, accounts, coins, profiles, friends, the home
page's quick-play panel) is never stored: offline it gives way to the offline page.
The pages listed are the same for every reader apart from the header's name, and the
service worker forgets them all when someone logs in or out (docs/pwa.md).
"""

OFFLINE_HEADER = "X-Offline-Readable"

# URL names (namespace:name) of pages that are safe to read back offline.
OFFLINE_READABLE_VIEWS = frozenset({
    "lobby",
    "rules_pages:index",
    "rules_pages:page",
    "lessons:index",
    "lessons:path",
    "lessons:step",
})


def is_offline_readable(request, response):
    match = getattr(request, "resolver_match", None)
    return (
        request.method == "GET"
        and response.status_code == 200
        and not request.headers.get("HX-Request")  # a fragment is no page to read
        and match is not None
        and match.view_name in OFFLINE_READABLE_VIEWS
        and response.get("Content-Type", "").startswith("text/html")
    )


class OfflineReadableMiddleware:
    """Marks the allow-listed pages' answers for the service worker."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if is_offline_readable(request, response):
            response[OFFLINE_HEADER] = "1"
        return response
