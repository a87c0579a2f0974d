"""A push service of the test's own, and a browser's side of a subscription, for the push tests
(tests/test_push.py) and the browser scenario (tests/e2e/test_browser_push.py): a local HTTP
endpoint that keeps what it is sent, with when; `check_vapid` checks the VAPID JWT as a push
service does; `SubscribedBrowser.read` decrypts the aes128gcm payload as the browser does.
Nothing of the protocol is mocked."""

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on 127.0.0.1: it keeps what it was sent (`received`: path, headers,
    body; `received_at`: when, by time.time()) and answers `status`."""

    def __init__(self):
        self.received = []
        self.received_at = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append((self.path, {name.lower(): value for name, value in self.headers.items()}, body))
                service.received_at.append(time.time())
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class SubscribedBrowser:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self, service, name):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{service.origin}/push/{name}"
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        self.p256dh = b64url(public)

    def subscription(self) -> dict:
        """What the browser's PushSubscription.toJSON() gives the page."""
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}

    def subscribe(self, user):
        from push.models import Subscription

        return Subscription.objects.create(user=user, endpoint=self.endpoint, p256dh=self.p256dh,
                                           auth=b64url(self.auth), device="test browser")

    def read(self, body):
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def site_public_key() -> bytes:
    """The public half of this process's settings.VAPID_PRIVATE_KEY, as the point's bytes."""
    from django.conf import settings

    key = serialization.load_pem_private_key(settings.VAPID_PRIVATE_KEY.encode(), password=None)
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def check_vapid(headers, audience, public_key: bytes | None = None):
    """The Authorization header as RFC 8292 has it: `vapid t=<JWT>, k=<the site's public key>`,
    the JWT signed with ES256 by that key (`public_key`, else this process's), for the push
    service's origin, not expired."""
    from django.conf import settings

    public_key = site_public_key() if public_key is None else public_key
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert unb64url(fields["k"]) == public_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64url(claims))
    assert claims["aud"] == audience and claims["sub"] == settings.VAPID_SUBJECT
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
