"""The arena (docs/tournaments.md): joining, leaving, the pairing and the scoring of a match.

Every pairing of a tournament locks its row first (`select_for_update`), so two pairings
of one arena (a match that ended in a web process, the beat's periodic run, a doubled
task) run one after the other, and the second finds the first one's players seated.
The players' matches are made by `games.services.tables.seat_together`, as quick play
makes them; their end comes back through `games.events.match_finished` (receivers.py),
which scores the match once (the `ArenaGame` row is locked and marked in the match's own
finishing transaction) and pairs its players again once that commits.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import access
from accounts.announcements import Announcement, announce
from coins import memos
from coins import services as coins
from games.models import SEATS_BY_VARIANT, Seat, TableStatus, Variant
from games.services import tables as table_service
from games.services.results import standings as match_standings
from games.services.tables import TableError, TableSettings
from joker_site.events import group_send, group_send_on_commit
from joker_site.refusals import Refusal
from push import notify as push
from ratings.services import shown_ratings

from . import pairing, prizes, scoring, swiss
from .models import ArenaGame, ComingPledge, Kind, Participant, ParticipantStatus, Result, Status, Tournament

IN_PLAY = (ParticipantStatus.ACTIVE, ParticipantStatus.PAUSED)
STANDINGS_ORDER = ("-score", "-wins", "played", "joined_at", "pk")  # docs/tournaments.md "Standings"
SWISS_STANDINGS_ORDER = ("-score", "-tie_break", "-second_tie_break", "-rating", "joined_at", "pk")  # "The Swiss"


class TournamentError(Refusal):
    """A refused tournament request (joining, leaving); nothing changed."""


def tournament_group(tournament_id: int) -> str:
    """Every page that shows the tournament: "the standings changed"."""
    return f"tournament-{tournament_id}"


def player_group(player_id: int) -> str:
    """One player's arena pages and arena tables: "you were seated"."""
    return f"arena-player-{player_id}"


def absent_after() -> timedelta:
    return timedelta(seconds=settings.TOURNAMENT_ABSENT_SECONDS)


# --- Joining and leaving ---------------------------------------------------------------------

def may_join(player, tournament: Tournament) -> None:
    if player is None or player.is_guest:
        raise TournamentError("members_only", _("Log in or sign up to play in tournaments."))
    if tournament.status not in (Status.UPCOMING, Status.RUNNING) or (
            not tournament.is_swiss and timezone.now() >= tournament.ends_at):
        raise TournamentError("closed", _("This tournament is over."))
    if tournament.is_swiss and tournament.status == Status.RUNNING and not swiss.late_join_open(
            tournament.current_round, tournament.rounds):
        raise TournamentError("too_late", _("It is too late to join: half of the rounds have been played."))
    refusal = access.rated_play_refusal(player) if tournament.rated else access.play_refusal(player)
    if refusal is not None:
        raise TournamentError(refusal.code, refusal.message, refusal.params)


def join(player, tournament: Tournament) -> Participant:
    """Enter the arena, or come back to it (after leaving or a pause): the player is paired
    at once when the arena runs. A removed player stays out."""
    may_join(player, tournament)
    now = timezone.now()
    try:
        with transaction.atomic():
            participant, made = Participant.objects.select_for_update().get_or_create(
                tournament=tournament, player=player,
                defaults={"rating": _rating(player, tournament.variant), "seen_at": now, "waiting_since": now})
            if made and tournament.entry_fee:
                _hold_entry_fee(player, tournament)
            if not made:
                if participant.status == ParticipantStatus.REMOVED:
                    raise TournamentError("removed", _("The site staff removed you from this tournament."))
                if participant.status == ParticipantStatus.ACTIVE:
                    raise TournamentError("already_joined", _("You are already playing in this tournament."))
                participant.status, participant.seen_at, participant.waiting_since = (
                    ParticipantStatus.ACTIVE, now, now)
                participant.save(update_fields=["status", "seen_at", "waiting_since"])
            announce_changed_on_commit(tournament.pk)
    except IntegrityError:  # a second request of the same player won the race
        raise TournamentError("already_joined", _("You are already playing in this tournament.")) from None
    if tournament.status == Status.RUNNING:
        pair_arena(tournament.pk)
    return participant


def _hold_entry_fee(player, tournament) -> None:
    """The fee goes from the wallet to the tournament's escrow, once (inside the joining
    transaction: no participant without the fee, no fee without the participant)."""
    try:
        coins.stake(player.user, tournament.escrow_key, tournament.entry_fee, memo=memos.TOURNAMENT_ENTRY)
    except coins.LedgerError as refusal:
        raise TournamentError(refusal.code, refusal.message, refusal.params) from None


# --- "I'll come" --------------------------------------------------------------------------------

def will_come(player, tournament: Tournament) -> ComingPledge:
    """The member says "I'll come" to an upcoming tournament (saying it again changes nothing)."""
    _may_pledge(player, tournament)
    try:
        with transaction.atomic():
            pledge, _made = ComingPledge.objects.get_or_create(tournament=tournament, player=player)
    except IntegrityError:  # the same member's second tap won the race: one pledge is kept
        pledge = ComingPledge.objects.get(tournament=tournament, player=player)
    return pledge


def will_not_come(player, tournament: Tournament) -> int:
    """The member takes "I'll come" back (before the start); how many pledges went (0 or 1)."""
    _may_pledge(player, tournament)
    return ComingPledge.objects.filter(tournament=tournament, player=player).delete()[0]


def _may_pledge(player, tournament: Tournament) -> None:
    if player is None or player.is_guest:
        raise TournamentError("members_only", _("Log in or sign up to say you will come."))
    if tournament.status != Status.UPCOMING:
        raise TournamentError("started", _("This tournament has already started."))


def tell_those_coming(tournament_id: int | None = None) -> int:
    """Each member who said "I'll come" to a tournament that now runs is told once: a header
    notice and a push in their language. The conditional update of `told_at` is the once: a
    doubled start task or tick finds the pledge told. Returns how many were told."""
    pending = ComingPledge.objects.filter(told_at__isnull=True, tournament__status=Status.RUNNING)
    if tournament_id is not None:
        pending = pending.filter(tournament_id=tournament_id)
    told = 0
    for pledge in pending.select_related("tournament", "player"):
        with transaction.atomic():
            if not ComingPledge.objects.filter(pk=pledge.pk, told_at__isnull=True).update(told_at=timezone.now()):
                continue  # told by another task a moment ago
            tournament = pledge.tournament
            announce(Announcement(kind="tournament_starts", key=f"tournament_starts:{tournament.pk}",
                                  url_name="tournaments:detail", url_args=(tournament.pk,), subject=tournament.name),
                     [pledge.player.user_id])
            push.tournament_starts(pledge.player.user_id, tournament.pk, tournament.name)
            told += 1
    return told


# --- The tournament chat (chat/, docs/chat.md) ----------------------------------------------------

def chat_refusal(tournament_id: int, player) -> Refusal | None:
    """Who may write in a tournament's chat: its players (not one the staff removed); everyone reads."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return TournamentError("no_such_place", _("There is no such chat."))
    if player is None or not Participant.objects.filter(tournament_id=tournament_id, player=player).exclude(
            status=ParticipantStatus.REMOVED).exists():
        return TournamentError("not_a_participant", _("Only the tournament's players may write here."))
    return None


def _rating(player, variant) -> int:
    return shown_ratings([(player.pk, variant)])[(player.pk, variant)].value


def leave(player, tournament: Tournament) -> Participant:
    """Leave the arena: no more pairings (a match being played is played out and counts).
    The score stays; joining again comes back to it."""
    with transaction.atomic():
        participant = (Participant.objects.select_for_update()
                       .filter(tournament=tournament, player=player, status__in=IN_PLAY).first())
        if participant is None:
            raise TournamentError("not_joined", _("You are not playing in this tournament."))
        participant.status = ParticipantStatus.WITHDRAWN
        participant.save(update_fields=["status"])
        announce_changed_on_commit(tournament.pk)
    return participant


def came_back(player, tournament_id: int) -> bool:
    """A paused player opened the arena's page again: pairable again (True when they were paused)."""
    now = timezone.now()
    back = Participant.objects.filter(tournament_id=tournament_id, player=player,
                                      status=ParticipantStatus.PAUSED).update(
        status=ParticipantStatus.ACTIVE, seen_at=now, waiting_since=now)
    if back:
        announce_changed_on_commit(tournament_id)
        transaction.on_commit(lambda: pair_arena(tournament_id))
    return bool(back)


def still_here_all(player_ids) -> int:
    """The players whose arena page or arena table is open in this process are there (one
    UPDATE on the process's heartbeat: tournaments/consumers.py)."""
    # An upcoming tournament's players too: who waits on the page is there when it starts.
    return Participant.objects.filter(player_id__in=list(player_ids), status__in=IN_PLAY,
                                      tournament__status__in=(Status.UPCOMING, Status.RUNNING)).update(
        seen_at=timezone.now())


def remove(participant_id: int) -> Participant:
    """The staff take a player out of the tournament: no more pairings, joining again is
    refused; the scores stay (a match being played is played out and counts)."""
    with transaction.atomic():
        participant = Participant.objects.select_for_update().filter(pk=participant_id).first()
        if participant is None:
            raise TournamentError("no_such_player", _("That player is not in this tournament."))
        if participant.status == ParticipantStatus.REMOVED:
            raise TournamentError("removed_already", _("This player was removed already."))
        participant.status = ParticipantStatus.REMOVED
        participant.save(update_fields=["status"])
        announce_changed_on_commit(participant.tournament_id)
    return participant


def cancel(tournament_id: int) -> Tournament:
    """The staff call a tournament off before it is over: no more pairings, nothing more is
    scored (matches being played are played out, for nobody's arena score)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            raise TournamentError("no_such_tournament", _("That tournament does not exist."))
        if tournament.status not in (Status.UPCOMING, Status.RUNNING):
            raise TournamentError("over", _("This tournament is over or was cancelled already."))
        tournament.status = Status.CANCELLED
        tournament.save(update_fields=["status"])
        if tournament.entry_fee:  # every fee goes back
            coins.refund_all(tournament.escrow_key, memos.TOURNAMENT_CANCELLED)
        announce_changed_on_commit(tournament.pk)
    return tournament


def settle(tournament_id: int):
    """A finished tournament's fees, exactly once: the fee of everyone who played no counted
    match goes back; the rest of the pool goes to the top places on the graded split
    (prizes.py; the coins' payout key `tournament:<id>` pays it once, whoever calls again).
    Returns the Payout, or None (a free tournament, nobody played)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.settled or tournament.status != Status.FINISHED:
            return None
        Tournament.objects.filter(pk=tournament.pk).update(settled=True)
        if not tournament.entry_fee:
            return None
        table = standings(tournament)
        for participant in table:
            if participant.played == 0:
                coins.refund_stake(participant.player.user, tournament.escrow_key, memo=memos.TOURNAMENT_NOT_PLAYED)
        ranked = [p for p in table if p.played > 0 and p.status != ParticipantStatus.REMOVED]
        shares = prizes.percents([prize_level(tournament, p) for p in ranked])
        winners = [p.player.user for p, share in zip(ranked, shares, strict=True) if share]
        if not winners:
            return None
        return coins.pay_out(tournament.escrow_key, winners, payout_key=tournament.escrow_key,
                             memo=memos.TOURNAMENT_PRIZE, weights=prizes.whole_weights(shares))


def prize_level(tournament: Tournament, participant: Participant) -> tuple:
    """What the standings compare but the rating and who joined first: players equal on it
    share a paid place (a Swiss's standings go by its tie-breaks, an arena's by wins and
    matches played: docs/tournaments.md)."""
    if tournament.kind == Kind.SWISS:
        return (participant.score, participant.tie_break, participant.second_tie_break)
    return (participant.score, participant.wins, participant.played)


# --- The pairing -----------------------------------------------------------------------------

def pair_arena(tournament_id: int, now: datetime | None = None) -> list[ArenaGame]:
    """Seat every group of the arena's waiting players that can be seated now; the games made.

    Under the tournament row's lock. Waiting: active, at no arena table, seen within
    TOURNAMENT_ABSENT_SECONDS (anyone else is paused: no seat for someone who is not there),
    and at no other table of the site."""
    now = now or timezone.now()
    made = []
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if (tournament is None or tournament.kind != Kind.ARENA or tournament.status != Status.RUNNING
                or now >= tournament.ends_at):
            return made  # a Swiss pairs by rounds (swiss_services.py)
        waiting = list(Participant.objects.filter(tournament=tournament, status=ParticipantStatus.ACTIVE,
                                                  game__isnull=True).select_related("player"))
        gone = [p.pk for p in waiting if p.seen_at < now - absent_after()]
        if gone:
            Participant.objects.filter(pk__in=gone).update(status=ParticipantStatus.PAUSED)
            announce_changed_on_commit(tournament.pk)
        waiting = [p for p in waiting if p.pk not in set(gone)]
        seated_elsewhere = set(Seat.objects.filter(
            player_id__in=[p.player_id for p in waiting], left_at__isnull=True,
            table__status__in=(TableStatus.OPEN, TableStatus.PLAYING)).values_list("player_id", flat=True))
        waiting = [p for p in waiting if p.player_id not in seated_elsewhere]
        if not waiting:
            return made
        by_key = {p.pk: p for p in waiting}
        size = SEATS_BY_VARIANT[tournament.variant]
        for keys in pairing.groups(_pairing_view(tournament, waiting), size):
            game = seat_at_a_table(tournament, [by_key[key] for key in keys], bots=False)
            if game is not None:
                made.append(game)
                for key in keys:
                    by_key.pop(key)
        if tournament.fill_with_bots and tournament.variant == Variant.CLASSIC:
            long_waiting = sorted((p for p in by_key.values()
                                   if p.waiting_since <= now - timedelta(seconds=settings.TOURNAMENT_BOTS_AFTER_SECONDS)),
                                  key=lambda p: (-p.score, -p.rating, p.pk))
            if long_waiting:  # the longest waiting decide; everyone waiting joins them, bots take the rest
                people = sorted(by_key.values(), key=lambda p: (-p.score, -p.rating, p.pk))[:size - 1]
                game = seat_at_a_table(tournament, people, bots=True)
                if game is not None:
                    made.append(game)
        if made:
            announce_changed_on_commit(tournament.pk)
    return made


def _pairing_view(tournament, waiting) -> list[pairing.Waiting]:
    """What the pairing reads of each waiting player: score, rating, last opponents, meetings."""
    keys = [p.pk for p in waiting]
    through = ArenaGame.players.through
    rows = list(through.objects.filter(arenagame__tournament=tournament,
                                       arenagame__players__in=keys)
                .values_list("arenagame_id", "participant_id").distinct())
    members: dict[int, set] = {}
    for game_id, participant_id in rows:
        members.setdefault(game_id, set()).add(participant_id)
    met: dict[int, dict] = {key: {} for key in keys}
    last: dict[int, tuple[int, frozenset]] = {}
    for game_id, people in members.items():
        for key in people & set(keys):
            for other in people - {key}:
                met[key][other] = met[key].get(other, 0) + 1
            if key not in last or game_id > last[key][0]:
                last[key] = (game_id, frozenset(people - {key}))
    return [pairing.Waiting(key=p.pk, score=p.score, rating=p.rating,
                            last_opponents=last.get(p.pk, (0, frozenset()))[1], met=met[p.pk])
            for p in waiting]


def seat_at_a_table(tournament, people, bots: bool) -> ArenaGame | None:
    """One table for `people` (bots in the other chairs when asked), or None when a seat was
    refused (that player is paused; nothing else of the attempt remains)."""
    table_settings = TableSettings(variant=tournament.variant, rated=tournament.rated and not bots,
                                   fill_with_bots=bots, clock_seconds=tournament.clock_seconds,
                                   bank_seconds=tournament.bank_seconds, berserk_allowed=tournament.berserk_allowed,
                                   game_type=tournament.game_type, target=tournament.target)
    players = [p.player for p in people]
    try:
        with transaction.atomic():
            table = table_service.seat_together(players, table_settings)
            game = ArenaGame.objects.create(tournament=tournament, table=table)
            game.players.set(people)
            Participant.objects.filter(pk__in=[p.pk for p in people]).update(game=game)
    except TableError as refusal:
        refused = refusal.params.get("player")
        Participant.objects.filter(tournament=tournament, player_id=refused).update(status=ParticipantStatus.PAUSED)
        return None
    for p in people:
        group_send_on_commit(player_group(p.player_id), {"type": "arena.seated", "tournament": tournament.pk,
                                                         "table": table.pk})
    return game


# --- A match ended ---------------------------------------------------------------------------

def match_finished(table_id: int, reason: str, match, state) -> ArenaGame | None:
    """Score an arena match, once (in the match's finishing transaction), and pair its players
    again once that commits. An aborted match counts for nobody; a match that ends after
    the arena's end is recorded but not counted."""
    game = ArenaGame.objects.select_for_update().filter(table_id=table_id, finished_at__isnull=True,
                                                        tournament__kind=Kind.ARENA).first()
    if game is None:
        return None  # not an arena match, or scored already
    now = timezone.now()
    tournament = game.tournament
    game.finished_at = now
    game.counted = reason != "abort" and tournament.status == Status.RUNNING and (match.finished_at or now) < tournament.ends_at
    game.save(update_fields=["finished_at", "counted"])
    people = {p.player_id: p for p in Participant.objects.select_for_update().filter(pk__in=game.players.all())}
    seats = list(Seat.objects.filter(table_id=table_id))
    connected = {seat.player_id for seat in seats if seat.connections > 0}
    if game.counted:
        _score(tournament, game, people, seats, match, state)
    for participant in people.values():
        participant.game = None
        participant.waiting_since = now
        if participant.player_id in connected:
            participant.seen_at = now
        participant.save(update_fields=["game", "waiting_since", "seen_at", "score", "streak", "played", "wins"])
    announce_changed_on_commit(tournament.pk)
    transaction.on_commit(lambda: pair_arena(tournament.pk))
    return game


def people_outcomes(variant, people, seats, match, state) -> dict[int, tuple[int, bool]] | None:
    """{player id: (place among the table's people, left)} of a finished match, or None
    (aborted: no places)."""
    result = match_standings(match, state, seats)
    if result.places is None:
        return None
    person_seats = {seat.index: seat.player_id for seat in seats if seat.player_id in people}
    if variant == Variant.JAPANESE:
        places = {index: result.places[index] for index in person_seats}
    else:
        places = scoring.people_places({index: state.totals[index] for index in person_seats},
                                       {index for index in person_seats if index in result.left})
    return {player_id: (places[index], index in result.left) for index, player_id in person_seats.items()}


def _score(tournament, game, people, seats, match, state) -> None:
    outcomes = people_outcomes(tournament.variant, people, seats, match, state)
    if outcomes is None:
        return
    alone = len(outcomes) == 1
    berserk = {seat.player_id for seat in seats if seat.berserk}
    for player_id, (place, left) in outcomes.items():
        participant = people[player_id]
        outcome = scoring.Outcome(place=place, left=left, alone_with_bots=alone,
                                  berserk=player_id in berserk)
        scored = scoring.score(tournament.variant, outcome, participant.streak)
        Result.objects.create(game=game, participant=participant, place=outcome.place, points=scored.points,
                              doubled=scored.doubled, left=outcome.left, berserk=outcome.berserk)
        participant.score += scored.points
        participant.streak = scored.streak
        participant.played += 1
        participant.wins += int(outcome.place == 1 and not outcome.left and not alone)


def seat_berserked(table_id: int) -> None:
    """A player of an arena match halved their bank: the standings show ⚔ (after the commit)."""
    tournament_id = ArenaGame.objects.filter(table_id=table_id).values_list("tournament_id", flat=True).first()
    if tournament_id is not None:
        announce_changed_on_commit(tournament_id)


def berserk_now(tournament: Tournament) -> set[int]:
    """The players of the tournament who halved their bank in the match they play now."""
    return set(Seat.objects.filter(table__arena_game__tournament=tournament, table__arena_game__finished_at__isnull=True,
                                   berserk=True).values_list("player_id", flat=True))


def player_forfeited(table_id: int, player_id: int | None) -> None:
    """A player lost an arena match by absence (or the clock): paused until they come back."""
    if player_id is None:
        return
    Participant.objects.filter(game__table_id=table_id, player_id=player_id,
                               status=ParticipantStatus.ACTIVE).update(status=ParticipantStatus.PAUSED)


# --- The arena's hours -----------------------------------------------------------------------

def tick(now: datetime | None = None) -> None:
    """Start the arenas whose hour came, end those whose time is up, pair the running ones
    (beat's `tournaments-tick`, every TOURNAMENT_TICK_SECONDS)."""
    now = now or timezone.now()
    arenas = Tournament.objects.filter(kind=Kind.ARENA)  # a Swiss runs by rounds: swiss_services.tick
    for tournament_id in arenas.filter(status=Status.UPCOMING, starts_at__lte=now).values_list("pk", flat=True):
        if Tournament.objects.filter(pk=tournament_id, status=Status.UPCOMING).update(status=Status.RUNNING):
            announce_changed(tournament_id)
    tell_those_coming()  # also those a tick killed after the start did not reach
    for tournament in arenas.filter(status=Status.RUNNING):
        if now >= tournament.ends_at:
            if Tournament.objects.filter(pk=tournament.pk, status=Status.RUNNING).update(status=Status.FINISHED):
                announce_changed(tournament.pk)
        else:
            pair_arena(tournament.pk, now)
    for tournament_id in Tournament.objects.filter(status=Status.FINISHED, settled=False).values_list("pk", flat=True):
        settle(tournament_id)  # once each: the row's lock and `settled`, and the payout's key


# --- What the pages read ---------------------------------------------------------------------

def standings_order(tournament: Tournament) -> tuple:
    """An arena: score, then wins, then fewer matches, then who came first. A Swiss: score, then
    its two tie-breaks, then the rating when joining, then who came first."""
    return SWISS_STANDINGS_ORDER if tournament.is_swiss else STANDINGS_ORDER


def standings(tournament: Tournament) -> list[Participant]:
    """Everyone who played or plays, best first (`standings_order`), each with its `place` (from 1)."""
    table = list(Participant.objects.filter(tournament=tournament).select_related("player__user", "game__table")
                 .order_by(*standings_order(tournament)))
    for place, participant in enumerate(table, start=1):
        participant.place = place
    return table


def finished_places(player) -> list[tuple[Tournament, int]]:
    """(tournament, the player's final place) for each finished tournament the player played a
    match in, newest first (the profile's wins and podiums)."""
    mine = (Participant.objects.filter(player=player, played__gt=0, tournament__status=Status.FINISHED)
            .select_related("tournament").order_by("-tournament__starts_at"))
    places = []
    for participant in mine:
        order = [p.pk for p in Participant.objects.filter(tournament_id=participant.tournament_id)
                 .order_by(*standings_order(participant.tournament)).only("pk")]
        places.append((participant.tournament, order.index(participant.pk) + 1))
    return places


def announce_changed(tournament_id: int) -> None:
    """Tell the tournament's open pages that its standings or rounds changed (they refetch)."""
    group_send(tournament_group(tournament_id), {"type": "tournament.changed", "tournament": tournament_id})


def announce_changed_on_commit(tournament_id: int) -> None:
    """The same, once the current transaction commits."""
    group_send_on_commit(tournament_group(tournament_id), {"type": "tournament.changed", "tournament": tournament_id})
