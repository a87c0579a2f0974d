"""A member's notifications page: the devices, the kinds, the "Notify me" button (docs/push.md)."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .devices import BadSubscription, checked, device_name
from .keys import application_server_key
from .kinds import KINDS
from .models import MutedKind, Subscription


@login_required
@require_GET
def devices(request):
    muted = set(MutedKind.objects.filter(user=request.user).values_list("kind", flat=True))
    return render(request, "push/devices.html", {
        "subscriptions": Subscription.objects.filter(user=request.user),
        "kinds": [(kind, words.label, kind not in muted) for kind, words in KINDS.items()],
        "application_server_key": application_server_key(),
    })


@login_required
@require_POST
def subscribe(request):
    """The page's script sends the browser's new subscription (after "Notify me")."""
    try:
        endpoint, p256dh, auth = checked(json.loads(request.body or b"null"))
    except (BadSubscription, ValueError) as error:
        message = str(error) if isinstance(error, BadSubscription) else _("Send the subscription as JSON.")
        return JsonResponse({"error": message}, status=400)
    # The same browser subscribing again (or after another member on it) is this member's device now.
    Subscription.objects.update_or_create(endpoint=endpoint, defaults={
        "user": request.user, "p256dh": p256dh, "auth": auth,
        "device": device_name(request.headers.get("User-Agent", ""))[:120],
    })
    return JsonResponse({"devices": Subscription.objects.filter(user=request.user).count()}, status=201)


@login_required
@require_POST
def remove(request, subscription_id):
    get_object_or_404(Subscription, pk=subscription_id, user=request.user).delete()
    messages.success(request, _("This device gets no more notifications."))
    return redirect("push:devices")


@login_required
@require_POST
def save_kinds(request):
    wanted = set(request.POST.getlist("kind"))
    unknown = wanted - set(KINDS)
    if unknown:
        messages.error(request, _("Unknown kind of notification: %(kinds)s.") % {"kinds": ", ".join(sorted(unknown))})
        return redirect("push:devices")
    MutedKind.objects.filter(user=request.user).delete()
    MutedKind.objects.bulk_create(MutedKind(user=request.user, kind=kind) for kind in KINDS if kind not in wanted)
    messages.success(request, _("Your choice of notifications is saved."))
    return redirect("push:devices")
