"""The real site, served for browser tests the way `make run` serves it: Daphne
(HTTP and websockets) plus a Celery worker with the beat scheduler, as child
processes, against the test database and Redis of the pytest run.

An embedded server (`embedded=True`) is `make run` itself: no DATABASE_URL, no
REDIS_URL, so SQLite, the local channel layer and the folder broker in a var
folder of its own. The test cannot reach that database with its ORM; it sets up
rows inside the site's own environment with `LiveSite.run_python(code)`.

pytest-django's `live_server` is WSGI only (no websockets), so we start Daphne
ourselves. The servers share the test database with the test process, so tests
that use them run with `transactional_db`: what a test writes is committed and
the server sees it, and what the server writes the test can read back.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS_DIR = ROOT / "tests"
VENV_BIN = Path(sys.executable).parent
# The server runs joker_site.settings with the test's overrides applied on top.
SERVER_SETTINGS_MODULE = "e2e.site_settings"
START_TIMEOUT_SECONDS = 60
LISTENING_LINE = re.compile(r"Listening on TCP address 127\.0\.0\.1:(\d+)")
CELERY_READY_LINE = re.compile(r"celery@\S+ ready\.")


# Starts a server process that gets SIGTERM when pytest dies, however it dies, so no
# server outlives the run holding connections to the test database (Linux prctl).
DIE_WITH_PARENT = (
    "import ctypes, os, signal, sys; "
    "ctypes.CDLL(None).prctl(1, signal.SIGTERM); "  # PR_SET_PDEATHSIG
    "os.execv(sys.argv[1], sys.argv[1:])"
)


class SiteServerError(RuntimeError):
    pass


@dataclass
class LiveSite:
    """What a scenario needs to know about the running site."""

    url: str  # "http://127.0.0.1:<port>", no trailing slash
    settings_overrides: dict = field(default_factory=dict)
    log_dir: Path | None = None
    embedded: bool = False
    env: dict = field(default_factory=dict, repr=False)

    def url_for(self, path):
        return self.url + path

    def run_python(self, code) -> str:
        """Run `code` with Django set up as the site is (its settings, its database); its output."""
        done = subprocess.run(
            [sys.executable, "-c", "import django; django.setup()\n" + code],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=120,
        )
        if done.returncode:
            raise SiteServerError(f"code run in the site failed:\n{done.stderr[-3000:]}")
        return done.stdout

    @property
    def server_logs(self):
        return [self.log_dir / "daphne.log", self.log_dir / "celery.log"]


def server_database_url(database_url, test_database_name):
    """DATABASE_URL of the run, pointing at the database pytest-django created."""
    parts = urllib.parse.urlsplit(database_url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise SiteServerError(
            "Browser tests need PostgreSQL (the server runs in another process and must "
            f"share the test database); DATABASE_URL is {database_url!r}"
        )
    return urllib.parse.urlunsplit(parts._replace(path="/" + urllib.parse.quote(test_database_name)))


class SiteServer:
    """Daphne + Celery worker (with beat) for one set of settings overrides."""

    def __init__(self, *, database_url, redis_url, settings_overrides, log_dir, embedded=False):
        self.settings_overrides = dict(settings_overrides)
        self.log_dir = Path(log_dir)
        self.embedded = embedded
        self.env = self._environment(database_url, redis_url)
        self.processes = {}
        self.url = None

    def _environment(self, database_url, redis_url):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env.update(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            DJANGO_SETTINGS_MODULE=SERVER_SETTINGS_MODULE,
            JOKER_E2E_SETTINGS=json.dumps(self.settings_overrides),
            JOKER_VAR_DIR=str(self.log_dir / "var"),
            PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS_DIR)]),
            PYTHONUNBUFFERED="1",
            DEBUG="true",  # static files from the finders, as under `make run`
        )
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the server must stay honest about async
        if self.embedded:  # `make run`: SQLite, the local channel layer, the folder broker
            del env["DATABASE_URL"], env["REDIS_URL"]
        return env

    def start(self):
        self.log_dir.mkdir(parents=True, exist_ok=True)
        if self.embedded:  # as `make run` does first
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                           cwd=ROOT, env=self.env, check=True, timeout=300)
        try:
            self._spawn(
                "daphne",
                [str(VENV_BIN / "daphne"), *["-b", "127.0.0.1", "-p", "0", "-v", "1"]]
                + ["--access-log", str(self.log_dir / "access.log"), "joker_site.asgi:application"],
            )
            self._spawn(
                "celery",
                [str(VENV_BIN / "celery"), *["-A", "joker_site", "worker", "--beat", "--loglevel=info"]]
                + ["--concurrency=1", "--without-mingle", "--without-gossip"]
                # Messages an earlier server left in the queue name rows that no longer exist.
                + ["--purge", "--schedule", str(self.log_dir / "celerybeat-schedule")],
            )
            port = self._wait_for_log("daphne", LISTENING_LINE).group(1)
            self.url = f"http://127.0.0.1:{port}"
            self._wait_until_answering()
            self._wait_for_log("celery", CELERY_READY_LINE)
        except BaseException:
            self.stop()
            raise
        return LiveSite(url=self.url, settings_overrides=self.settings_overrides, log_dir=self.log_dir,
                        embedded=self.embedded, env=self.env)

    def _spawn(self, name, command):
        with open(self.log_dir / f"{name}.log", "ab") as log:  # the child keeps its own descriptor
            # A session of its own, so stopping it ends the process and its children together.
            self.processes[name] = subprocess.Popen(
                [sys.executable, "-c", DIE_WITH_PARENT, *command],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def _wait_for_log(self, name, pattern):
        process = self.processes[name]
        log_path = self.log_dir / f"{name}.log"
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            match = pattern.search(log_path.read_text(errors="replace"))
            if match:
                return match
            if process.poll() is not None:
                raise SiteServerError(
                    f"{name} exited with {process.returncode}; see {log_path}:\n"
                    + log_path.read_text(errors="replace")[-3000:]
                )
            time.sleep(0.1)
        raise SiteServerError(f"{name} did not start within {START_TIMEOUT_SECONDS} s; see {log_path}")

    def _wait_until_answering(self):
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while True:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=5):
                    return
            except urllib.error.HTTPError:
                return  # an answer all the same (a test may serve other URLs)
            except OSError:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.1)

    def stop(self):
        # Celery's warm shutdown puts the timers it was holding back in the queue,
        # where the next server's worker purges them.
        running = [process for process in self.processes.values() if process.poll() is None]
        for process in running:
            os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in running:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
        self.processes.clear()


class SiteServers:
    """Keeps one server running at a time, restarting it when a test needs other settings.

    One at a time because the Celery workers of two servers would share the broker's
    queue and run each other's timers with the wrong settings.
    """

    def __init__(self, *, database_url, redis_url, log_root):
        self.database_url = database_url
        self.redis_url = redis_url
        self.log_root = Path(log_root)
        self.current = None
        self.current_site = None
        self.started = 0
        self.failures = {}  # settings (as JSON) -> why their server would not start

    def site_for(self, settings_overrides, embedded=False):
        if (self.current is not None and self.current.settings_overrides == settings_overrides
                and self.current.embedded == embedded):
            return self.current_site
        key = json.dumps([settings_overrides, embedded], sort_keys=True)
        if key in self.failures:  # fail the next tests at once instead of waiting again
            raise SiteServerError(f"the server did not start earlier in this run: {self.failures[key]}")
        self.stop()
        self.started += 1
        self.current = SiteServer(
            database_url=self.database_url,
            redis_url=self.redis_url,
            settings_overrides=settings_overrides,
            log_dir=self.log_root / f"server-{self.started}",
            embedded=embedded,
        )
        try:
            self.current_site = self.current.start()
        except Exception as error:
            self.failures[key] = error
            self.current = None
            raise
        (self.current.log_dir / "settings.json").write_text(json.dumps(settings_overrides, indent=2))
        return self.current_site

    def stop(self):
        if self.current is not None:
            self.current.stop()
        self.current = self.current_site = None


def clear_site_cache():
    """Delete the keys of Django's cache (allauth's rate limits and the like) and only those.

    Django's RedisCache.clear() is FLUSHDB: it would also wipe what the running server
    keeps in the same Redis database, its queued Celery tasks and its channel groups."""
    from django.core.cache import cache

    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(match=cache.make_key("*"), count=1000):
        client.delete(key)
