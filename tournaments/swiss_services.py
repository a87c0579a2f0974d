"""The Swiss (docs/tournaments.md "The Swiss"): its rounds, its matches' ends and its tie-breaks.

A Swiss moves by one step, `advance(tournament_id)`, under the tournament row's lock: the
tie-breaks are written again, and when every match of the round is over the next round is
paired (or, after the last round, the Swiss is finished and its fees settled). It runs
after the commit of every Swiss match's end and on the beat's tick (every
TOURNAMENT_TICK_SECONDS), so a web process killed between a match's end and its step
delays the next round by one tick at most; a doubled step finds the round paired already.

Joining, leaving, coming back, cancelling and the fees are the arena's (services.py): a
Swiss differs in when joining closes (`swiss.late_join_open`) and in how it is paired and
scored (swiss.py).
"""

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Seat, TableStatus

from . import services, swiss
from .models import ArenaGame, Bye, Kind, Participant, ParticipantStatus, Result, Status, Tournament

# --- The rounds ------------------------------------------------------------------------------

def tick(now: datetime | None = None) -> None:
    """Start the Swiss tournaments whose hour came and step the running ones (beat's tick)."""
    now = now or timezone.now()
    swiss_tournaments = Tournament.objects.filter(kind=Kind.SWISS)
    for tournament_id in swiss_tournaments.filter(status=Status.UPCOMING, starts_at__lte=now).values_list(
            "pk", flat=True):
        if Tournament.objects.filter(pk=tournament_id, status=Status.UPCOMING).update(status=Status.RUNNING):
            services.announce_changed(tournament_id)
    for tournament_id in swiss_tournaments.filter(status=Status.RUNNING).values_list("pk", flat=True):
        advance(tournament_id, now)


def advance(tournament_id: int, now: datetime | None = None) -> None:
    """The Swiss's one step: the tie-breaks written again; when no match of the round is being
    played, the next round paired, or the Swiss finished (its last round played, or no table
    can be made: fewer players there than a table, or nobody new to meet in Japanese)."""
    now = now or timezone.now()
    finished = False
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or not tournament.is_swiss or tournament.status != Status.RUNNING:
            return
        if ArenaGame.objects.filter(tournament=tournament, finished_at__isnull=True).exists():
            if _write_tie_breaks(tournament):  # the round waits for its last match
                services.announce_changed_on_commit(tournament.pk)
            return
        if tournament.current_round >= tournament.rounds or not _pair_next_round(tournament, now):
            Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
            finished = True
        _write_tie_breaks(tournament)  # after the byes: a bye's points count in its player's opponents' tie-breaks
        services.announce_changed_on_commit(tournament.pk)
    if finished:
        services.settle(tournament_id)  # the beat's tick settles it too, should this process die here


def _pair_next_round(tournament: Tournament, now: datetime) -> bool:
    """Seat the next round (True), or change nothing when no table can be made (False).

    Who is there plays: active, seen within TOURNAMENT_ABSENT_SECONDS, at no other table of
    the site. Everyone else in play sits the round out with 0 points and is paused until
    they come back to the tournament's page."""
    number = tournament.current_round + 1
    in_play = list(Participant.objects.filter(tournament=tournament, status__in=services.IN_PLAY)
                   .select_related("player"))
    busy = set(Seat.objects.filter(player_id__in=[p.player_id for p in in_play], left_at__isnull=True,
                                   table__status__in=(TableStatus.OPEN, TableStatus.PLAYING))
               .values_list("player_id", flat=True))
    present = [p for p in in_play if p.status == ParticipantStatus.ACTIVE
               and p.seen_at >= now - services.absent_after() and p.player_id not in busy]
    plan = swiss.pair(tournament.variant, _entrants(tournament, present))
    if plan is None:
        return False
    by_key = {p.pk: p for p in present}
    sitting_out, refused = [by_key[key] for key in plan.byes], set()
    for keys in plan.tables:
        people = [by_key[key] for key in keys]
        game = services.seat_at_a_table(tournament, people, bots=False)  # the arena's seating, the same table settings
        if game is None:  # a seat was refused (that player is paused): the others sit out with a bye
            refused |= set(Participant.objects.filter(pk__in=keys, status=ParticipantStatus.PAUSED)
                           .values_list("pk", flat=True))
            sitting_out += [p for p in people if p.pk not in refused]
            continue
        ArenaGame.objects.filter(pk=game.pk).update(round=number)
    for participant in sitting_out:
        _bye(participant, number, swiss.bye_points(tournament.variant), absent=False)
    absent = [p for p in in_play if p.pk not in by_key or p.pk in refused]
    for participant in absent:
        _bye(participant, number, 0, absent=True)
    Participant.objects.filter(pk__in=[p.pk for p in absent], status=ParticipantStatus.ACTIVE).update(
        status=ParticipantStatus.PAUSED)
    Tournament.objects.filter(pk=tournament.pk).update(current_round=number)
    return True


def _bye(participant: Participant, number: int, points: int, absent: bool) -> None:
    _, made = Bye.objects.get_or_create(participant=participant, round=number,
                                        defaults={"points": points, "absent": absent})
    if made and points:
        Participant.objects.filter(pk=participant.pk).update(score=F("score") + points)


def _entrants(tournament: Tournament, present: list[Participant]) -> list[swiss.Entrant]:
    """What the pairing reads of each present player: score, rating, whom they met, a bye before."""
    keys = [p.pk for p in present]
    met: dict[int, set] = {key: set() for key in keys}
    for people in _tables(tournament).values():
        for key in people & met.keys():
            met[key] |= people - {key}
    had_bye = set(Bye.objects.filter(participant__in=keys, absent=False).values_list("participant_id", flat=True))
    return [swiss.Entrant(key=p.pk, score=p.score, rating=p.rating, met=frozenset(met[p.pk]),
                          had_bye=p.pk in had_bye) for p in present]


def _tables(tournament: Tournament) -> dict[int, set]:
    """{game id: the participants' keys} of every match the Swiss seated."""
    tables: dict[int, set] = {}
    for game_id, key in (ArenaGame.players.through.objects.filter(arenagame__tournament=tournament)
                         .values_list("arenagame_id", "participant_id")):
        tables.setdefault(game_id, set()).add(key)
    return tables


def _write_tie_breaks(tournament: Tournament) -> bool:
    """Each player's tie-breaks from the scores now and the counted matches (rows whose values
    changed are written; True when any did)."""
    everyone = list(Participant.objects.filter(tournament=tournament).order_by("pk"))
    places: dict[int, dict] = {}
    for game_id, key, place in (Result.objects.filter(game__tournament=tournament, game__counted=True)
                                .values_list("game_id", "participant_id", "place")):
        places.setdefault(game_id, {})[key] = place
    scores = {p.pk: p.score for p in everyone}
    breaks = swiss.tie_breaks(tournament.variant, scores, [swiss.Meeting(places=p) for p in places.values()])
    changed = []
    for participant in everyone:
        first, second = (round(float(value), 2) for value in breaks[participant.pk])
        if (participant.tie_break, participant.second_tie_break) != (first, second):
            participant.tie_break, participant.second_tie_break = first, second
            changed.append(participant)
    if changed:
        Participant.objects.bulk_update(changed, ["tie_break", "second_tie_break"])
    return bool(changed)


# --- A match ended ---------------------------------------------------------------------------

def match_finished(table_id: int, reason: str, match, state) -> ArenaGame | None:
    """Score a Swiss match, once, in its finishing transaction (None: not a Swiss match, or
    scored already); the Swiss steps on once that commits. An aborted match counts for
    nobody, and nothing counts once the Swiss was cancelled."""
    game = (ArenaGame.objects.select_for_update().filter(table_id=table_id, finished_at__isnull=True,
                                                         tournament__kind=Kind.SWISS).first())
    if game is None:
        return None
    # The tournament's row before its players' rows, as `advance` takes them: no deadlock.
    tournament = Tournament.objects.select_for_update().get(pk=game.tournament_id)
    now = timezone.now()
    game.finished_at = now
    game.counted = reason != "abort" and tournament.status == Status.RUNNING
    game.save(update_fields=["finished_at", "counted"])
    people = {p.player_id: p for p in Participant.objects.select_for_update().filter(pk__in=game.players.all())}
    seats = list(Seat.objects.filter(table_id=table_id))
    outcomes = services.people_outcomes(tournament.variant, people, seats, match, state) if game.counted else None
    for player_id, (place, left) in (outcomes or {}).items():
        participant = people[player_id]
        gained = swiss.points(tournament.variant, place, left)
        Result.objects.create(game=game, participant=participant, place=place, points=gained, left=left)
        participant.score += gained
        participant.played += 1
        participant.wins += int(place == 1 and not left)
    connected = {seat.player_id for seat in seats if seat.connections > 0}
    for participant in people.values():
        participant.game = None
        if participant.player_id in connected:
            participant.seen_at = now
        participant.save(update_fields=["game", "seen_at", "score", "played", "wins"])
    services.announce_changed_on_commit(tournament.pk)
    transaction.on_commit(lambda: advance(tournament.pk))
    return game


# --- What the pages read ---------------------------------------------------------------------

def rounds_of(tournament: Tournament) -> list[dict]:
    """Every round paired so far, newest first: its matches (players best first, their points
    once counted, the table to watch or replay) and who sat out."""
    games = (ArenaGame.objects.filter(tournament=tournament).exclude(round=0)
             .prefetch_related("players__player__user", "results").order_by("round", "pk"))
    rounds = {number: {"number": number, "games": [], "byes": []}
              for number in range(1, tournament.current_round + 1)}
    for game in games:
        points = {r.participant_id: r.points for r in game.results.all()}
        players = sorted(game.players.all(), key=lambda p: (-points.get(p.pk, 0), p.pk))
        rounds.setdefault(game.round, {"number": game.round, "games": [], "byes": []})["games"].append({
            "table": game.table_id, "finished": game.finished_at is not None, "counted": game.counted,
            "players": [(p, points.get(p.pk)) for p in players], "participants": {p.pk for p in players}})
    for bye in Bye.objects.filter(participant__tournament=tournament).select_related("participant__player__user"):
        rounds.setdefault(bye.round, {"number": bye.round, "games": [], "byes": []})["byes"].append(bye)
    return [rounds[number] for number in sorted(rounds, reverse=True)]
