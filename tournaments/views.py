"""The tournament pages: the list, one tournament (live while it runs, its final page once over),
joining and leaving (plain form posts), and "where is my match" for the live pages."""

from django.contrib import messages
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.players import player_for_request

from . import prizes, services
from .models import ComingPledge, Participant, ParticipantStatus, Result, Status, Tournament
from .swiss_views import swiss_context

STANDINGS_SHOWN = 20
HOME_SHOWN = 3


def tournament_list(request):
    now = timezone.now()
    everything = Tournament.objects.exclude(status=Status.CANCELLED)
    player = player_for_request(request, create=False)
    upcoming = list(everything.filter(status=Status.UPCOMING).order_by("starts_at")
                    .annotate(coming_count=Count("pledges"))[:20])
    mine = _pledged(player, upcoming)
    for tournament in upcoming:
        tournament.i_will_come = tournament.pk in mine
    context = {
        "running": list(everything.filter(status=Status.RUNNING)),
        "upcoming": upcoming,
        "finished": list(everything.filter(status=Status.FINISHED).order_by("-starts_at")[:20]),
        "now": now,
        "member": player is not None and not player.is_guest,
    }
    return render(request, "tournaments/list.html", context)


def _pledged(player, tournaments) -> set[int]:
    """Which of these tournaments the player said "I'll come" to."""
    if player is None or player.is_guest:
        return set()
    return set(ComingPledge.objects.filter(player=player, tournament__in=[t.pk for t in tournaments])
               .values_list("tournament_id", flat=True))


def home_section_context(player) -> dict:
    """The home page's tournaments (games.views.add_to_home_page): what runs now and what comes next."""
    return {"home_tournaments": list(Tournament.objects.filter(status__in=(Status.RUNNING, Status.UPCOMING))
                                     .order_by("starts_at")[:HOME_SHOWN])}


def live_context(tournament: Tournament, player) -> dict:
    """What the tournament page's live part shows this player now."""
    table = services.standings(tournament)
    mine = next((p for p in table if player is not None and p.player_id == player.pk), None)
    berserk = services.berserk_now(tournament)
    for p in table:
        p.berserk_now = p.player_id in berserk
    playing = {}
    for p in table:
        if p.game is not None and p.game.finished_at is None:
            playing.setdefault(p.game_id, {"table": p.game.table_id, "players": []})["players"].append(p)
    return {
        "tournament": tournament,
        "standings": table[:STANDINGS_SHOWN],
        "mine": mine,
        "mine_below": mine is not None and mine.place > STANDINGS_SHOWN,
        "playing_now": list(playing.values()),
        "joined": mine is not None and mine.status == ParticipantStatus.ACTIVE,
        "paused": mine is not None and mine.status == ParticipantStatus.PAUSED,
        "removed": mine is not None and mine.status == ParticipantStatus.REMOVED,
    }


def final_context(tournament: Tournament) -> dict:
    table = services.standings(tournament)
    results = {}
    for result in (Result.objects.filter(game__tournament=tournament).select_related("game")
                   .order_by("game__finished_at", "pk")):
        results.setdefault(result.participant_id, []).append(result)
    for participant in table:
        participant.match_results = results.get(participant.pk, [])
    return {"tournament": tournament, "podium": table[:3], "everyone": table}


def prize_context(tournament: Tournament) -> dict:
    """The prize split shown before joining, and the fees held now."""
    return {"three": prizes.split_for(3), "two": prizes.split_for(2),
            "pool_now": tournament.entry_fee * Participant.objects.filter(tournament=tournament).count()}


def detail(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    player = player_for_request(request, create=False)
    if tournament.is_swiss:  # one page for every stage of a Swiss: its rounds stay readable once over
        context = swiss_context(tournament, player) | _around_play(tournament, player)
        return render(request, "tournaments/swiss.html", context)
    if tournament.status == Status.FINISHED:
        return render(request, "tournaments/final.html", final_context(tournament))
    context = live_context(tournament, player) | _around_play(tournament, player)
    return render(request, "tournaments/detail.html", context)


def _around_play(tournament: Tournament, player) -> dict:
    """What a running or upcoming tournament's page of either kind shows around the play: who
    may join, the prize split, the tournament chat, "I'll come"."""
    tournament.coming_count = tournament.pledges.count()
    tournament.i_will_come = bool(_pledged(player, [tournament]))
    return {
        "member": player is not None and not player.is_guest,
        "prizes": prize_context(tournament),
        "chat_place": f"tournament:{tournament.pk}",  # the tournament chat (chat/, docs/chat.md)
    }


def live(request, tournament_id):
    """The live part alone (the page's socket asks for it when the standings changed)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.status == Status.FINISHED and request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("tournaments:detail", kwargs={"tournament_id": tournament.pk})
        return response
    player = player_for_request(request, create=False)
    if tournament.is_swiss:
        return render(request, "tournaments/_swiss_live.html", swiss_context(tournament, player))
    return render(request, "tournaments/_live.html", live_context(tournament, player))


def go(request, tournament_id):
    """Where the player's arena match is: the live pages ask when the pairing seated them."""
    player = player_for_request(request, create=False)
    table_id = (Participant.objects.filter(tournament_id=tournament_id, player=player, game__finished_at__isnull=True)
                .values_list("game__table_id", flat=True).first()) if player is not None else None
    response = HttpResponse(status=204)
    if table_id is not None:
        response["HX-Redirect"] = reverse("table", kwargs={"table_id": table_id})
    return response


@require_POST
def join(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    player = player_for_request(request, create=False)
    try:
        participant = services.join(player, tournament)
    except services.TournamentError as refusal:
        messages.error(request, refusal.message)
        return redirect("tournaments:detail", tournament_id=tournament.pk)
    participant.refresh_from_db()
    if participant.game_id is not None:
        return redirect("table", table_id=participant.game.table_id)
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@require_POST
def coming(request, tournament_id):
    """"I'll come" (`coming` "yes") or taking it back ("no"); back to the page it was said on."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    player = player_for_request(request, create=False)
    try:
        if request.POST.get("coming") == "no":
            services.will_not_come(player, tournament)
        else:
            services.will_come(player, tournament)
    except services.TournamentError as refusal:
        messages.error(request, refusal.message)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("tournaments:detail", kwargs={"tournament_id": tournament.pk})
    return redirect(back)


@require_POST
def leave(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.leave(player_for_request(request, create=False), tournament)
    except services.TournamentError as refusal:
        messages.error(request, refusal.message)
    return redirect("tournaments:detail", tournament_id=tournament.pk)
