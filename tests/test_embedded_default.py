"""`make run` needs no outside services: SQLite, the in-memory channel layer and
a broker in a folder. Prove the site starts that way and answers."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _embedded_env(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env["JOKER_VAR_DIR"] = str(tmp_path)
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_embedded_settings_use_sqlite_memory_layer_and_folder_broker(tmp_path):
    code = (
        "import django, json; from django.conf import settings; django.setup();"
        "print(json.dumps([settings.DATABASES['default']['ENGINE'],"
        " settings.CHANNEL_LAYERS['default']['BACKEND'], settings.CELERY_BROKER_URL]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_embedded_env(tmp_path) | {"DJANGO_SETTINGS_MODULE": "joker_site.settings"},
        capture_output=True, text=True, check=True,
    ).stdout
    assert "sqlite3" in out and "InMemoryChannelLayer" in out and "filesystem://" in out


@pytest.mark.timeout_sensitive
def test_embedded_site_migrates_and_serves_home_page(tmp_path):
    env = _embedded_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    assert (tmp_path / "db.sqlite3").exists()
    port = _free_port()
    daphne = subprocess.Popen(
        [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port), "joker_site.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        body = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ka/", timeout=2) as response:
                    assert response.status == 200
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(0.1)
        assert body is not None, daphne.stderr.read1().decode() if daphne.poll() is not None else "no answer"
        assert '<html lang="ka">' in body
    finally:
        daphne.terminate()
        daphne.wait(10)
