"""Everything a browser saw going wrong during a test: console errors, uncaught
script errors, failed requests, failed websockets and same-origin HTTP answers
of 400 or more. Any of these fails the test unless the test said it expected it
(`with browser_problems.expected(r"HTTP 403 .*join")`)."""

import re
from contextlib import contextmanager

from playwright.sync_api import Error as PlaywrightError

# Requests Chromium abandons because their page navigated away are not failures.
ABORTED = "net::ERR_ABORTED"


class BrowserProblems:
    def __init__(self, site_url):
        self.site_url = site_url
        self.problems = []  # (person, description), not yet judged
        self.expectations = []  # stack of [pattern, matched problems]
        self.pages = {}  # page -> person
        self._navigations = {}  # page -> count of main-frame navigations started
        self._documents = {}  # page -> count of main-frame documents committed
        self._navigation_at_start = {}  # request -> both counts when it started
        self._aborted = []  # (person, page, counts at start, description), judged at the end

    # -- recording --------------------------------------------------------------
    def watch(self, context, person):
        """Record the problems of every page of this browser context."""
        context.on("page", lambda page: self._watch_page(page, person))
        for page in context.pages:
            self._watch_page(page, person)
        context.on("console", lambda message: self._on_console(person, message))
        context.on("weberror", lambda error: self._add(person, f"uncaught script error: {error.error}"))
        context.on("request", self._on_request)
        context.on("requestfailed", lambda request: self._on_request_failed(person, request))
        context.on("response", lambda response: self._on_response(person, response))

    def _watch_page(self, page, person):
        if page in self.pages:
            return
        self.pages[page] = person
        self._navigations[page] = 0
        self._documents[page] = 0
        page.on("websocket", lambda ws: self._watch_websocket(person, ws))
        page.on("framenavigated", lambda frame: self._on_frame_navigated(page, frame))

    def _on_frame_navigated(self, page, frame):
        if frame.parent_frame is None:
            self._documents[page] += 1

    def _watch_websocket(self, person, websocket):
        websocket.on("socketerror", lambda error: self._add(person, f"websocket {websocket.url}: {error}"))

    def _on_console(self, person, message):
        if message.type == "error":
            url = (message.location or {}).get("url")
            self._add(person, f"console error: {message.text}" + (f" at {url}" if url else ""))

    def _on_request(self, request):
        page = _page_of(request)
        if page is None or page not in self._navigations:
            return
        if request.is_navigation_request() and request.frame.parent_frame is None:
            self._navigations[page] += 1
        self._navigation_at_start[request] = (self._navigations[page], self._documents[page])

    def _on_request_failed(self, person, request):
        page = _page_of(request)
        if page is None or page.is_closed():
            return
        description = f"request failed ({request.failure}): {request.method} {request.url}"
        if request.failure == ABORTED and not self._is_expected(description):
            # Judged at the end: a request the old document made after the navigation had
            # started (a live table's socket pushes fragments meanwhile) dies when the next
            # document commits, and Playwright reports the failure before the commit.
            started = self._navigation_at_start.get(request, (-1, -1))
            self._aborted.append((person, page, started, description))
            return
        self._add(person, description)

    def _moved_on(self, page, started):
        """Whether the page started a navigation or replaced its document since `started`."""
        navigations, documents = started
        return self._navigations.get(page, 0) > navigations or self._documents.get(page, 0) > documents

    def _judge_aborted(self):
        aborted, self._aborted = self._aborted, []
        for person, page, started, description in aborted:
            if not page.is_closed() and not self._moved_on(page, started):
                self._add(person, description)

    def _on_response(self, person, response):
        if response.status >= 400 and _same_origin(response.url, self.site_url):
            self._add(person, f"HTTP {response.status} {response.request.method} {response.url}")

    def _is_expected(self, description):
        return any(re.search(pattern, description) for pattern, _ in self.expectations)

    def _add(self, person, description):
        for expectation in reversed(self.expectations):
            if re.search(expectation[0], description):
                expectation[1].append(description)
                return
        self.problems.append((person, description))

    # -- judging ----------------------------------------------------------------
    def settle(self):
        """Let Playwright deliver the events still on their way (one round trip per page)."""
        for page in list(self.pages):
            if not page.is_closed():
                try:
                    page.evaluate("0")
                except PlaywrightError:
                    pass  # closing or navigating: nothing more will come from it

    @contextmanager
    def expected(self, pattern):
        """Within the block, problems matching the regex `pattern` are expected: at
        least one must happen, and they do not fail the test."""
        expectation = [pattern, []]
        self.expectations.append(expectation)
        try:
            yield expectation[1]
            self.settle()
        finally:
            self.expectations.remove(expectation)
        assert expectation[1], f"expected a browser problem matching {pattern!r}, none happened"

    def take_unexpected(self):
        self._judge_aborted()
        problems, self.problems = self.problems, []
        return problems

    @staticmethod
    def describe(problems):
        lines = [f"  [{person}] {text}" for person, text in problems]
        return "The browser reported problems:\n" + "\n".join(lines)


def _page_of(request):
    try:
        return request.frame.page
    except PlaywrightError:
        return None  # e.g. a service worker's request


def _same_origin(url, site_url):
    return url == site_url or url.startswith(site_url + "/")
