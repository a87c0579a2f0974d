"""Fixtures for browser scenarios (see docs/testing.md).

- `live_site`: the real ASGI site (Daphne + Celery) on a free port, against the test
  database; `@pytest.mark.site_settings(NAME=value, ...)` serves a test with other settings;
  `@pytest.mark.embedded_site` serves it as `make run` does (SQLite, no Redis), and
  `new_embedded_member` makes its people (the test's ORM cannot reach that database).
- `new_person(name, **context_args) -> Page`: one person's browser (its own context,
  cookies, storage) on the site; `page` is a first person called "person".
- `snap(page, name)`: a screenshot under test-artifacts/e2e/<test>/NN-name.png.
- `browser_problems`: console errors, script errors, failed requests and HTTP >= 400
  answers seen by any person's browser; any fails the test unless expected.

Every test in this folder is marked `e2e` and runs in its own pytest invocation
(`make test-e2e`), because Playwright's sync API and pytest-asyncio clash in one process.
"""

import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from suite_halves import half_label

from e2e.browser_problems import BrowserProblems
from e2e.match_play import EXPECT_TIMEOUT_MS
from e2e.site_server import ROOT, SiteServerError, SiteServers, clear_site_cache, server_database_url

HERE = Path(__file__).resolve().parent
# The build `make test` installs (the Makefile's CHROMIUM says why, docs/testing.md measures it).
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / os.environ.get("E2E_ARTIFACTS", "test-artifacts/e2e")
ACTION_TIMEOUT_MS = 15_000
# A screenshot is a record to look at, not a check: it may take its time on a loaded machine.
SCREENSHOT_TIMEOUT_MS = 60_000
LONG_PAGE_SCREENS = 4
PROBLEMS_KEY = pytest.StashKey[BrowserProblems]()
SCREENSHOTS_KEY = pytest.StashKey["Screenshots"]()
SITE_LOGS_KEY = pytest.StashKey[dict]()


# -- collection -------------------------------------------------------------------
def _is_browser_test(item):
    return HERE in Path(item.path).parents


def pytest_itemcollected(item):
    if _is_browser_test(item):
        item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(trylast=True)  # after pytest's own reordering by fixtures
def pytest_collection_modifyitems(config, items):
    # Tests that need the same server settings run together, so the server restarts rarely;
    # those with the default settings come first.
    browser_tests = [item for item in items if _is_browser_test(item)]
    others = [item for item in items if not _is_browser_test(item)]
    items[:] = others + sorted(
        browser_tests,
        key=lambda item: (_is_embedded(item), bool(_site_settings_of(item)), repr(_site_settings_of(item))),
    )


def pytest_configure(config):
    # pytest-playwright's own artifacts (--tracing/--video/--screenshot) go beside ours.
    if config.getoption("--output", default=None) == "test-results":
        config.option.output = str(ARTIFACTS / "_playwright")
    # pytest-playwright 0.10's own base_url fallback fixture; nothing of ours.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning",
    )
    config.addinivalue_line(
        "markers", "site_settings(**settings): serve this browser test with these Django settings overridden"
    )
    config.addinivalue_line(
        "markers", "embedded_site: serve this browser test as `make run` does (SQLite, no Redis)"
    )


def _is_embedded(item):
    return item.get_closest_marker("embedded_site") is not None


def _site_settings_of(item):
    marker = item.get_closest_marker("site_settings")
    return dict(sorted(marker.kwargs.items())) if marker else {}


# -- the cache ----------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _clear_cache():
    """Overrides tests/conftest.py's (whose cache.clear() is a FLUSHDB of the Redis
    database the running server's Celery queue and channel groups live in)."""
    clear_site_cache()


# -- emptying the tables after a test ---------------------------------------------
FLUSH_ATTEMPTS = 3


@pytest.fixture(scope="session", autouse=True)
def _emptying_the_tables_survives_a_deadlock():
    """After each browser test pytest-django empties the tables (one TRUNCATE) while the
    served site may still be working on them: a socket closing with the browser, a Celery
    timer, the sweeper. Postgres can then find a deadlock and cancel the TRUNCATE, which
    would leave this test's rows to break the next one; the TRUNCATE is simply run again."""
    from django.test import TransactionTestCase

    empty_the_tables = TransactionTestCase._fixture_teardown

    def empty_the_tables_again_after_a_deadlock(test_case):
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                return empty_the_tables(test_case)
            except Exception as error:
                if attempt == FLUSH_ATTEMPTS or not _caused_by_a_deadlock(error):
                    raise

    TransactionTestCase._fixture_teardown = empty_the_tables_again_after_a_deadlock
    yield
    TransactionTestCase._fixture_teardown = empty_the_tables


def _caused_by_a_deadlock(error):
    """Django's flush command wraps the database's error in a CommandError."""
    from psycopg.errors import DeadlockDetected

    while error is not None:
        if isinstance(error, DeadlockDetected):
            return True
        error = error.__cause__ or error.__context__
    return False


# -- the browser ------------------------------------------------------------------
@pytest.fixture(scope="session", autouse=True)
def _browser_test_environment():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.exit(
            f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium-headless-shell)",
            pytest.ExitCode.USAGE_ERROR,
        )
    # Websocket round trips through Redis and Celery take longer than a plain page.
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    # The sync Playwright API runs an event loop in this thread; the ORM would refuse to run.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright launches Debian's chromium-headless-shell; Playwright's own builds are not used."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


# -- the site ---------------------------------------------------------------------
@pytest.fixture(scope="session")
def site_servers(django_db_setup, django_db_blocker):
    from django.db import connection

    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not redis_url:
        raise SiteServerError("Browser tests need REDIS_URL: the server, Celery and the test share it")
    log_root = ARTIFACTS / f"_servers{half_label()}"  # each half of the run starts servers of its own
    shutil.rmtree(log_root, ignore_errors=True)
    servers = SiteServers(
        database_url=server_database_url(database_url, connection.settings_dict["NAME"]),
        redis_url=redis_url,
        log_root=log_root,
    )
    yield servers
    servers.stop()  # before pytest-django drops the test database the servers are connected to


@pytest.fixture
def live_site(request, transactional_db, site_servers):
    """The running site (`.url`, `.url_for(path)`), serving this test's settings overrides.

    The test's own process sees the same overrides (django.conf.settings)."""
    from django.test import override_settings

    overrides = _site_settings_of(request.node)
    site = site_servers.site_for(overrides, embedded=_is_embedded(request.node))
    # Where the server's logs stand, to quote what it logs during this test if it fails.
    request.node.stash[SITE_LOGS_KEY] = {log: log.stat().st_size for log in site.server_logs}
    # The served site runs with DEBUG on (the test-only deal seed is refused otherwise);
    # pytest-django turns DEBUG off in this process, so match the server here.
    test_process = {"DEBUG": True, **overrides} if "TEST_DEAL_SEED" in overrides else overrides
    with override_settings(**test_process):
        yield site


# -- people, screenshots, problems ------------------------------------------------
class Screenshots:
    def __init__(self, folder):
        self.folder = folder
        self.taken = 0
        shutil.rmtree(folder, ignore_errors=True)

    def snap(self, page, name):
        self.taken += 1
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")
        path = self.folder / f"{self.taken:02d}-{slug}.png"
        # A rules page on a phone is up to 75 screens long: at the phone's 2x that is a PNG of
        # 40 million pixels, whose capture took over 15 s on a loaded CI machine. Pages longer
        # than a few screens are taken at one pixel per CSS pixel, still readable.
        screens = page.evaluate("document.documentElement.scrollHeight / window.innerHeight")
        scale = "css" if screens > LONG_PAGE_SCREENS else "device"
        page.screenshot(path=path, full_page=True, animations="disabled", caret="hide", scale=scale,
                        timeout=SCREENSHOT_TIMEOUT_MS)
        return path


def _artifact_folder_name(item):
    name = re.sub(r"\[chromium\]$", "", item.name).replace("[chromium-", "[")
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")


@pytest.fixture
def snap(request):
    """snap(page, name) -> Path: a full-page screenshot, test-artifacts/e2e/<test>/NN-name.png."""
    screenshots = Screenshots(ARTIFACTS / _artifact_folder_name(request.node))
    request.node.stash[SCREENSHOTS_KEY] = screenshots
    return screenshots.snap


@pytest.fixture
def browser_problems(request, live_site):
    """What went wrong in the browsers; `with browser_problems.expected(regex):` for the expected."""
    problems = BrowserProblems(live_site.url)
    request.node.stash[PROBLEMS_KEY] = problems
    yield problems
    # Contexts are closed by now: anything that came in after the test body still counts.
    late = problems.take_unexpected()
    if late:
        pytest.fail(BrowserProblems.describe(late), pytrace=False)


@pytest.fixture
def new_person(live_site, browser_problems, snap, new_context):
    """new_person(name="person", **context_args) -> Page: a person with their own browser.

    context_args go to browser.new_context (e.g. `**PHONE` from e2e.layout, locale="ru-RU").
    By default a person is in Tbilisi with a Georgian browser; relative URLs are on the site."""
    names = set()

    def open_browser(name="person", **context_args):
        if name in names:
            raise ValueError(f"there is already a person called {name!r} in this test")
        names.add(name)
        # The site's service worker (pwa/) is bypassed unless a test asks for it
        # (service_workers="allow"): page.route and the request checks see no request a
        # worker answered, and the other scenarios test the site, not its offline copies.
        options = {"base_url": live_site.url, "locale": "ka-GE", "timezone_id": "Asia/Tbilisi",
                   "service_workers": "block"} | context_args
        context = new_context(**options)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        browser_problems.watch(context, name)
        return context.new_page()

    return open_browser


MEMBER_PASSWORD = "a-long-secret-9"


@pytest.fixture
def new_member(new_person, live_site):
    """new_member(username, **context_args) -> Page: a member with an account (password
    MEMBER_PASSWORD, a confirmed e-mail address, so the welcome grant) whose browser is
    already logged in, like `new_person` otherwise.

    The session is made in the test process and handed to the browser as its cookie:
    the log-in form has a scenario of its own, the others need not fill it in."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tests.factories import confirm_email

    def open_browser(username, **context_args):
        user = get_user_model().objects.create_user(username, password=MEMBER_PASSWORD)
        confirm_email(user)  # a member with a confirmed address holds the welcome grant (docs/coins.md)
        client = Client()
        client.force_login(user)
        page = new_person(username, **context_args)
        session_cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        page.context.add_cookies([
            {"name": settings.SESSION_COOKIE_NAME, "value": session_cookie.value, "url": live_site.url}
        ])
        return page

    return open_browser


# A member of the embedded site, made in the site's own database; prints the session key.
EMBEDDED_MEMBER = """
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

client = Client()
client.force_login(get_user_model().objects.create_user({username!r}, password={password!r}))
print(client.cookies[settings.SESSION_COOKIE_NAME].value)
"""


@pytest.fixture
def new_embedded_member(new_person, live_site):
    """new_embedded_member(username, **context_args) -> Page: `new_member` for a test marked
    `embedded_site`, whose served site keeps its own SQLite database."""
    from django.conf import settings

    assert live_site.embedded, "new_embedded_member is for tests marked embedded_site"

    def open_browser(username, **context_args):
        code = EMBEDDED_MEMBER.format(username=username, password=MEMBER_PASSWORD)
        session_key = live_site.run_python(code).strip().splitlines()[-1]
        page = new_person(username, **context_args)
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session_key, "url": live_site.url}])
        return page

    return open_browser


@pytest.fixture
def page(new_person):
    """One person's page on the site (overrides pytest-playwright's `page`)."""
    return new_person("person")


@pytest.fixture
def context(page):
    """The context of `page` (overrides pytest-playwright's, whose pages nobody watches)."""
    return page.context


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Browser problems fail the test; a failing test leaves screenshots of every open page."""
    problems = item.stash.get(PROBLEMS_KEY, None)
    try:
        result = yield
    except BaseException as failure:
        if problems is not None:
            problems.settle()
            found = problems.take_unexpected()
            if found:
                failure.add_note(BrowserProblems.describe(found))
        _note_server_errors(item, failure)
        _snap_open_pages(item)
        raise
    if problems is not None:
        problems.settle()
        found = problems.take_unexpected()
        if found:
            _snap_open_pages(item)
            pytest.fail(BrowserProblems.describe(found) + _server_errors(item), pytrace=False)
    return result


def _snap_open_pages(item):
    problems, screenshots = item.stash.get(PROBLEMS_KEY, None), item.stash.get(SCREENSHOTS_KEY, None)
    if problems is None or screenshots is None:
        return
    for page, person in problems.pages.items():
        if not page.is_closed():
            try:
                screenshots.snap(page, f"failure-{person}")
            except PlaywrightError as error:  # a failed screenshot must not hide the failure
                item.add_report_section("call", "screenshot", f"no failure screenshot of {person}: {error}")


def _server_errors(item):
    """What Daphne and Celery logged during this test, if they logged a traceback or an error."""
    quoted = ""
    for log_path, start in item.stash.get(SITE_LOGS_KEY, {}).items():
        with open(log_path, errors="replace") as log:
            log.seek(start)
            text = log.read()
        if "Traceback" in text or "ERROR" in text:
            quoted += f"\nThe server logged ({log_path}):\n{text[-4000:]}"
    return quoted


def _note_server_errors(item, failure):
    text = _server_errors(item)
    if text:
        failure.add_note(text)
