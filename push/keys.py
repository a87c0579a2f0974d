"""The site's VAPID public key, as the browser's pushManager.subscribe takes it."""

import base64
import functools

from cryptography.hazmat.primitives import serialization
from django.conf import settings


@functools.cache
def application_server_key():
    """The public half of settings.VAPID_PRIVATE_KEY: base64url of the uncompressed P-256 point."""
    key = serialization.load_pem_private_key(settings.VAPID_PRIVATE_KEY.encode(), password=None)
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()
