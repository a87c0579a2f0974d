from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from accounts.players import player_for_request

from .forms import FORM_BY_VARIANT, JoinForm
from .models import Table, TableStatus, Variant, Visibility
from .options import STAKES
from .services import tables as table_service
from .services.lobby import open_tables_page, running_matches, visible_open_tables
from .services.spectators import watch_refusal

HOME_LIST_LENGTH = 5
# What the apps above games add to the home page (quickplay: the one-tap queue): each a function
# of the player giving template context, registered from its AppConfig.ready() (`add_to_home_page`).
_home_sections: list = []


def add_to_home_page(section_context) -> None:
    if section_context not in _home_sections:
        _home_sections.append(section_context)


def home(request):
    """The start page for a newcomer: play at once, the open tables, the matches being played,
    the lesson and the rules."""
    player = player_for_request(request, create=False)
    open_tables = list(visible_open_tables(player)[:HOME_LIST_LENGTH])
    context = {
        "tables": open_tables,
        # The lobby's list of matches being played, once (the open tables' list includes it).
        "running": running_matches(player, limit=HOME_LIST_LENGTH),
        "quick_starts": QUICK_STARTS,
    }
    for section_context in _home_sections:  # the one-tap queue (quickplay/)
        context.update(section_context(player))
    return render(request, "games/home.html", context)


# One click from the home page to a practice table: the table form's fields, filled in.
QUICK_STARTS = (
    {"key": "japanese_bot", "title": _lazy("Japanese Joker against the computer"),
     "text": _lazy("A quick match to 11 points against a bot, at once."), "button": _lazy("Play against a bot"),
     "fields": {"variant": Variant.JAPANESE, "target": 11, "stake": 0, "visibility": "open",
                "clock_seconds": 60, "fill_with_bots": "on", "allow_spectators": "on"}},
    {"key": "classic_bots", "title": _lazy("Classic Joker with bots"),
     "text": _lazy("Four players: you and three bots. Bid, take your tricks, fill the score sheet — "
                   "a short game of 12 deals."),
     "button": _lazy("Play with three bots"),
     "fields": {"variant": Variant.CLASSIC, "game_type": "short", "khishti": "200", "pulka_bonus": "premium_moshla",
                "stake": 0, "visibility": "open", "clock_seconds": 60, "fill_with_bots": "on", "allow_spectators": "on"}},
)


def _lobby_filters(request):
    variant = request.GET.get("variant") or None
    if variant not in (None, Variant.CLASSIC, Variant.JAPANESE):
        variant = None
    try:
        stake = int(request.GET["stake"])
    except (KeyError, ValueError):
        stake = None
    if stake not in (None, 0) + STAKES:
        stake = None
    return variant, stake


def _lobby_page_number(request) -> int:
    try:
        number = int(request.GET.get("page", 1))
    except ValueError:
        return 1
    return min(max(number, 1), LOBBY_LAST_PAGE)


LOBBY_LAST_PAGE = 1000  # a page number past it reads as this one (it is past the end: the first page)


def lobby_context(request, player):
    variant, stake = _lobby_filters(request)
    page = open_tables_page(player, variant=variant, stake=stake, number=_lobby_page_number(request))
    filters = {name: value for name, value in (("variant", variant), ("stake", stake)) if value is not None}
    return {
        "tables": page.tables,
        "page": page,
        "previous_page_query": urlencode({**filters, "page": page.number - 1}) if page.number > 1 else "",
        "next_page_query": urlencode({**filters, "page": page.number + 1}) if page.has_next else "",
        "running": running_matches(player, variant=variant, stake=stake),
        "filter_variant": variant or "",
        "filter_stake": "" if stake is None else stake,
        "stakes": (0,) + STAKES,
        "player": player,
    }


def lobby(request):
    player = player_for_request(request, create=False)
    context = lobby_context(request, player)
    template = "games/_table_list.html" if request.htmx else "games/lobby.html"
    return render(request, template, context)


def table_new(request):
    variant = request.GET.get("variant") or request.POST.get("variant") or Variant.JAPANESE
    if variant not in FORM_BY_VARIANT:
        raise Http404
    form_class = FORM_BY_VARIANT[variant]
    player = player_for_request(request, create=request.method == "POST")
    if request.method == "POST":
        form = form_class(request.POST, player=player)
        if form.is_valid():
            try:
                table = table_service.create_table(player, form.table_settings())
            except table_service.TableError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("table", table_id=table.pk)
    else:
        form = form_class(player=player, initial=_initial_from_query(request, form_class))
    return render(request, "games/table_new.html", {"form": form, "variant": variant, "player": player})


def _initial_from_query(request, form_class):
    """Links from the rules pages preselect options (e.g. ?game_type=nines)."""
    return {name: request.GET[name] for name in form_class.base_fields if name in request.GET}


def table_detail(request, table_id):
    table = get_object_or_404(Table.objects.select_related("creator"), pk=table_id)
    player = player_for_request(request, create=False)
    if not table_service.can_see(table, player):
        # Only friends-only tables are hidden; say so instead of a bare "not found".
        return render(request, "games/table_friends_only.html", {"table": table, "player": player}, status=403)
    if table.status in (TableStatus.PLAYING, TableStatus.FINISHED) and hasattr(table, "match"):
        from .match_views import match_page

        refusal = watch_refusal(table, player)
        if refusal is not None:
            return render(request, "games/table_watch_refused.html",
                          {"table": table, "player": player, "refusal": refusal}, status=403)
        return match_page(request, table, player)
    seats = {seat.index: seat for seat in table.seats.select_related("player")}
    invitation_link = request.GET.get("invite", "")[:64]
    context = {
        "table": table,
        "seats": [seats.get(i) for i in range(table.seat_count)],
        "player": player,
        "my_seat": next((s for s in seats.values() if player and s.player_id == player.pk), None),
        "join_form": JoinForm(initial={"invite": invitation_link}),
        "rematch_for_me": table_service.may_join_rematch(table, player),
        **_password_table_context(request, table, player, invitation_link),
    }
    return render(request, "games/table_wait.html", context)


def _password_table_context(request, table, player, invitation_link):
    """What the waiting page of a password table shows: the host sees the invitation link to
    copy; a visitor who came by it sits without the password; everyone sees a lock."""
    if table.visibility != Visibility.PASSWORD:
        return {}
    is_host = player is not None and player.pk == table.creator_id
    link = None
    if is_host:
        path = reverse("table", args=[table.pk])
        link = request.build_absolute_uri(f"{path}?invite={table_service.invitation_link_token(table)}")
    return {
        "invitation_link_url": link,
        "came_by_invitation_link": table_service.valid_invitation_link(table, invitation_link),
        "password_locked": table_service.password_locked(table),
    }


def _client_address(request):
    # Daphne's --proxy-headers puts the address the proxy saw here (docs/deploy.md).
    return request.META.get("REMOTE_ADDR", "")


def _client_key(request, player):
    return f"player:{player.pk}:{_client_address(request)}"


@require_POST
def table_sit(request, table_id):
    player = player_for_request(request, create=True)
    form = JoinForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_("Malformed request."))
    try:
        table_service.sit(
            table_id, player, password=form.cleaned_data["password"], client_key=_client_key(request, player),
            client_address=_client_address(request), invitation_link=form.cleaned_data["invite"],
        )
    except Table.DoesNotExist:
        raise Http404
    except table_service.TableError as exc:
        messages.error(request, exc.message)
        if form.cleaned_data["invite"]:  # back to the page the link opened, to try again
            return redirect(f"{reverse('table', args=[table_id])}?{urlencode({'invite': form.cleaned_data['invite']})}")
    return redirect("table", table_id=table_id)


@require_POST
def table_stand(request, table_id):
    player = player_for_request(request, create=False)
    if player is None:
        messages.error(request, _("You are not sitting at this table."))
        return redirect("table", table_id=table_id)
    try:
        table_service.stand(table_id, player)
    except Table.DoesNotExist:
        raise Http404
    except table_service.TableError as exc:
        messages.error(request, exc.message)
        return redirect("table", table_id=table_id)
    return redirect(reverse("lobby"))


@require_POST
def table_rematch(request, table_id):
    """Ask for (or join) the rematch of a finished match, then go to the rematch table.

    The button is on the live match fragment, sent by htmx with the page's CSRF header;
    htmx follows the HX-Redirect, a plain form post the ordinary redirect."""
    player = player_for_request(request, create=False)
    try:
        rematch = table_service.offer_rematch(table_id, player)
        target = reverse("table", kwargs={"table_id": rematch.pk})
    except Table.DoesNotExist:
        raise Http404
    except table_service.TableError as exc:
        messages.error(request, exc.message)
        target = reverse("table", kwargs={"table_id": table_id})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)
