"""Sending a notification to every device of a member (docs/push.md)."""

import json
import logging

import requests
from celery import shared_task
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from .kinds import KINDS
from .models import MutedKind, Subscription

log = logging.getLogger(__name__)
GONE = {404, 410}  # the push service says this subscription no longer exists
TTL_SECONDS = 15 * 60  # a notice older than this is stale: the push service may drop it


def payload(user_id, kind, subject_id, params):
    """The notification in the member's language: a title, a line, the page a tap opens.
    Only the kind's words, the table's or tournament's number and the params: never a card."""
    from accounts.models import Player

    language = (Player.objects.filter(user_id=user_id).values_list("language", flat=True).first()
                or settings.LANGUAGE_CODE)
    words = KINDS[kind]
    with translation.override(language):
        shown = {name: translation.gettext(value) if name in words.translated else value
                 for name, value in params.items()}
        return {
            "kind": kind,
            "title": str(words.title),
            "body": str(words.body) % {words.about: subject_id, **shown},
            "url": reverse(words.page, args=[subject_id]),
            "tag": f"{kind}:{subject_id}",  # a newer one about the same table or tournament replaces the older
            "lang": language,
        }


def _signer():
    return Vapid02.from_pem(settings.VAPID_PRIVATE_KEY.encode())


@shared_task(ignore_result=True)
def deliver(user_id, kind, subject_id, params):
    """Send to each of the member's devices; a device the push service no longer knows is removed."""
    if MutedKind.objects.filter(user_id=user_id, kind=kind).exists():
        return 0
    data = json.dumps(payload(user_id, kind, subject_id, params), ensure_ascii=False)
    signer = _signer()
    sent = 0
    for subscription in Subscription.objects.filter(user_id=user_id):
        try:
            webpush(
                {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
                data=data, vapid_private_key=signer, vapid_claims={"sub": settings.VAPID_SUBJECT},
                content_encoding="aes128gcm", ttl=TTL_SECONDS, timeout=10,
            )
            sent += 1
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                subscription.delete()
            else:
                log.warning("push to subscription %s failed: %s", subscription.pk, error)
        except requests.RequestException as error:  # the push service unreachable: try the next device
            log.warning("push to subscription %s failed: %s", subscription.pk, error)
    return sent
