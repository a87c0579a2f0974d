"""Checking a browser's subscription before it is kept, and naming the device it is on."""

import base64
import binascii
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.utils.translation import gettext as _


class BadSubscription(ValueError):
    """A subscription the browser could not have made: the message says what is wrong."""


def _decoded(text, what):
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", text):
        raise BadSubscription(_("The subscription's %(what)s is not base64url.") % {"what": what})
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(_("The subscription's %(what)s is not base64url.") % {"what": what}) from None


def checked(subscription):
    """(endpoint, p256dh, auth) of a PushSubscription's JSON, or BadSubscription."""
    if not isinstance(subscription, dict) or not isinstance(subscription.get("keys"), dict):
        raise BadSubscription(_("Send the browser's subscription: an endpoint and its keys p256dh and auth."))
    endpoint = subscription.get("endpoint")
    parts = urlsplit(endpoint) if isinstance(endpoint, str) else None
    if parts is None or parts.scheme != "https" or not parts.netloc or len(endpoint) > 1000:
        raise BadSubscription(_("The subscription's endpoint must be an https address of a push service."))
    p256dh, auth = subscription["keys"].get("p256dh"), subscription["keys"].get("auth")
    point = _decoded(p256dh, "p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription(_("The subscription's p256dh is not a P-256 public key.")) from None
    if len(_decoded(auth, "auth")) != 16:
        raise BadSubscription(_("The subscription's auth secret must be 16 bytes."))
    return endpoint, p256dh, auth


PLATFORMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
             ("Macintosh", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))
BROWSERS = (("Firefox/", "Firefox"), ("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"),
            ("Chrome/", "Chrome"), ("Safari/", "Safari"))


def device_name(user_agent):
    """ "Android · Chrome": enough for a member to tell their devices apart in the list."""
    platform = next((name for mark, name in PLATFORMS if mark in user_agent), "")
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    return " · ".join(part for part in (platform, browser) if part) or _("A browser")
