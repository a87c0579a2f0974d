"""The browser-test harness itself: the served site shares the test database, a
test's settings reach the server, and the checks that fail scenarios do catch
what they are meant to catch."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off, find_cut_off
from e2e.site_server import clear_site_cache


def test_served_site_reads_what_the_test_wrote_and_the_test_reads_what_it_wrote(page, snap):
    user = get_user_model().objects.create_superuser("nino", "nino@example.com", "a-long-secret-9")
    assert user.last_login is None

    page.goto("/admin/login/")  # sent on to the site's log-in, which has the brute-force limits
    page.locator("#id_login").fill("nino")
    page.locator("#id_password").fill("a-long-secret-9")
    page.locator("form:has(#id_login) [type=submit]").click()
    expect(page.locator("#user-tools")).to_contain_text("nino")
    snap(page, "logged-in-to-admin")

    user.refresh_from_db()
    assert user.last_login is not None


@pytest.mark.site_settings(CSRF_COOKIE_NAME="e2e_csrf", DISCONNECT_GRACE_SECONDS=2)
def test_site_settings_marker_reaches_the_server_and_the_test(page):
    page.goto("/ka/")  # the language form carries a CSRF token, so the cookie is set
    cookie_names = {cookie["name"] for cookie in page.context.cookies()}
    assert "e2e_csrf" in cookie_names and "csrftoken" not in cookie_names
    assert settings.DISCONNECT_GRACE_SECONDS == 2


def test_clearing_the_cache_between_tests_leaves_the_servers_redis_keys_alone(live_site):
    from django.core.cache import cache

    cache.set("left-by-an-earlier-test", 1)
    redis = cache._cache.get_client(write=True)  # the database Celery and the channel layer use too
    redis.set("not-a-cache-key", 1)
    clear_site_cache()
    assert cache.get("left-by-an-earlier-test") is None
    assert redis.exists("not-a-cache-key")
    assert redis.exists("_kombu.binding.celery"), "the running Celery worker's queue binding was wiped"
    redis.delete("not-a-cache-key")


def test_console_errors_script_errors_failed_requests_and_error_answers_are_caught(page, browser_problems):
    page.goto("/ka/")
    with browser_problems.expected(r"console error: boom"):
        page.evaluate("console.error('boom')")
    with browser_problems.expected(r"uncaught script error: .*kaboom"):
        page.add_script_tag(content="throw new Error('kaboom')")
    with browser_problems.expected(r"127\.0\.0\.1:1/"):
        page.evaluate("fetch('http://127.0.0.1:1/').catch(() => null)")
    with browser_problems.expected(r"404 .*no-such-page"):
        page.goto("/ka/no-such-page/")
    with pytest.raises(AssertionError, match="none happened"), browser_problems.expected(r"never"):
        page.goto("/ka/")


def add_to_main(page, html):
    page.evaluate("(html) => document.querySelector('main').insertAdjacentHTML('beforeend', html)", html)


def test_cut_off_check_catches_sideways_scrolling_and_clipped_content(new_person):
    phone = new_person("phone", **PHONE)
    phone.goto("/ka/")
    assert find_cut_off(phone) == []

    # A wide table in a box that scrolls by itself: cut off, unless the test allows that box.
    add_to_main(
        phone,
        '<div class="scroller" style="overflow-x:auto">'
        '<div id="wide-sheet" style="width:500px">sheet</div></div>',
    )
    with pytest.raises(AssertionError, match="div#wide-sheet"):
        assert_nothing_cut_off(phone)
    assert_nothing_cut_off(phone, allow=[".scroller"])

    add_to_main(
        phone,
        '<div id="too-wide" style="width:500px">wide</div>'
        '<p id="clipped" style="overflow:hidden; white-space:nowrap; width:100px">'
        "far too long for a hundred pixels</p>",
    )
    found = "\n".join(find_cut_off(phone, allow=[".scroller"]))
    assert "the page scrolls sideways" in found
    assert "div#too-wide" in found
    assert "p#clipped" in found and "hides part of its content" in found


class _PageWithASlowStylesheet(BaseHTTPRequestHandler):
    """A page 500 px wide until its stylesheet, which takes a second to come, narrows it.

    It names an empty icon: otherwise the browser asks for /favicon.ico after the load,
    and a CI run saw that request cut off (ERR_CONNECTION_RESET) by the server's shutdown."""

    PAGE = (
        b'<!doctype html><html><head><meta name="viewport" content="width=device-width">'
        b'<link rel="icon" href="data:,">'
        b"<style>#wide { width: 500px }</style>"
        b'<link rel="stylesheet" href="/slow.css"></head>'
        b'<body><div id="wide">wide until its stylesheet comes</div></body></html>'
    )

    def do_GET(self):
        if self.path == "/slow.css":
            time.sleep(1)
            self._answer(b"#wide { width: auto }", "text/css")
        elif self.path == "/":
            self._answer(self.PAGE, "text/html")
        else:
            self._answer(b"", "text/plain")

    def _answer(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_cut_off_check_measures_a_page_once_its_stylesheets_have_come(new_person):
    # A page reached by a click can show its content while a stylesheet is on its way
    # (a CI run measured the Japanese rules page without rules.css). A person never sees
    # that layout, since the browser does not paint before the stylesheet comes.
    server = ThreadingHTTPServer(("127.0.0.1", 0), _PageWithASlowStylesheet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        phone = new_person("phone", **PHONE)
        phone.goto(f"http://127.0.0.1:{server.server_port}/", wait_until="commit")
        phone.wait_for_selector("#wide", state="attached")
        assert find_cut_off(phone) == []
        assert phone.evaluate("document.readyState") == "complete"
        phone.close()  # nothing of the page's may still be asking when the server goes
    finally:
        server.shutdown()
        server.server_close()


def test_a_request_the_old_page_made_while_the_next_page_loaded_is_no_problem(page, browser_problems):
    """The old document's requests die when the next one replaces it, even those it
    made after the navigation had started (a live table pushes fragments meanwhile)."""
    page.goto("/ka/")
    page.route("**/never-answers", lambda route: None)  # pending until its page goes
    # A request the page itself gave up on, with no navigation, still counts.
    page.evaluate("const stop = new AbortController(); fetch('/never-answers', {signal: stop.signal})"
                  ".catch(() => null); setTimeout(() => stop.abort(), 100); 0")
    page.wait_for_event("requestfailed")
    browser_problems.settle()
    assert [text for _, text in browser_problems.take_unexpected()] == [
        f"request failed (net::ERR_ABORTED): GET {page.url.split('/ka/')[0]}/never-answers"
    ]

    held_navigations = []
    page.route("**/ka/rules/", lambda route: held_navigations.append(route))
    with page.expect_request("**/never-answers"):
        # The navigation is held by the route above; the old page asks for more meanwhile.
        page.evaluate("setTimeout(() => fetch('/never-answers').catch(() => null), 300);"
                      "location.href = '/ka/rules/'")
    assert len(held_navigations) == 1
    page.unroute("**/ka/rules/")
    held_navigations[0].continue_()
    page.wait_for_url("**/ka/rules/")
    browser_problems.settle()
    assert browser_problems.take_unexpected() == []


def test_emptying_the_tables_is_run_again_when_postgres_cancels_it_for_a_deadlock(live_site):
    """Another connection (as the served site's would) reads the table the TRUNCATE locks
    last, waits until the TRUNCATE is blocked on it, then reads the table it locked first:
    Postgres cancels the TRUNCATE, which the harness runs again.

    Postgres cancels whichever waiter checks for a deadlock first, each once, its
    deadlock_timeout after it began to wait. With the default 1 s for both, a loaded machine
    (stop 25's CI) could take longer than that to send the reader's second read: the
    TRUNCATE's check found no cycle yet, and the reader's found it and cancelled the reader.
    So the TRUNCATE checks after 5 s and the reader after a minute."""
    import threading

    import psycopg
    from django.core.management.color import no_style
    from django.db import connection
    from django.test import TransactionTestCase

    get_user_model().objects.create_user("nino")
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    truncate = connection.ops.sql_flush(no_style(), tables)[0]
    named = truncate.removeprefix("TRUNCATE ").rstrip(";").split(",")
    in_lock_order = [name.strip().strip('"') for name in named]
    connection.ensure_connection()
    truncating_pid = connection.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SET deadlock_timeout = '5s'")
    database = f"host=127.0.0.1 user=postgres dbname={connection.settings_dict['NAME']}"
    holds_the_last_table = threading.Event()
    the_other_side = {}

    def read_the_last_table_then_the_first():
        with psycopg.connect(database) as reader, psycopg.connect(database, autocommit=True) as watcher:
            reader.execute("SET deadlock_timeout = '1min'")
            reader.execute(f'SELECT 1 FROM "{in_lock_order[-1]}" LIMIT 1')
            holds_the_last_table.set()
            waiting = (
                "SELECT count(*) FROM pg_locks WHERE pid = %s AND relation = %s::regclass AND NOT granted"
            )
            while not watcher.execute(waiting, (truncating_pid, in_lock_order[-1])).fetchone()[0]:
                pass  # until the TRUNCATE waits for the table this transaction holds
            reader.execute(f'SELECT 1 FROM "{in_lock_order[0]}" LIMIT 1')
            the_other_side["read"] = True
            reader.commit()

    reader = threading.Thread(target=read_the_last_table_then_the_first)
    reader.start()
    holds_the_last_table.wait()

    class EmptyTables(TransactionTestCase):
        pass

    try:
        EmptyTables(methodName="setUp")._fixture_teardown()
    finally:
        reader.join()
        with connection.cursor() as cursor:
            cursor.execute("RESET deadlock_timeout")
    assert the_other_side == {"read": True}  # Postgres cancelled the TRUNCATE, not the reader
    assert not get_user_model().objects.exists()
