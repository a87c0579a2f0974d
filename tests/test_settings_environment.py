"""The site's settings come from the environment, read in joker_site/settings.py alone,
and a value that does not mean what its variable needs stops the site at start."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from joker_site.settings import env_bool, env_int, env_seconds

ROOT = Path(__file__).resolve().parent.parent
APP_PACKAGES = ("accounts", "coins", "games", "joker_site", "lessons", "moderation", "rules_pages", "pwa", "push")
SETTINGS_FILE = "joker_site/settings.py"


def _start_site(**environment):
    """Load the settings in a fresh interpreter, as `manage.py` or Daphne would at start."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "joker_site.settings", **environment}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize("word, meaning", [
    ("true", True), ("TRUE", True), ("1", True), ("yes", True), (" on ", True),
    ("false", False), ("False", False), ("0", False), ("no", False), ("off", False),
])
def test_a_boolean_setting_reads_the_usual_words(monkeypatch, word, meaning):
    monkeypatch.setenv("JOKER_TEST_FLAG", word)
    assert env_bool("JOKER_TEST_FLAG", not meaning) is meaning


def test_an_unset_boolean_setting_takes_its_default(monkeypatch):
    monkeypatch.delenv("JOKER_TEST_FLAG", raising=False)
    assert env_bool("JOKER_TEST_FLAG", True) is True
    assert env_bool("JOKER_TEST_FLAG", False) is False


@pytest.mark.parametrize("word", ["ture", "flase", "", "2", "enabled", "y"])
def test_a_boolean_setting_that_is_no_boolean_is_refused_naming_the_variable(monkeypatch, word):
    monkeypatch.setenv("JOKER_TEST_FLAG", word)
    with pytest.raises(ImproperlyConfigured, match="JOKER_TEST_FLAG"):
        env_bool("JOKER_TEST_FLAG", False)


@pytest.mark.parametrize("word", ["sixty", "", "1.5", "1e3", "0x10"])
def test_a_whole_number_setting_that_is_no_whole_number_is_refused(monkeypatch, word):
    monkeypatch.setenv("JOKER_TEST_NUMBER", word)
    with pytest.raises(ImproperlyConfigured, match="JOKER_TEST_NUMBER.*whole number"):
        env_int("JOKER_TEST_NUMBER", 60)


def test_a_whole_number_setting_below_its_floor_is_refused(monkeypatch):
    monkeypatch.setenv("JOKER_TEST_NUMBER", "0")
    with pytest.raises(ImproperlyConfigured, match="JOKER_TEST_NUMBER.*at least 1"):
        env_int("JOKER_TEST_NUMBER", 8, minimum=1)
    monkeypatch.setenv("JOKER_TEST_NUMBER", " 12 ")
    assert env_int("JOKER_TEST_NUMBER", 8, minimum=1) == 12


@pytest.mark.parametrize("word", ["ten", "nan", "inf", "-5", "0"])
def test_a_seconds_setting_must_be_a_positive_finite_number(monkeypatch, word):
    monkeypatch.setenv("JOKER_TEST_SECONDS", word)
    with pytest.raises(ImproperlyConfigured, match="JOKER_TEST_SECONDS"):
        env_seconds("JOKER_TEST_SECONDS", 10.0)
    monkeypatch.setenv("JOKER_TEST_SECONDS", "2.5")
    assert env_seconds("JOKER_TEST_SECONDS", 10.0) == 2.5


def test_the_site_refuses_to_start_with_debug_misspelt():
    started = _start_site(DEBUG="ture")
    assert started.returncode != 0
    assert "ImproperlyConfigured" in started.stderr and "DEBUG='ture'" in started.stderr


def test_the_site_refuses_to_start_with_a_protocol_thread_count_that_is_no_number():
    started = _start_site(PROTOCOL_DB_THREADS="eight")
    assert started.returncode != 0
    assert "PROTOCOL_DB_THREADS='eight'" in started.stderr


def test_the_site_refuses_a_vapid_key_that_is_no_p256_pem_key(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    other_curve = ed25519.Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    for value, said in (("not a key", "VAPID_PRIVATE_KEY is not a PEM private key"),
                        (other_curve, "VAPID_PRIVATE_KEY must be a P-256")):
        started = _start_site(VAPID_PRIVATE_KEY=value, JOKER_VAR_DIR=str(tmp_path))
        assert started.returncode != 0 and said in started.stderr


def test_the_site_refuses_a_vapid_subject_that_is_no_contact(tmp_path):
    started = _start_site(VAPID_SUBJECT="joker@example.org", JOKER_VAR_DIR=str(tmp_path))
    assert started.returncode != 0 and "VAPID_SUBJECT='joker@example.org' must begin with mailto:" in started.stderr


def test_without_a_vapid_key_one_is_made_once_and_kept_in_var(tmp_path):
    env = {"JOKER_VAR_DIR": str(tmp_path)}
    env_without_key = {name: value for name, value in os.environ.items() if name != "VAPID_PRIVATE_KEY"}
    code = "import django; django.setup(); from django.conf import settings; print(settings.VAPID_PRIVATE_KEY)"
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                           env={**env_without_key, "DJANGO_SETTINGS_MODULE": "joker_site.settings", **env})
            for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[0].stderr
    assert runs[0].stdout == runs[1].stdout and "BEGIN PRIVATE KEY" in runs[0].stdout
    kept = tmp_path / "vapid-private.pem"
    assert kept.read_text().strip() == runs[0].stdout.strip() and kept.stat().st_mode & 0o777 == 0o600


def test_the_site_starts_with_good_values():
    started = _start_site(DEBUG="yes", PROTOCOL_DB_THREADS="3", SWEEP_INTERVAL_SECONDS="2.5")
    assert started.returncode == 0, started.stderr


def _reads_the_environment(tree) -> list[int]:
    """Lines that read a variable: os.environ[...], os.environ.get(...), os.getenv(...)
    (`os.environ.setdefault("DJANGO_SETTINGS_MODULE", ...)` chooses the settings and is allowed)."""
    lines = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv")]
    setdefaults = {
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault"
        and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "DJANGO_SETTINGS_MODULE"
    }
    return [line for line in lines if line not in setdefaults]


def test_only_the_settings_module_reads_the_environment():
    readers = []
    for package in APP_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative == SETTINGS_FILE:
                continue
            for line in _reads_the_environment(ast.parse(path.read_text(encoding="utf-8"))):
                readers.append(f"{relative}:{line}")
    assert readers == []
