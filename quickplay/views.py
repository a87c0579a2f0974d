"""The home page's quick play section: join and leave the queue (htmx, or plain form posts)."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.players import player_for_request
from games.models import BotLevel

from . import services
from .models import EntryStatus


def section_context(player, *, error="", notice="", stake=0, people_only=False) -> dict:
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
        "quickplay_people_only": people_only,
        "quickplay_member": player is not None and not player.is_guest,
        "quickplay_bot_offer": settings.QUICKPLAY_BOT_OFFER_SECONDS,
        "quickplay_bot_levels": BotLevel.choices,  # the offer's choice of the bots' level (club first checked)
        "quickplay_bot_level": BotLevel.CLUB,
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
        waited = services.waited_seconds(entry, now)
        offer_in = max(0, settings.QUICKPLAY_BOT_OFFER_SECONDS - waited)
        bots_in = max(0, settings.QUICKPLAY_BOTS_AFTER_SECONDS - waited)
        context.update(quickplay_offer_in=offer_in, quickplay_offer_in_text=_countdown(offer_in),
                       quickplay_bots_in=_countdown(bots_in))
    return context


def _countdown(seconds: int) -> str:
    """A time left that quickplay.js counts down between the server's renderings."""
    return format_html('<span data-quickplay-countdown="{}" translate="no">{}</span>', seconds, clock_text(seconds))


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
    people_only = request.POST.get("people_only") in ("on", "1", "true")
    try:
        entry = services.join(player, variant, stake, bots=not people_only)
    except services.QuickPlayError as refusal:
        return _answer(request, player, error=refusal.message, stake=stake, people_only=people_only)
    if entry.status == EntryStatus.PAIRED:
        return _answer(request, player, go_to=_table_url(entry.table_id))
    return _answer(request, player)


@require_POST
def bots(request):
    """The offer of a game with bots: `choice` "now" takes it at once, "people" declines it (the
    player waits for people only, and no bots come by themselves)."""
    player = player_for_request(request, create=False)
    choice = request.POST.get("choice", "")
    if player is None:
        return _answer(request, player, error=services.not_waiting_sentence())
    try:
        if choice == "now":
            entry = services.bots_now(player, request.POST.get("bot_level"))
        elif choice == "people":
            services.people_only(player)
            return _answer(request, player)
        else:
            raise services.QuickPlayError("bad_message", _("Choose to play with bots now or to wait for people."))
    except services.QuickPlayError as refusal:
        if refusal.code == "already_paired":
            return _answer(request, player, go_to=_table_url(refusal.params["table"]))
        return _answer(request, player, error=refusal.message)
    if entry.status == EntryStatus.PAIRED:
        return _answer(request, player, go_to=_table_url(entry.table_id))
    return _answer(request, player, error=services.dropped_sentence(entry.reason))


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
