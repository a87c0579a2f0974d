"""A member's devices that take notifications (Web Push subscriptions) and the kinds they turned off."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Subscription(models.Model):
    """One browser on one device, subscribed after its member tapped "Notify me"."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    # The push service's address for this browser; a secret of the browser's, never shown.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's public key (base64url)
    auth = models.CharField(max_length=40)  # the browser's auth secret (base64url)
    device = models.CharField(_("device"), max_length=120, blank=True)  # what the member sees in the list
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.user} · {self.device}"


class MutedKind(models.Model):
    """A kind of notification (push.kinds) this member does not want: every kind is on until muted."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=30)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="push_muted_kind_once")]
