"""Berserk (docs/tournaments.md "Berserk"): a player halves their own bank before a match's first
move through the live match's one way in (games/live.py `Berserk`): half the bank is spent at
once, the deadline moves, the version bumps; refused after the first move, twice, by someone not
seated or at a table without berserk, changing nothing; the extra point is scored (and never
doubled by a streak), and the ⚔ shows at the table and in the standings."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import live
from games.models import Match, Seat
from games.services import clocks
from games.services import tables as table_service
from games.services.matches import MatchError, load_state
from games.services.tables import TableSettings
from tests.factories import PASSWORD, make_player, player_at
from tournaments import scoring, services
from tournaments.models import Participant, Result, Status, Tournament
from tournaments.scoring import Outcome

BANK = 60


def arena(bank_seconds=BANK):
    return Tournament.objects.create(name="Evening arena", variant="japanese", minutes=60, rated=False,
                                     bank_seconds=bank_seconds, starts_at=timezone.now() - timedelta(minutes=1),
                                     status=Status.RUNNING)


def seated_pair(tournament, names=("tamar", "levan")):
    tamar, levan = (make_player(name) for name in names)
    services.join(tamar, tournament)
    services.join(levan, tournament)
    game = Participant.objects.get(tournament=tournament, player=tamar).game
    return Match.objects.select_related("table").get(table_id=game.table_id), tamar, levan


def fresh(match):
    return Match.objects.select_related("table").get(pk=match.pk)


def seat_of(match, player):
    return Seat.objects.get(table_id=match.table_id, player=player)


def first_move(match):
    """The player to act makes a legal move."""
    state = load_state(match)
    live.submit(match.pk, player_at(match, state.to_act),
                live.Move(state.legal_actions(state.to_act)[0].to_record(), match.version))


# --- The scoring -----------------------------------------------------------------------------

def test_berserk_adds_one_point_to_a_finished_match_whatever_the_place_but_not_to_a_leaver():
    assert scoring.score("japanese", Outcome(place=1, berserk=True), 0).points == 3
    assert scoring.score("japanese", Outcome(place=2, berserk=True), 0).points == 1
    assert scoring.score("classic", Outcome(place=3, berserk=True), 0).points == 2
    # resigned, forfeited, walked out or lost on time (the clock moved too often): 0
    assert scoring.score("japanese", Outcome(place=2, left=True, berserk=True), 1) == scoring.Scored(0, False, 0)
    # alone with bots nothing counts, berserk included
    assert scoring.score("classic", Outcome(place=1, alone_with_bots=True, berserk=True), 1).points == 0


def test_a_streak_doubles_the_win_but_not_the_berserk_point():
    doubled = scoring.score("japanese", Outcome(place=1, berserk=True), 2)
    assert (doubled.points, doubled.doubled, doubled.berserk_point, doubled.streak) == (2 * 2 + 1, True, 1, 3)
    classic = scoring.score("classic", Outcome(place=1, berserk=True), 5)
    assert classic.points == 4 * 2 + 1


# --- The command -------------------------------------------------------------------------------

@pytest.mark.django_db
def test_berserk_spends_half_the_bank_at_once_and_moves_the_clocks_end():
    match, tamar, levan = seated_pair(arena())
    assert match.table.bank_seconds == BANK and match.table.berserk_allowed
    to_act = player_at(match, load_state(match).to_act)
    before = fresh(match)
    live.submit(match.pk, to_act, live.Berserk())
    after = fresh(match)
    seat = seat_of(after, to_act)
    assert seat.berserk and seat.bank_spent_ms == BANK * 1000 // 2
    assert clocks.bank_left_ms(after.table, seat) == BANK * 1000 // 2
    assert after.version == before.version + 1
    assert after.turn_started_at == before.turn_started_at  # the move time is not given again
    assert before.deadline_at - after.deadline_at == timedelta(seconds=BANK / 2)
    # the other player may still berserk before the first move: the deadline of the one to act stays
    other = levan if to_act == tamar else tamar
    live.submit(match.pk, other, live.Berserk())
    assert seat_of(match, other).berserk and fresh(match).deadline_at == after.deadline_at


@pytest.mark.django_db
def test_berserk_is_refused_after_the_first_move_twice_or_for_others_changing_nothing():
    match, tamar, levan = seated_pair(arena())
    outsider = make_player("nino")
    refusals = {}

    def refused(player):
        before = fresh(match)
        with pytest.raises(MatchError) as error:
            live.submit(match.pk, player, live.Berserk())
        after = fresh(match)
        assert (after.version, after.deadline_at) == (before.version, before.deadline_at)
        return error.value.code

    refusals["outsider"] = refused(outsider)
    live.submit(match.pk, tamar, live.Berserk())
    refusals["twice"] = refused(tamar)
    first_move(fresh(match))
    refusals["after the first move"] = refused(levan)
    assert refusals == {"outsider": "not_seated", "twice": "berserk_already",
                        "after the first move": "berserk_too_late"}
    assert not seat_of(match, levan).berserk and seat_of(match, levan).bank_spent_ms == 0


@pytest.mark.django_db
def test_a_table_without_berserk_or_an_arena_without_a_bank_refuses_it():
    tamar, levan = make_player("tamar"), make_player("levan")
    table = table_service.create_table(tamar, TableSettings(variant="japanese", bank_seconds=BANK))
    table_service.sit(table.pk, levan)
    with pytest.raises(MatchError) as error:
        live.submit(Match.objects.get(table=table).pk, tamar, live.Berserk())
    assert error.value.code == "no_berserk"
    match, tamar, _levan = seated_pair(arena(bank_seconds=0), names=("nino", "dato"))
    assert not match.table.berserk_allowed
    with pytest.raises(MatchError) as error:
        live.submit(match.pk, tamar, live.Berserk())
    assert error.value.code == "no_berserk"


# --- In the arena ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_berserk_win_scores_the_extra_point_and_is_marked_in_the_results(django_capture_on_commit_callbacks):
    tournament = arena()
    match, tamar, levan = seated_pair(tournament)
    live.submit(match.pk, tamar, live.Berserk())
    live.submit(match.pk, levan, live.Berserk())
    with django_capture_on_commit_callbacks(execute=True):
        live.submit(match.pk, levan, live.Resign())  # berserk, but resigned: 0
    winner, loser = (Participant.objects.get(tournament=tournament, player=p) for p in (tamar, levan))
    assert (winner.score, loser.score) == (2 + 1, 0)
    assert Result.objects.get(participant=winner).berserk and Result.objects.get(participant=winner).points == 3
    assert Result.objects.get(participant=loser).points == 0


@pytest.mark.django_db
def test_the_mark_shows_beside_the_name_at_the_table_and_in_the_standings():
    tournament = arena()
    match, tamar, levan = seated_pair(tournament)
    client = Client()
    assert client.login(username=tamar.user.username, password=PASSWORD)
    table_page = client.get(f"/en/tables/{match.table_id}/").content.decode()
    assert "Berserk: halve my bank" in table_page and "berserk-mark" not in table_page
    live.submit(match.pk, tamar, live.Berserk())
    table_page = client.get(f"/en/tables/{match.table_id}/").content.decode()
    assert "Berserk: halve my bank" not in table_page  # once only
    assert table_page.count('class="berserk-mark"') == 1
    standings = client.get(f"/en/tournaments/{tournament.pk}/live/").content.decode()
    tamar_row = next(row for row in standings.split("<tr") if tamar.display_name_text in row)
    levan_row = next(row for row in standings.split("<tr") if levan.display_name_text in row)
    assert "⚔" in tamar_row and "⚔" not in levan_row
