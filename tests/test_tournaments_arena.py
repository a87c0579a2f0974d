"""The arena (tournaments/services.py, docs/tournaments.md) through the real match services:
joining seats players at once, a finished match is scored once and its players are paired
again (not with the same opponent when someone else waits), absent and forfeiting players
are paused, a doubled pairing or a doubled finishing does nothing twice, and the beat starts
and ends arenas."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import live
from games.models import Match, MatchStatus, Seat, TableStatus
from games.services.matches import load_state
from tests.factories import make_guest, make_player
from tests.replay_helpers import play_moves
from tournaments import services
from tournaments.models import ArenaGame, Participant, ParticipantStatus, Result, Status, Tournament
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


def arena(variant="japanese", started=1, minutes=60, **fields):
    """An arena that started `started` minutes ago (negative: starts later)."""
    status = Status.RUNNING if started >= 0 else Status.UPCOMING
    return Tournament.objects.create(name="Evening arena", variant=variant, minutes=minutes, rated=False,
                                     starts_at=timezone.now() - timedelta(minutes=started), status=status,
                                     **fields)


def participant(tournament, player):
    return Participant.objects.get(tournament=tournament, player=player)


def match_of(game):
    return Match.objects.select_related("table").get(table_id=game.table_id)


def current_game(tournament, player):
    return participant(tournament, player).game


def resign(tournament, player, capture):
    """`player` resigns their arena match (Japanese: the opponent wins); the commit's callbacks run."""
    game = current_game(tournament, player)
    with capture(execute=True):
        live.submit(match_of(game).pk, player, live.Resign())
    return game


def test_two_members_who_join_a_running_japanese_arena_are_seated_at_one_started_match():
    tournament = arena()
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    assert current_game(tournament, tamar) is None  # alone: waits
    services.join(levan, tournament)
    game = current_game(tournament, tamar)
    assert game is not None and current_game(tournament, levan) == game
    assert match_of(game).status == MatchStatus.RUNNING
    assert {seat.player_id for seat in Seat.objects.filter(table_id=game.table_id)} == {tamar.pk, levan.pk}


def test_a_finished_match_scores_once_and_pairs_the_winner_with_someone_else_who_waits(
        django_capture_on_commit_callbacks):
    tournament = arena()
    tamar, levan, nino = make_player("tamar"), make_player("levan"), make_player("nino")
    for player in (tamar, levan, nino):
        services.join(player, tournament)
    first = current_game(tournament, tamar)
    playing = {tamar, levan} if current_game(tournament, levan) == first else {tamar, nino}
    waiting_one = ({tamar, levan, nino} - playing).pop()
    loser = (playing - {tamar}).pop()
    resign(tournament, loser, django_capture_on_commit_callbacks)
    winner_row, loser_row = participant(tournament, tamar), participant(tournament, loser)
    assert (winner_row.score, winner_row.streak, winner_row.wins, winner_row.played) == (2, 1, 1, 1)
    assert (loser_row.score, loser_row.streak, loser_row.played) == (0, 0, 1)
    assert Result.objects.get(participant=loser_row).left
    # the winner meets the player who waited, not the one just beaten
    second = winner_row.game
    assert second is not None and second != first
    assert current_game(tournament, waiting_one) == second
    assert loser_row.game is None


def test_the_same_finished_match_is_never_scored_twice():
    tournament = arena()
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    services.join(levan, tournament)
    game = current_game(tournament, tamar)
    live.submit(match_of(game).pk, levan, live.Resign())
    match = match_of(game)
    again = services.match_finished(game.table_id, "resign", match, load_state(match))
    assert again is None
    assert Result.objects.filter(game=game).count() == 2
    assert participant(tournament, tamar).score == 2


def test_a_streak_of_wins_doubles_in_real_matches(django_capture_on_commit_callbacks):
    tournament = arena()
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    services.join(levan, tournament)
    for _ in range(3):
        resign(tournament, levan, django_capture_on_commit_callbacks)  # only two: they meet again
    row = participant(tournament, tamar)
    assert (row.score, row.streak, row.on_fire) == (2 + 2 + 4, 3, True)
    assert [r.doubled for r in Result.objects.filter(participant=row).order_by("pk")] == [False, False, True]


def test_a_played_out_match_counts_for_the_winner_and_the_loser(django_capture_on_commit_callbacks):
    tournament = arena(target=11)
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    services.join(levan, tournament)
    game = current_game(tournament, tamar)
    with django_capture_on_commit_callbacks(execute=True):
        match = play_moves(match_of(game), random.Random(3))
    assert match.status == MatchStatus.FINISHED
    results = {r.participant.player_id: r for r in Result.objects.filter(game=game).select_related("participant")}
    assert sorted((r.place, r.points, r.left) for r in results.values()) == [(1, 2, False), (2, 0, False)]


def test_a_doubled_pairing_seats_nobody_twice():
    tournament = arena()
    players = [make_player(f"p{n}") for n in range(5)]
    for player in players:
        Participant.objects.create(tournament=tournament, player=player)
    made = services.pair_arena(tournament.pk)
    assert services.pair_arena(tournament.pk) == []
    assert len(made) == 2
    seated = [p for game in ArenaGame.objects.filter(tournament=tournament) for p in game.players.all()]
    assert len(seated) == len({p.pk for p in seated}) == 4
    open_seats = Seat.objects.filter(player__in=players, left_at__isnull=True, table__status=TableStatus.PLAYING)
    assert open_seats.count() == 4


def test_a_player_nobody_has_seen_is_paused_instead_of_seated_and_comes_back_with_the_page(settings):
    tournament = arena()
    tamar, levan, nino = make_player("tamar"), make_player("levan"), make_player("nino")
    for player in (tamar, levan, nino):
        Participant.objects.create(tournament=tournament, player=player)
    Participant.objects.filter(player=nino).update(
        seen_at=timezone.now() - timedelta(seconds=settings.TOURNAMENT_ABSENT_SECONDS + 1))
    services.pair_arena(tournament.pk)
    assert participant(tournament, nino).status == ParticipantStatus.PAUSED
    assert participant(tournament, nino).game is None
    assert current_game(tournament, tamar) == current_game(tournament, levan) is not None
    assert services.came_back(nino, tournament.pk)
    assert participant(tournament, nino).status == ParticipantStatus.ACTIVE


def test_losing_a_match_by_absence_pauses_the_player(django_capture_on_commit_callbacks):
    tournament = arena()
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    services.join(levan, tournament)
    game = current_game(tournament, tamar)
    gone_at = timezone.now() - timedelta(minutes=5)
    seat = Seat.objects.get(table_id=game.table_id, player=levan)
    Seat.objects.filter(pk=seat.pk).update(connections=0, disconnected_at=gone_at)
    with django_capture_on_commit_callbacks(execute=True):
        assert live.submit(None, None, live.Forfeit(seat.pk, gone_at)).changed
    levan_row = participant(tournament, levan)
    assert levan_row.status == ParticipantStatus.PAUSED and levan_row.score == 0
    assert participant(tournament, tamar).score == 2


def test_a_player_who_left_is_not_paired_and_keeps_the_score():
    tournament = arena()
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    services.leave(tamar, tournament)
    services.join(levan, tournament)
    assert current_game(tournament, levan) is None
    with pytest.raises(TournamentError) as refused:
        services.leave(tamar, tournament)
    assert refused.value.code == "not_joined"
    services.join(tamar, tournament)  # back again: paired at once
    assert current_game(tournament, tamar) == current_game(tournament, levan) is not None


def test_joining_is_refused_clearly_and_changes_nothing():
    tournament = arena()
    tamar = make_player("tamar")
    cases = [(make_guest(), tournament, "members_only")]
    services.join(tamar, tournament)
    cases.append((tamar, tournament, "already_joined"))
    over = arena(started=120, minutes=60)
    cases.append((make_player("levan"), over, "closed"))
    removed = make_player("nino")
    services.join(removed, tournament)
    services.remove(participant(tournament, removed).pk)
    cases.append((removed, tournament, "removed"))
    before = list(Participant.objects.order_by("pk").values_list("pk", "status", "score"))
    for player, where, code in cases:
        with pytest.raises(TournamentError) as refused:
            services.join(player, where)
        assert refused.value.code == code
    assert list(Participant.objects.order_by("pk").values_list("pk", "status", "score")) == before


def test_the_beat_starts_an_arena_at_its_hour_and_ends_it_and_a_late_match_does_not_count(
        django_capture_on_commit_callbacks):
    tournament = arena(started=-1, minutes=30)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() + timedelta(seconds=5))
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    services.join(levan, tournament)
    assert current_game(tournament, tamar) is None  # not started: nobody is seated
    services.tick(now=timezone.now() + timedelta(seconds=10))  # started, and its players seated
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING
    game = current_game(tournament, tamar)
    assert game is not None
    services.tick(now=timezone.now() + timedelta(minutes=31))
    services.tick(now=timezone.now() + timedelta(minutes=31))  # a doubled run changes nothing more
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    resign(tournament, levan, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.finished_at is not None and not game.counted
    assert participant(tournament, tamar).score == 0 and not Result.objects.exists()
    assert participant(tournament, tamar).game is None  # and nobody is seated again
    assert ArenaGame.objects.filter(tournament=tournament).count() == 1


def test_four_classic_players_share_a_table_and_score_by_place(django_capture_on_commit_callbacks):
    tournament = arena(variant="classic", game_type="short")
    players = [make_player(name) for name in ("ana", "giorgi", "nino", "dato")]
    for player in players:
        services.join(player, tournament)
    game = current_game(tournament, players[0])
    assert all(current_game(tournament, player) == game for player in players)
    with django_capture_on_commit_callbacks(execute=True):
        match = play_moves(match_of(game), random.Random(7))
    assert match.status == MatchStatus.FINISHED
    totals = load_state(match).totals
    by_seat = {seat.player_id: seat.index for seat in Seat.objects.filter(table_id=game.table_id)}
    for result in Result.objects.filter(game=game).select_related("participant"):
        total = totals[by_seat[result.participant.player_id]]
        assert result.place == 1 + sum(1 for other in totals if other > total)
        assert result.points == {1: 4, 2: 2, 3: 1, 4: 0}[result.place]
        assert result.participant.score == result.points


def test_a_classic_arena_with_bots_seats_a_lone_player_with_bots_after_the_wait(settings):
    tournament = arena(variant="classic", fill_with_bots=True)
    ana = make_player("ana")
    services.join(ana, tournament)
    assert current_game(tournament, ana) is None  # not yet: someone may come
    Participant.objects.filter(player=ana).update(
        waiting_since=timezone.now() - timedelta(seconds=settings.TOURNAMENT_BOTS_AFTER_SECONDS + 1))
    services.pair_arena(tournament.pk)
    game = current_game(tournament, ana)
    assert game is not None and not game.table.rated
    seats = Seat.objects.filter(table_id=game.table_id)
    assert sorted(seat.is_bot for seat in seats) == [False, True, True, True]
