"""Records, replays and deal checks of matches, and a player's match history.

Who may open what (docs/fairness.md, "Who sees records"):
- A match's record (`record.json`) and its replay hold every card dealt, so
  they exist only once the match is over (finished or aborted). While it runs
  they are refused to everyone, its players and staff included: there is no
  staff route around it.
- The deal checks (`fairness.json` and the fairness page) are public during
  the match too, but reveal a deal's salt and cards only once that deal is
  over, when every one of its cards has been played face up.
- A table's visibility still applies: a friends-only table's records are for
  the host, the host's friends and the people who sat at it.

Every view here only reads: none accepts a deal or changes a match.
"""

import dataclasses
import json
from functools import cache
from pathlib import Path

from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.friends import friend_ids
from accounts.models import Player
from accounts.players import player_for_request

from . import fairness
from .models import Match, MatchStatus, Seat, Table, Visibility
from .replay import deal_starts, position_at, step_places
from .services.results import EVERYONE_LEFT, how_left
from .services.score_sheet import score_sheet
from .services.tables import can_see
from .templatetags.cards import seat_name

MATCHES_PER_PAGE = 25
CHECK_SCRIPT = Path(__file__).with_name("check_deals.py")


@cache
def check_script() -> str:
    """The stand-alone checking script the fairness page shows (docs/fairness.md has the same)."""
    return CHECK_SCRIPT.read_text(encoding="utf-8")


# --- Who may see a match ----------------------------------------------------------------

def sat_at(table: Table, player) -> bool:
    return player is not None and table.seats.filter(player=player).exists()


def may_see_table(table: Table, player) -> bool:
    """Anyone may see open and password tables; friends-only ones are for the host's friends and their players."""
    return can_see(table, player) or sat_at(table, player)


def _match_for(request, table_id):
    table = get_object_or_404(Table.objects.select_related("creator__user"), pk=table_id)
    if not may_see_table(table, player_for_request(request, create=False)):
        raise Http404
    match = Match.objects.filter(table=table).first()
    if match is None:
        raise Http404
    return table, match


def _is_over(match: Match) -> bool:
    return match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)


def _running_message():
    return _("The record and the replay of a match open once the match is over: "
             "while it is played they hold every player's hidden cards.")


def _refused_page(request, table, message, status):
    return render(request, "games/replay_refused.html", {"table": table, "message": message}, status=status)


def _json_download(document, filename) -> HttpResponse:
    response = HttpResponse(json.dumps(document, ensure_ascii=False, indent=2) + "\n",
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-cache"
    return response


# --- Downloads --------------------------------------------------------------------------

@require_safe
def record_download(request, table_id):
    """The stored joker-record/1 document, exactly, once the match is over."""
    table, match = _match_for(request, table_id)
    if not _is_over(match):
        return JsonResponse({"error": "match_running", "message": _running_message()}, status=403)
    return _json_download(match.record, f"joker-table-{table.pk}-record.json")


@require_safe
def fairness_download(request, table_id):
    """`{deal index: {commitment, salt, canonical_deal}}`; salt and deal only for deals that are over."""
    table, match = _match_for(request, table_id)
    return _json_download(fairness.fairness_document(match), f"joker-table-{table.pk}-fairness.json")


@require_safe
def fairness_page(request, table_id):
    table, match = _match_for(request, table_id)
    checks = fairness.match_checks(match)
    revealed = [c for c in checks if c.status != fairness.NOT_REVEALED]
    return render(request, "games/replay_fairness.html", {
        "table": table,
        "match": match,
        "checks": checks,
        "is_over": _is_over(match),
        "revealed_count": len(revealed),
        "all_verified": fairness.all_verified(revealed),
        "check_script": check_script(),
    })


# --- The replay -------------------------------------------------------------------------

class BadStep(ValueError):
    pass


def _requested_step(request, record) -> int:
    """`?step=N` (0 = the first deal dealt) or `?deal=K` (K from 1: the step where deal K is dealt)."""
    total = len(step_places(record))
    if "deal" in request.GET:
        starts = deal_starts(record)
        try:
            number = int(request.GET["deal"])
        except ValueError:
            raise BadStep(_("The deal must be a number from 1 to %(last)s.") % {"last": len(starts)}) from None
        if not 1 <= number <= len(starts):
            raise BadStep(_("The deal must be a number from 1 to %(last)s.") % {"last": len(starts)})
        return starts[number - 1]
    raw = request.GET.get("step", "0")
    try:
        step = int(raw)
    except ValueError:
        raise BadStep(_("The step must be a number from 0 to %(last)s.") % {"last": total - 1}) from None
    if not 0 <= step < total:
        raise BadStep(_("The step must be a number from 0 to %(last)s.") % {"last": total - 1})
    return step


def _navigation(record, step: int, total: int) -> dict:
    starts = deal_starts(record)
    current_deal = max(i for i, s in enumerate(starts) if s <= step)
    this_start = starts[current_deal]
    previous_deal = this_start if step > this_start else (starts[current_deal - 1] if current_deal else None)
    return {
        "first": 0 if step > 0 else None,
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step + 1 < total else None,
        "last": total - 1 if step + 1 < total else None,
        "previous_deal": previous_deal,
        "next_deal": starts[current_deal + 1] if current_deal + 1 < len(starts) else None,
        "deals": [{"number": i + 1, "step": s, "current": i == current_deal} for i, s in enumerate(starts)],
    }


def replay_names(table, record) -> list[str]:
    """The seats' names in a replay: the record's, but a practice bot is "Bot 2", "Bot 3"…
    in the page's language, numbered by its seat as at the live table (the record says "Bot")."""
    bots = {seat.index for seat in table.seats.all() if seat.is_bot and seat.player_id is None}
    return [seat_name({"index": i, "name": None if i in bots else name}) for i, name in enumerate(record["players"])]


def replay_context(table, match, step: int) -> dict:
    record = match.record
    names = replay_names(table, record)
    position = position_at(record, step, names)
    if position.finished:
        # The record alone does not say who left a classic match: who won is the match's own
        # decision (games/services/results.py), stored when it ended.
        position = dataclasses.replace(position, winners=list(match.winners or []))
    entries = fairness.fairness_document(match)
    deal_check = fairness.check_deal(position.deal_index, record["deals"][position.deal_index],
                                     entries.get(str(position.deal_index)))
    return {
        "table": table,
        "match": match,
        "p": position,
        "everyone_left": match.end_reason == EVERYONE_LEFT,  # why an aborted match stopped
        "nav": _navigation(record, step, position.step_count),
        "deal_check": deal_check,
        # What the shared score sheet template reads: the sheet up to this step, no deal in play.
        "sheet": score_sheet({"variant": position.variant, "score_sheet": position.score_sheet,
                              "target": position.target, "finished": True}, names, live=False),
    }


@require_safe
def replay_page(request, table_id):
    table, match = _match_for(request, table_id)
    if not _is_over(match):
        return _refused_page(request, table, _running_message(), status=403)
    if not match.record.get("deals"):
        return _refused_page(request, table, _("This match has no deal to show."), status=404)
    try:
        step = _requested_step(request, match.record)
    except BadStep as exc:
        return _refused_page(request, table, str(exc), status=400)
    context = replay_context(table, match, step)
    template = "games/_replay_board.html" if request.htmx else "games/replay.html"
    return render(request, template, context)


# --- Match history ----------------------------------------------------------------------

def visible_to(viewer) -> Q:
    """Tables `viewer` may see (the same rule as `may_see_table`, as a query)."""
    if viewer is None:
        return ~Q(visibility=Visibility.FRIENDS)
    rule = ~Q(visibility=Visibility.FRIENDS) | Q(creator=viewer)
    rule |= Exists(Seat.objects.filter(table=OuterRef("pk"), player=viewer))
    friends = friend_ids(viewer)
    if friends:
        rule |= Q(creator__user_id__in=sorted(friends))
    return rule


def match_history(player: Player, viewer: Player | None):
    """The matches `player` sat at that `viewer` may see, newest first, with `my_seat` and `my_left` annotated."""
    seats = Seat.objects.filter(table=OuterRef("table"), player=player)
    visible_tables = Table.objects.filter(visible_to(viewer))
    return (
        Match.objects.filter(Exists(seats), table__in=visible_tables)
        .select_related("table")
        .defer("document", "deal_commitments")
        .annotate(my_seat=seats.values("index")[:1], my_left=seats.values("left_at")[:1])
        .prefetch_related("table__seats__player")
        .order_by("-created_at", "-pk")
    )


def history_rows(matches) -> list[dict]:
    rows = []
    for match in matches:
        seats = sorted(match.table.seats.all(), key=lambda s: s.index)
        if match.status == MatchStatus.RUNNING:
            result = "playing"
        elif match.status == MatchStatus.ABORTED:
            result = "aborted"
        elif match.my_left is not None:  # resigned or walked out: said as such (results.how_left)
            result = how_left(next(s for s in seats if s.index == match.my_seat))
        else:
            result = "won" if match.my_seat in (match.winners or []) else "lost"
        rows.append({
            "match": match,
            "table": match.table,
            "opponents": [s for s in seats if s.index != match.my_seat],
            "result": result,
            "is_over": result != "playing",
            "when": match.finished_at or match.created_at,
        })
    return rows


def _history_page(request, player: Player, viewer, own: bool):
    paginator = Paginator(match_history(player, viewer), MATCHES_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "games/replay_history.html", {
        "history_player": player,
        "own": own,
        "page": page,
        "rows": history_rows(page.object_list),
    })


@require_safe
def my_matches(request):
    player = player_for_request(request, create=False)
    if player is None:
        return render(request, "games/replay_history.html", {"own": True, "rows": [], "page": None})
    return _history_page(request, player, player, own=True)


@require_safe
def player_matches(request, username):
    player = get_object_or_404(Player.objects.select_related("user"), user__username=username,
                               user__is_active=True)
    viewer = player_for_request(request, create=False)
    return _history_page(request, player, viewer, own=viewer is not None and viewer.pk == player.pk)

