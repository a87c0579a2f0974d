import json
import os
from pathlib import Path

import pytest
from suite_halves import every_nth, half_label, half_of_the_suite, recorded_durations, share_by_time


@pytest.fixture(autouse=True)
def _clear_cache():
    """allauth's rate limits and other state live in the cache: start each test clean."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _no_language_left_active():
    """A request made through the test client leaves its page's language active in the thread,
    and a test that says nothing about the language would then read what the test before it
    asked for: each test starts from the site's default (LANGUAGE_CODE), whatever ran first."""
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Production hashes passwords slowly on purpose; the tests need not wait for it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config):
    config.addinivalue_line("markers", "corrupts_ledger: the test breaks the coin ledger on purpose")
    _channels_of_this_run_only()


def _channels_of_this_run_only():
    """Redis keeps pub/sub channels apart by name only, not by database number: `make test`'s
    runs side by side (and their servers) would each hear the others' notices for tables of the
    same id, and a process following a table would be handed another run's moves. So each run
    publishes under a prefix of its own, and the servers it starts inherit it."""
    prefix = os.environ["CHANNEL_PREFIX"] = f"joker-test-{os.getpid()}"
    from django.conf import settings

    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    if "prefix" in config:  # settings were read before this hook: the layers are made later
        config["prefix"] = prefix


# -- make test's halves ------------------------------------------------------------------
@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Every other hook has ordered the tests first (tests/e2e/conftest.py groups the browser
    tests by the settings their server needs), so each run gets every n-th test of each group."""
    result = yield
    half = half_of_the_suite()
    if half is not None:
        index, count = half
        if any(item.get_closest_marker("e2e") for item in items):
            kept = every_nth(items, index, count)
        else:
            kept = share_by_time(items, index, count, recorded_durations())
        taken = set(kept)
        config.hook.pytest_deselected(items=[item for item in items if item not in taken])
        items[:] = kept
    return result


_seconds_by_test: dict[str, float] = {}


def pytest_runtest_logreport(report):
    """What each test took, set-up and tear-down included (for tests/durations.json)."""
    _seconds_by_test[report.nodeid] = _seconds_by_test.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    """A run of `make test` (a share of a suite) writes what its tests took to var/tests/."""
    if half_of_the_suite() is None or not _seconds_by_test:
        return
    folder = Path(__file__).resolve().parent.parent / "var" / "tests"
    folder.mkdir(parents=True, exist_ok=True)
    suite = "browser" if any(n.startswith("tests/e2e/") for n in _seconds_by_test) else "unit"
    path = folder / f"durations-{suite}{half_label()}.json"
    path.write_text(json.dumps({k: round(v, 2) for k, v in sorted(_seconds_by_test.items())}, indent=0))


@pytest.fixture(autouse=True)
def _coin_ledger_stays_sound(request):
    """Whatever a test does with the database (joins, matches, payouts), the
    Domino Coin ledger must still add up afterwards: the same check as
    `manage.py check_ledger`, run before the test's data is rolled back."""
    db_fixtures = {"db", "transactional_db"} & set(request.fixturenames)
    uses_db = request.node.get_closest_marker("django_db") or db_fixtures
    if not uses_db or request.node.get_closest_marker("corrupts_ledger"):
        yield
        return
    # Make sure the database fixture is torn down after this check, not before.
    request.getfixturevalue("transactional_db" if "transactional_db" in request.fixturenames else "db")
    yield
    from django.db import connection

    if connection.needs_rollback or not connection.is_usable():
        return  # the test left its transaction broken; nothing can be read
    from coins.integrity import find_problems

    problems = find_problems()
    assert not problems, "coin ledger unsound after the test:\n" + "\n".join(problems)


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """channels_redis binds its connections and locks to the event loop that first
    used them; each async test runs in a loop of its own, so give each a new layer."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _forget_presence_holds():
    """Connections a test counted and never closed must not keep this process's presence
    beat writing to a database that pytest-django is about to empty or drop."""
    yield
    from games.services import spectators
    from games.services.presence import forget_holds
    from notices import presence as site_presence
    from quickplay.consumers import forget_waiting_players
    from tournaments.consumers import forget_arena_players

    forget_holds()
    spectators.forget_holds()
    site_presence.forget_holds()
    forget_waiting_players()
    forget_arena_players()


@pytest.fixture(autouse=True)
def _close_socket_thread_connections():
    """The sockets' pool threads keep database connections (joker_site/db_threads.py); close
    them before pytest-django flushes or drops the test database. So does the one thread on
    which an async test's own `sync_to_async` calls run: its connection, left open, kept
    pytest-django from dropping the test database at the end of the run ("is being accessed
    by other users"). The process's reads of tables go too: the next test's tables may reuse
    their ids."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from games.table_reads import forget_table_reads
    from joker_site.db_threads import close_thread_connections

    close_thread_connections()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    forget_table_reads()
