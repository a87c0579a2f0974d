"""The home page's quick play section: join and leave the queue (htmx, or plain form posts)."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from accounts.players import player_for_request

from . import services
from .models import EntryStatus


def section_context(player, *, error="", notice="", stake=0, bots=False) -> dict:
    """What quickplay/_section.html shows this player now: the buttons, their wait, or their game."""
    now = timezone.now()
    entry = services.waiting_entry(player) if player is not None else None
    paired = services.recently_paired(player) if player is not None and entry is None else None
    context = {
        "quickplay_entry": entry,
        "quickplay_paired_url": reverse("table", kwargs={"table_id": paired.table_id}) if paired else "",
        "quickplay_error": error,
        "quickplay_notice": notice,
        "quickplay_stakes": services.QUICK_STAKES,
        "quickplay_stake": stake if stake in services.QUICK_STAKES else 0,  # a refused tap keeps its choice
        "quickplay_bots": bots,
        "quickplay_member": player is not None and not player.is_guest,
        "quickplay_bots_after": settings.QUICKPLAY_BOTS_AFTER_SECONDS,
    }
    if entry is not None:
        spread = services.rating_range(entry, now)
        context.update(
            quickplay_waited=services.waited_seconds(entry, now),
            quickplay_waited_text=clock_text(services.waited_seconds(entry, now)),
            quickplay_looking=services.looking_count(services.Queue.of(entry)),
            quickplay_range=(entry.rating - spread, entry.rating + spread),
            quickplay_range_start=settings.QUICKPLAY_RANGE_START,
            quickplay_range_per_second=settings.QUICKPLAY_RANGE_PER_SECOND,
        )
        bots_in = max(0, settings.QUICKPLAY_BOTS_AFTER_SECONDS - services.waited_seconds(entry, now))
        context["quickplay_bots_in"] = format_html('<span data-quickplay-countdown="{}" translate="no">{}</span>',
                                                   bots_in, clock_text(bots_in))
    return context


def clock_text(seconds: int) -> str:
    """Minutes and seconds as a clock shows them (0:07, 12:30): the same in every language."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def _answer(request, player, *, error="", go_to=None, **chosen):
    """The section again (htmx), or a redirect (a plain post) with the refusal as a message."""
    if go_to:
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = go_to
            return response
        return redirect(go_to)
    if request.htmx:
        return render(request, "quickplay/_section.html", section_context(player, error=error, **chosen))
    if error:
        messages.error(request, error)
    return redirect(reverse("home") + "#quickplay")


def _table_url(table_id) -> str:
    return reverse("table", kwargs={"table_id": table_id})


@require_POST
def join(request):
    """One tap: "Play Japanese" or "Play classic" (the button's `variant`), with the chosen stake."""
    player = player_for_request(request, create=True)
    variant = request.POST.get("variant", "")
    try:
        stake = int(request.POST.get("stake") or 0)
    except ValueError:
        stake = -1  # refused by may_queue, with the stakes offered
    bots = variant == "classic" and request.POST.get("bots") in ("on", "1", "true")
    try:
        entry = services.join(player, variant, stake, bots)
    except services.QuickPlayError as refusal:
        return _answer(request, player, error=refusal.message, stake=stake, bots=bots)
    if entry.status == EntryStatus.PAIRED:
        return _answer(request, player, go_to=_table_url(entry.table_id))
    return _answer(request, player)


@require_POST
def leave(request):
    player = player_for_request(request, create=False)
    if player is None:
        return _answer(request, player, error=services.not_waiting_sentence())
    try:
        services.leave(player)
    except services.QuickPlayError as refusal:
        if refusal.code == "already_paired":
            return _answer(request, player, go_to=_table_url(refusal.params["table"]))
        return _answer(request, player, error=refusal.message)
    return _answer(request, player)
