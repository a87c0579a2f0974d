"""The Swiss (tournaments/swiss_services.py, docs/tournaments.md "The Swiss") through the real
match services: the beat starts it and pairs round one (the bye to the lowest), a round waits
for its last match and the next is paired without a repeated pair, the beat's tick pairs the
next round when the process that ended the last match died before its step, absent players sit
out with 0 and are paused, walking out scores 0, late joining closes at half the rounds, and
the end finishes the Swiss; its fee is held, refunded when cancelled or never played, and the
prizes paid once under doubled finishing tasks."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from coins import services as coins
from coins.models import Entry, Payout
from games import live
from games.models import Match, Seat
from games.services.matches import load_state
from tests.coins_helpers import race
from tests.factories import make_player
from tests.replay_helpers import play_moves
from tournaments import services, swiss_services
from tournaments.models import (
    ArenaGame,
    Bye,
    Kind,
    Participant,
    ParticipantStatus,
    Result,
    Status,
    Tournament,
)
from tournaments.services import TournamentError

FEE = 25


def a_swiss(variant="japanese", rounds=3, **fields):
    """A Swiss that starts in a minute (the tests start it with `start`)."""
    return Tournament.objects.create(name="Saturday Swiss", kind=Kind.SWISS, variant=variant, rounds=rounds,
                                     rated=False, starts_at=timezone.now() + timedelta(minutes=1), **fields)


def start(tournament):
    """Its hour comes: the beat's tick starts it."""
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    swiss_services.tick()
    tournament.refresh_from_db()


def joined(tournament, *names):
    players = [make_player(name) for name in names]
    for player in players:
        services.join(player, tournament)
    return players


def row(tournament, player):
    return Participant.objects.get(tournament=tournament, player=player)


def playing(tournament):
    return list(ArenaGame.objects.filter(tournament=tournament, finished_at__isnull=True).order_by("pk"))


def pairs_of(tournament, number):
    return [frozenset(p.player.user.username for p in game.players.select_related("player__user"))
            for game in ArenaGame.objects.filter(tournament=tournament, round=number)]


def resign(game, loser, capture, execute=True):
    """`loser` resigns `game`; the commit's callbacks (the Swiss's step) run unless `execute` is off."""
    with capture(execute=execute):
        live.submit(Match.objects.get(table_id=game.table_id).pk, loser, live.Resign())


def lose_each_match(tournament, capture, loser_of=lambda game: game.players.order_by("-pk").first().player):
    for game in playing(tournament):
        resign(game, loser_of(game), capture)


@pytest.mark.django_db
def test_the_beat_starts_a_swiss_and_pairs_round_one_with_the_bye_to_the_lowest():
    tournament = a_swiss()
    nino = joined(tournament, "tamar", "levan", "nino")[2]
    assert playing(tournament) == []  # not started: nobody is seated
    start(tournament)
    start(tournament)  # a doubled tick pairs nothing twice
    assert (tournament.status, tournament.current_round) == (Status.RUNNING, 1)
    assert pairs_of(tournament, 1) == [{"tamar", "levan"}]
    bye = Bye.objects.get()
    assert (bye.participant.player, bye.round, bye.points, bye.absent) == (nino, 1, 2, False)
    assert row(tournament, nino).score == 2


@pytest.mark.django_db
def test_a_round_waits_for_its_last_match_then_the_next_is_paired_without_a_repeated_pair(
        django_capture_on_commit_callbacks):
    tournament = a_swiss(rounds=3)
    joined(tournament, "ana", "beka", "ciko", "dato")
    start(tournament)
    first, second = playing(tournament)
    resign(first, first.players.order_by("-pk").first().player, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.current_round == 1 and playing(tournament) == [second]  # the round waits
    resign(second, second.players.order_by("-pk").first().player, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.current_round == 2 and len(playing(tournament)) == 2
    lose_each_match(tournament, django_capture_on_commit_callbacks)
    lose_each_match(tournament, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    every_pair = [pair for number in (1, 2, 3) for pair in pairs_of(tournament, number)]
    assert len(every_pair) == 6 == len(set(every_pair))  # four players, three rounds: everyone met everyone once
    for number in (1, 2, 3):  # nobody at two tables of a round
        names = [name for pair in pairs_of(tournament, number) for name in pair]
        assert len(names) == len(set(names)) == 4
    table = services.standings(tournament)
    assert [p.score for p in table] == sorted((p.score for p in table), reverse=True)
    assert sum(p.score for p in table) == 6 * 2 and all(p.played == 3 for p in table)
    assert all(p.tie_break > 0 for p in table)  # Buchholz: everyone met someone who scored


@pytest.mark.django_db
def test_the_beats_tick_pairs_the_next_round_when_the_process_that_ended_the_match_died(
        django_capture_on_commit_callbacks):
    tournament = a_swiss()
    tamar, levan = joined(tournament, "tamar", "levan", "nino")[:2]
    start(tournament)
    game = playing(tournament)[0]
    resign(game, levan, django_capture_on_commit_callbacks, execute=False)  # committed; its step never ran
    tournament.refresh_from_db()
    assert tournament.current_round == 1 and row(tournament, tamar).score == 2
    Participant.objects.update(seen_at=timezone.now())
    swiss_services.tick()
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    assert pairs_of(tournament, 2) == [{"tamar", "nino"}]  # 2 points each; levan, lowest, sits out


@pytest.mark.django_db
def test_a_player_absent_at_the_pairing_sits_the_round_out_with_nothing_and_is_paused_until_back(settings):
    tournament = a_swiss()
    tamar = joined(tournament, "tamar", "levan", "nino")[0]
    Participant.objects.filter(player=tamar).update(
        seen_at=timezone.now() - timedelta(seconds=settings.TOURNAMENT_ABSENT_SECONDS + 1))
    start(tournament)
    assert pairs_of(tournament, 1) == [{"levan", "nino"}]
    absent = Bye.objects.get(participant__player=tamar)
    assert (absent.points, absent.absent) == (0, True)
    assert row(tournament, tamar).status == ParticipantStatus.PAUSED and row(tournament, tamar).score == 0
    assert services.came_back(tamar, tournament.pk)  # opening the page again
    assert row(tournament, tamar).status == ParticipantStatus.ACTIVE


@pytest.mark.django_db
def test_walking_out_of_a_swiss_match_scores_nothing_and_pauses(django_capture_on_commit_callbacks):
    tournament = a_swiss()
    tamar, levan = joined(tournament, "tamar", "levan")
    start(tournament)
    game = playing(tournament)[0]
    gone_at = timezone.now() - timedelta(minutes=5)
    seat = Seat.objects.get(table_id=game.table_id, player=levan)
    Seat.objects.filter(pk=seat.pk).update(connections=0, disconnected_at=gone_at)
    with django_capture_on_commit_callbacks(execute=True):
        assert live.submit(None, None, live.Forfeit(seat.pk, gone_at)).changed
    levan_row = row(tournament, levan)
    assert levan_row.status == ParticipantStatus.PAUSED and levan_row.score == 0
    assert Result.objects.get(participant=levan_row).left
    assert row(tournament, tamar).score == 2
    tournament.refresh_from_db()  # two players, one paused: no table for round two, the Swiss is over
    assert tournament.status == Status.FINISHED and tournament.current_round == 1


@pytest.mark.django_db
def test_late_joining_is_open_until_half_of_the_rounds_and_the_late_player_is_paired_next_round(
        django_capture_on_commit_callbacks):
    tournament = a_swiss(rounds=5)
    joined(tournament, "ana", "beka")
    start(tournament)
    (late,) = joined(tournament, "ciko")  # round 1 of 5 being played
    assert row(tournament, late).score == 0 and playing(tournament)[0].players.count() == 2
    lose_each_match(tournament, django_capture_on_commit_callbacks)
    assert any("ciko" in pair for pair in pairs_of(tournament, 2))
    (later,) = joined(tournament, "dato")  # round 2 of 5: still open
    lose_each_match(tournament, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.current_round == 3
    assert any("dato" in pair for pair in pairs_of(tournament, 3))
    too_late = make_player("eka")
    with pytest.raises(TournamentError) as refused:
        services.join(too_late, tournament)
    assert refused.value.code == "too_late"
    assert not Participant.objects.filter(player=too_late).exists()
    assert later.pk and row(tournament, later).played == 0


@pytest.mark.django_db
def test_a_swiss_with_too_few_players_at_its_start_finishes_and_gives_the_fees_back():
    tournament = a_swiss(entry_fee=FEE)
    (alone,) = joined(tournament, "tamar")
    assert coins.balance_of(alone.user) == 1000 - FEE
    start(tournament)
    services.tick()
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED and tournament.settled
    assert coins.balance_of(alone.user) == 1000 and not Payout.objects.exists()


@pytest.mark.django_db
def test_cancelling_a_running_swiss_gives_every_fee_back_and_pairs_nothing_more(
        django_capture_on_commit_callbacks):
    tournament = a_swiss(entry_fee=FEE)
    players = joined(tournament, "ana", "beka", "ciko")
    start(tournament)
    services.cancel(tournament.pk)
    assert [coins.balance_of(p.user) for p in players] == [1000] * 3
    lose_each_match(tournament, django_capture_on_commit_callbacks)  # played out, counting for nobody
    swiss_services.tick()
    tournament.refresh_from_db()
    assert tournament.status == Status.CANCELLED and tournament.current_round == 1
    assert not Result.objects.exists() and not Payout.objects.exists()


def a_finished_paid_swiss(capture):
    """ana, beka, ciko, dato at 25 coins, one round; the second named of each table resigns."""
    tournament = a_swiss(rounds=1, entry_fee=FEE)
    players = joined(tournament, "ana", "beka", "ciko", "dato")
    start(tournament)
    for game in playing(tournament):
        resign(game, game.players.order_by("-pk").first().player, capture, execute=False)
    return tournament, players


@pytest.mark.django_db
def test_the_last_rounds_end_finishes_the_swiss_and_pays_the_prizes_once_however_often_it_steps(
        django_capture_on_commit_callbacks):
    tournament, players = a_finished_paid_swiss(django_capture_on_commit_callbacks)
    swiss_services.advance(tournament.pk)
    swiss_services.advance(tournament.pk)  # a doubled step
    services.tick()
    swiss_services.tick()  # and the beat's
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED and tournament.settled
    # Two winners level on points and tie-breaks share 1st and 2nd (50 % + 30 %), the two
    # losers level too share 3rd (20 %): the graded split (tournaments/prizes.py).
    assert Payout.objects.count() == 1 and Entry.objects.filter(kind="payout").count() == 4
    assert [p.played for p in services.standings(tournament)] == [1, 1, 1, 1]
    pool = 4 * FEE
    assert sorted(coins.balance_of(p.user) for p in players) == sorted(
        [1000 - FEE + pool * 40 // 100] * 2 + [1000 - FEE + pool * 10 // 100] * 2)


@pytest.mark.django_db(transaction=True)
def test_two_steps_racing_at_the_swiss_end_pay_the_prizes_once(django_capture_on_commit_callbacks):
    tournament, players = a_finished_paid_swiss(django_capture_on_commit_callbacks)
    outcomes = race(2, lambda _i: swiss_services.advance(tournament.pk))
    assert [kind for kind, _result in outcomes] == ["ok", "ok"]
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED and tournament.settled
    assert Payout.objects.count() == 1 and Entry.objects.filter(kind="payout").count() == 4
    pool = 4 * FEE
    assert sum(coins.balance_of(p.user) for p in players) == 4 * 1000 - pool + 2 * (pool * 40 // 100 + pool * 10 // 100)


@pytest.mark.django_db
def test_a_classic_swiss_seats_four_by_score_gives_the_fifth_a_bye_and_scores_by_place(
        django_capture_on_commit_callbacks):
    tournament = a_swiss(variant="classic", rounds=2, game_type="short")
    players = joined(tournament, "ana", "beka", "ciko", "dato", "eka")
    start(tournament)
    (game,) = playing(tournament)
    assert {p.player for p in game.players.all()} == set(players[:4])
    assert Bye.objects.get().participant.player == players[4]  # the lowest (by joining, all equal)
    with django_capture_on_commit_callbacks(execute=False):  # a whole match: longer than the absence time
        match = play_moves(Match.objects.get(table_id=game.table_id), random.Random(7))
    totals = load_state(match).totals
    seat_of = {seat.player_id: seat.index for seat in Seat.objects.filter(table_id=game.table_id)}
    for result in Result.objects.filter(game=game).select_related("participant"):
        total = totals[seat_of[result.participant.player_id]]
        assert result.place == 1 + sum(1 for other in totals if other > total)
        assert result.points == {1: 4, 2: 2, 3: 1, 4: 0}[result.place] == result.participant.score
    Participant.objects.update(seen_at=timezone.now())  # their pages are open (the heartbeat)
    swiss_services.tick()  # the step the match's commit would have run
    table_people = Participant.objects.filter(player__in=players[:4])
    for participant in table_people:  # the average score of the three others met
        others = [p.score for p in table_people if p.pk != participant.pk]
        assert participant.tie_break == round(sum(others) / 3, 2)
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    assert Participant.objects.get(player=players[4]).game is not None  # eka, who sat out, plays round two
