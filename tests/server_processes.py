"""The environment for the site's real server processes started by a test
(scripts/run_prod.py against the test database and the test Redis)."""

import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from e2e.site_server import DIE_WITH_PARENT, server_database_url

ROOT = Path(__file__).resolve().parent.parent
WEB_LINE = re.compile(r"web-(\d+): http://127\.0\.0\.1:(\d+)/")
START_TIMEOUT = 60


def production_environment(tmp_path, secret_key, **settings) -> dict:
    """os.environ for run_prod: the test database pytest-django made, the run's Redis,
    DEBUG off, plain http, a var folder under `tmp_path`, and `settings` (environment variables)
    on top."""
    from django.conf import settings as django_settings
    from django.db import connection

    assert django_settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("RedisChannelLayer"), "needs REDIS_URL"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(
        DATABASE_URL=server_database_url(os.environ["DATABASE_URL"], connection.settings_dict["NAME"]),
        REDIS_URL=os.environ["REDIS_URL"],
        SECRET_KEY=secret_key,
        DEBUG="false",
        SECURE_HTTPS="false",  # plain http on 127.0.0.1 (a test may put its proxy's https back)
        JOKER_VAR_DIR=str(tmp_path / "var"),
        PYTHONUNBUFFERED="1",
    )
    env.update(settings)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the servers must stay honest about async
    return env


@contextlib.contextmanager
def run_prod_web_processes(tmp_path, env, count=1):
    """`scripts/run_prod.py` as `make run-prod` starts it (Daphne with --proxy-headers), web
    processes only, each on a port of its own; yields the ports once every process listens."""
    launcher = subprocess.Popen(
        [sys.executable, "-c", DIE_WITH_PARENT, sys.executable, str(ROOT / "scripts" / "run_prod.py"),
         "--web", str(count), "--port", "0", "--separate-ports", "--no-celery", "--skip-setup",
         "--log-dir", str(tmp_path / "logs")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    try:
        ports = {}
        deadline = time.monotonic() + START_TIMEOUT
        while len(ports) < count:
            line = launcher.stdout.readline()
            assert line and time.monotonic() < deadline, f"the launcher stopped: {line!r}"
            found = WEB_LINE.search(line)
            if found:
                ports[int(found.group(1))] = int(found.group(2))
        _wait_listening(tmp_path / "logs", count, deadline)
        yield [ports[i] for i in range(count)]
    finally:
        launcher.terminate()
        try:
            launcher.wait(20)
        except subprocess.TimeoutExpired:
            launcher.kill()


def _wait_listening(log_dir, count, deadline):
    while time.monotonic() < deadline:
        logs = [log_dir / f"web-{i}.log" for i in range(count)]
        if all(log.exists() and "Listening on TCP address" in log.read_text() for log in logs):
            return
        time.sleep(0.2)
    raise AssertionError("the web processes did not start")
