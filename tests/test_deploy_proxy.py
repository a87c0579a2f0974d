"""docs/deploy.md's proxy lines, tested as written (issue 36, item 3): a proxy in this test
sets the headers exactly as the documented nginx `proxy_set_header` lines say, in front of a
real Daphne started by scripts/run_prod.py (`--proxy-headers`), and a client that forges
`X-Forwarded-For` still counts against the per-address limit of failed log-ins, while a
client from another address does not.

All clients reach the proxy over loopback: 127.0.0.1 is the attacker, who forges a new
address on every request; 127.0.0.2 (also loopback on Linux) is somebody else.
"""

import http.client
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.factories import PASSWORD, make_user
from tests.server_processes import production_environment, run_prod_web_processes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout_sensitive]

ROOT = Path(__file__).resolve().parent.parent
DEPLOY_DOC = ROOT / "docs" / "deploy.md"
ATTACKER, SOMEBODY_ELSE = "127.0.0.1", "127.0.0.2"
FAILED_LOGINS_PER_ADDRESS = 10  # allauth's default "login_failed": "10/m/ip,5/5m/key" (docs/accounts.md)
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"}


def documented_proxy_headers():
    """{header: nginx value} from the `proxy_set_header` lines of deploy.md's nginx block."""
    block = re.search(r"```nginx\n(.*?)```", DEPLOY_DOC.read_text(), re.DOTALL).group(1)
    lines = re.findall(r"^\s*proxy_set_header\s+(\S+)\s+([^;]+);", block, re.MULTILINE)
    assert lines, "deploy.md's nginx block sets no headers"
    return dict(lines)


def nginx_value(expression, client_address, incoming):
    """What nginx puts in a header for `expression`, for a request over TLS (`listen 443 ssl`)."""
    forwarded = incoming.get("X-Forwarded-For")
    upgrade = incoming.get("Upgrade", "")
    variables = {
        "$remote_addr": client_address,
        "$proxy_add_x_forwarded_for": f"{forwarded}, {client_address}" if forwarded else client_address,
        "$host": incoming.get("Host", "").split(":")[0],
        "$scheme": "https",
        "$http_upgrade": upgrade,
        "$connection_upgrade": "upgrade" if upgrade else "close",
    }
    assert expression in variables, f"this test does not know nginx's {expression}: teach it"
    return variables[expression]


def documented_proxy(daphne_port):
    """A ThreadingHTTPServer that forwards to Daphne, setting the documented headers."""
    documented = documented_proxy_headers()

    class Proxy(BaseHTTPRequestHandler):
        def _forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
            for name, expression in documented.items():
                value = nginx_value(expression.strip(), self.client_address[0], self.headers)
                headers = {k: v for k, v in headers.items() if k.lower() != name.lower()}
                if value:  # nginx leaves out a header whose value is empty
                    headers[name] = value
            upstream = http.client.HTTPConnection("127.0.0.1", daphne_port, timeout=30)
            upstream.request(self.command, self.path, body=body, headers=headers)
            response = upstream.getresponse()
            content = response.read()
            self.send_response(response.status)
            for name, value in response.getheaders():
                if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)
            upstream.close()

        do_GET = do_POST = _forward

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    return server


class Browser:
    """Cookies and a CSRF token over plain http.client, from a chosen loopback address."""

    def __init__(self, proxy_port, source):
        self.proxy_port, self.source, self.cookies = proxy_port, source, {}

    def request(self, method, path, form=None, headers=()):
        connection = http.client.HTTPConnection("127.0.0.1", self.proxy_port, timeout=30,
                                                source_address=(self.source, 0))
        all_headers = {"Host": "127.0.0.1", "Accept-Language": "en", **dict(headers)}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            all_headers.update({"Content-Type": "application/x-www-form-urlencoded",
                                "Referer": "https://127.0.0.1/en/accounts/login/",
                                "X-CSRFToken": self.cookies.get("csrftoken", "")})
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                cookie_name, cookie_value = value.split(";")[0].split("=", 1)
                self.cookies[cookie_name] = cookie_value
        connection.close()
        return response.status, text

    def log_in(self, username, password, forged_address=None):
        self.request("GET", "/en/accounts/login/")
        headers = {"X-Forwarded-For": forged_address} if forged_address else {}
        status, _text = self.request("POST", "/en/accounts/login/",
                                     {"login": username, "password": password,
                                      "csrfmiddlewaretoken": self.cookies["csrftoken"]}, headers)
        return status == 302  # logged in: sent on to the next page


@pytest.fixture
def site_behind_the_documented_proxy(transactional_db, tmp_path):
    # Production's https settings: the proxy says https in X-Forwarded-Proto, as nginx does.
    env = production_environment(tmp_path, "proxy-test", SECURE_HTTPS="true")
    with run_prod_web_processes(tmp_path, env) as (daphne_port,):
        proxy = documented_proxy(daphne_port)
        thread = threading.Thread(target=proxy.serve_forever, daemon=True)
        thread.start()
        try:
            yield proxy.server_address[1]
        finally:
            proxy.shutdown()
            proxy.server_close()


def test_a_forged_x_forwarded_for_does_not_escape_the_per_address_limit_of_failed_logins(
        site_behind_the_documented_proxy):
    proxy_port = site_behind_the_documented_proxy
    # The server checks passwords with its own (production) hashers, not the tests' fast one.
    user = make_user("nino")
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    user.save(update_fields=["password"])

    attacker = Browser(proxy_port, ATTACKER)
    for attempt in range(FAILED_LOGINS_PER_ADDRESS):
        # A new name each time (the per-name limit stays out of it) and a new forged address.
        assert not attacker.log_in(f"guess{attempt}", "wrong", forged_address=f"203.0.113.{attempt + 1}")
    assert not attacker.log_in("nino", PASSWORD, forged_address="198.51.100.77"), (
        "the attacker's forged addresses were counted as other clients"
    )
    # The limit is the attacker's address's, not everyone's: somebody else logs in.
    assert Browser(proxy_port, SOMEBODY_ELSE).log_in("nino", PASSWORD)
