"""Production hardening (issue 36, item 10): `check --deploy` with DEBUG off leaves no warning
about HSTS, the HTTPS redirect or the cookies; plain http stays possible when asked for; the
main pages carry the Content-Security-Policy and have no inline script for it to refuse."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from joker_site.settings import MIDDLEWARE, with_content_security_policy

ROOT = Path(__file__).resolve().parent.parent
HARDENING_WARNINGS = ("security.W004", "security.W008", "security.W012", "security.W016")
MAIN_PAGES = ["/ka/", "/ka/lobby/", "/ka/rules/", "/ka/accounts/login/", "/ka/accounts/signup/", "/ka/coins/",
              "/ka/leaderboard/", "/ka/tables/new/?variant=japanese", "/ru/accounts/guest/", "/ru/"]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


def manage(*args, **environment):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(SECRET_KEY="s" * 60, **environment)
    env.pop("DEBUG", None)
    env.update(environment)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


def test_check_deploy_with_debug_off_leaves_no_https_or_cookie_warning():
    result = manage("check", "--deploy", DEBUG="false")
    output = result.stdout + result.stderr
    assert not [warning for warning in HARDENING_WARNINGS if warning in output], output


def test_plain_http_is_one_explicit_setting_away():
    result = manage("check", "--deploy", DEBUG="false", SECURE_HTTPS="false")
    output = result.stdout + result.stderr
    assert all(warning in output for warning in HARDENING_WARNINGS if warning != "security.W004"), output


def test_a_typo_in_the_https_setting_stops_the_site():
    result = manage("check", DEBUG="false", SECURE_HTTPS="ture")
    assert result.returncode != 0 and "SECURE_HTTPS" in result.stderr


def test_production_turns_the_content_security_policy_on():
    code = "from django.conf import settings; print('csp.middleware.CSPMiddleware' in settings.MIDDLEWARE)"
    result = manage("shell", "-c", code, DEBUG="false")
    assert result.stdout.split()[-1] == "True", result.stderr
    assert manage("shell", "-c", code, DEBUG="true").stdout.split()[-1] == "False"


@pytest.mark.django_db
@pytest.mark.parametrize("path", MAIN_PAGES)
def test_main_pages_carry_the_policy_and_have_no_inline_script(client, settings, path):
    settings.MIDDLEWARE = with_content_security_policy(MIDDLEWARE)
    response = client.get(path)
    assert response.status_code == 200, path
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    html = response.content.decode()
    assert not INLINE_SCRIPT.findall(html), INLINE_SCRIPT.findall(html)
    assert not INLINE_HANDLER.findall(html), INLINE_HANDLER.findall(html)
