"""Marking notices read, inviting a friend, taking an invitation back and accepting one.

Each answers htmx with a fragment (or a redirect header) and a plain form post with a
redirect and a message, so the pages work without scripts too.
"""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.players import player_for_request
from games.models import Table
from games.services import tables as table_service

from . import invitations, notify
from .invitations import InvitationRefused
from .models import Invitation
from .rendering import notices_context


def _number(value):
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 12 else None


def _member_player(request):
    if not request.user.is_authenticated:
        return None
    player = player_for_request(request, create=False)
    return player if player is not None and player.is_member else None


def _back(request, fallback):
    target = request.headers.get("referer", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect(fallback)


@require_POST
def mark_read(request):
    """Mark one notice read (`notice`), or all of them (no `notice`)."""
    if not request.user.is_authenticated:
        return HttpResponse(_("Log in to read your notices."), status=403)
    raw = request.POST.get("notice", "")
    notice_id = _number(raw)
    if raw and notice_id is None:
        return HttpResponseBadRequest(_("Malformed request."))
    notify.mark_read(request.user.pk, notice_id)
    if request.htmx:
        return render(request, "notices/_notices.html", notices_context(request.user.pk) | {"oob": True})
    return _back(request, reverse("home"))


def _table_or_404(table_id):
    table = Table.objects.select_related("creator").filter(pk=table_id).first()
    if table is None:
        raise Http404
    return table


def _invite_panel_response(request, table, player, message, ok):
    if request.htmx:
        return render(request, "notices/_invite_panel_response.html", {
            "table": table, "player": player, "message": message, "message_class": "ok" if ok else "error"})
    (messages.success if ok else messages.error)(request, message)
    return redirect("table", table_id=table.pk)


@require_POST
def invite(request, table_id):
    table = _table_or_404(table_id)
    player = _member_player(request)
    user_id = _number(request.POST.get("user", ""))
    invitee = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    try:
        invitation, new = invitations.invite(table.pk, player, invitee)
    except InvitationRefused as refusal:
        return _invite_panel_response(request, table, player, refusal.message, ok=False)
    name = invitation.invitee.get_username()
    message = (_("%(name)s is invited. They get a notice at once.") if new
               else _("%(name)s is already invited.")) % {"name": name}
    return _invite_panel_response(request, table, player, message, ok=True)


@require_POST
def withdraw(request, table_id):
    table = _table_or_404(table_id)
    player = _member_player(request)
    invitation_id = _number(request.POST.get("invitation", ""))
    try:
        invitation = invitations.withdraw(invitation_id, player)
    except InvitationRefused as refusal:
        return _invite_panel_response(request, table, player, refusal.message, ok=False)
    message = _("The invitation to %(name)s is taken back.") % {"name": invitation.invitee.get_username()}
    return _invite_panel_response(request, table, player, message, ok=True)


@require_POST
def accept(request, invitation_id):
    """Sit down at the table of an invitation: the seat is the table's own (tables.sit)."""
    player = _member_player(request)
    invitation = Invitation.objects.filter(pk=invitation_id).first()
    try:
        if player is None:
            raise InvitationRefused("members_only", _("Log in to use an invitation."))
        if invitation is None or invitation.invitee_id != player.user_id:
            raise InvitationRefused("no_such_invitation", _("This invitation is not yours."))
        table_service.sit(invitation.table_id, player, invitation=invitation.pk)
    except (InvitationRefused, table_service.TableError) as refusal:
        if request.htmx:
            return HttpResponse(escape(refusal.message))
        messages.error(request, refusal.message)
        return _back(request, reverse("home"))
    target = reverse("table", kwargs={"table_id": invitation.table_id})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)
