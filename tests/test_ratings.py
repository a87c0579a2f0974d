"""Ratings: what a finished match changes, exactly once, and what stays casual (docs/ratings.md)."""

import random

import pytest
from django.db import transaction
from django.utils import timezone, translation

from games import engine
from games.models import Match, MatchStatus, Seat, Table
from games.services import tables as table_service
from games.services.matches import (
    TIMEOUTS_BEFORE_GONE,
    MatchError,
    _locked_match,
    abort,
    clock_ran_out,
    load_state,
    resign,
)
from games.services.tables import TableError, TableSettings
from ratings.models import MatchFigures, Rating, RatingChange
from ratings.places import SeatPlaces, final_places
from ratings.services import MODEL, NEWCOMER, rate_match, record_finished_match, shown_value
from tests.coins_helpers import race
from tests.factories import make_guest, make_player
from tests.replay_helpers import fresh, seated_match


def _japanese_match(names=("tamar", "levan"), **options):
    return seated_match("japanese", names, rated=True, **options)


def _ratings(players, variant):
    rows = {r.player_id: r for r in Rating.objects.filter(variant=variant, player__in=players)}
    return [rows.get(p.pk) for p in players]


def _seat_of(match, player):
    return Seat.objects.get(table=match.table, player=player).index


# --- Places -----------------------------------------------------------------------------------

def _finished_classic_state(seed):
    state = engine.new_state("classic", {"game_type": "short", "first_dealer": 0})
    engine.play_random(state, random.Random(seed))
    assert state.is_over()
    return state


def _seat(index, left):
    """An unsaved Seat row: its index and whether its player left."""
    return Seat(index=index, left_at=timezone.now() if left else None)


def test_classic_places_follow_the_totals_and_a_leaver_is_last_whatever_the_bot_scored():
    state = _finished_classic_state(3)
    places = final_places("classic", state, [_seat(i, False) for i in range(4)])
    assert places.by_seat == tuple(state.ranking())
    best = max(range(4), key=lambda seat: state.totals[seat])
    with_leaver = final_places("classic", state, [_seat(i, i == best) for i in range(4)])
    assert with_leaver.of(best) == 4
    others = [seat for seat in range(4) if seat != best]
    assert sorted(with_leaver.of(seat) for seat in others) == sorted(engine.common.ranks_by_total(
        [state.totals[seat] for seat in others]))


def test_seat_places_refuse_a_place_outside_the_table():
    with pytest.raises(ValueError):
        SeatPlaces((1, 2, 5, 3))
    with pytest.raises(ValueError):
        SeatPlaces(())


# --- Which way ratings move -------------------------------------------------------------------

@pytest.mark.django_db
def test_classic_places_with_a_tie_move_ratings_in_order_and_tied_players_alike():
    match, players = seated_match("classic", ("ana", "beka", "gio", "dato"), rated=True, game_type="short")
    seats = list(Seat.objects.filter(table=match.table).select_related("player"))
    assert rate_match(match, "classic", seats, SeatPlaces((1, 2, 2, 4)))
    after = [shown_value(r.mu, r.sigma) for r in _ratings(players, "classic")]
    changes = {c.player_id: c.shown_after - c.shown_before for c in RatingChange.objects.filter(match=match)}
    first, second, third, last = (changes[p.pk] for p in players)
    assert first > second == third > last
    assert second == third and after[1] == after[2]
    assert first > 0 > last
    assert all(r.rated_matches == 1 for r in _ratings(players, "classic"))


@pytest.mark.django_db
def test_a_four_way_tie_changes_no_ones_skill_estimate_by_much_and_all_alike():
    match, players = seated_match("classic", ("ana", "beka", "gio", "dato"), rated=True, game_type="short")
    seats = list(Seat.objects.filter(table=match.table))
    rate_match(match, "classic", seats, SeatPlaces((1, 1, 1, 1)))
    mus = {round(r.mu, 9) for r in _ratings(players, "classic")}
    assert mus == {round(MODEL.mu, 9)}


@pytest.mark.django_db
def test_japanese_resignation_is_a_loss_for_the_resigner_and_a_win_for_the_opponent():
    match, (tamar, levan) = _japanese_match()
    resign(match.pk, tamar)
    winner, loser = _ratings([levan, tamar], "japanese")
    assert shown_value(winner.mu, winner.sigma) > NEWCOMER.value > shown_value(loser.mu, loser.sigma)
    assert winner.rated_matches == loser.rated_matches == 1
    places = dict(RatingChange.objects.filter(match=match).values_list("player_id", "place"))
    assert places == {levan.pk: 1, tamar.pk: 2}


@pytest.mark.django_db
def test_japanese_forfeit_by_the_clock_counts_as_a_loss():
    match, _players = _japanese_match()
    match = fresh(match)
    to_act = load_state(match).to_act
    Seat.objects.filter(table=match.table, index=to_act).update(timeouts_in_row=TIMEOUTS_BEFORE_GONE - 1)
    assert clock_ran_out(match.pk, match.version)
    forfeiter = Seat.objects.get(table=match.table, index=to_act).player
    change = RatingChange.objects.get(match=match, player=forfeiter)
    assert change.place == 2 and change.shown_after < change.shown_before


@pytest.mark.django_db
def test_a_classic_leaver_counts_as_last():
    match, players = seated_match("classic", ("ana", "beka", "gio", "dato"), rated=True, game_type="short")
    resign(match.pk, players[2])
    match = fresh(match)
    # The others play on (random legal moves) to the end; the leaver's seat is played by the bot.
    rng = random.Random(7)
    from games.services.matches import perform
    from tests.factories import player_at

    while match.status == MatchStatus.RUNNING:
        state = load_state(match)
        perform(match.pk, player_at(match, state.to_act), rng.choice(state.legal_actions(state.to_act)).to_record(), match.version)
        match = fresh(match)
    leaver = RatingChange.objects.get(match=match, player=players[2])
    assert leaver.place == 4
    assert leaver.shown_after < leaver.shown_before


# --- Exactly once -----------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_second_finishing_call_for_the_same_match_changes_nothing():
    match, players = _japanese_match()
    resign(match.pk, players[0])
    before = [(r.mu, r.sigma, r.rated_matches) for r in _ratings(players, "japanese")]
    with transaction.atomic():
        locked = _locked_match(match.pk)
        record_finished_match(locked, load_state(locked))
        record_finished_match(locked, load_state(locked))
    assert [(r.mu, r.sigma, r.rated_matches) for r in _ratings(players, "japanese")] == before
    assert RatingChange.objects.filter(match=match).count() == 2
    assert MatchFigures.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_a_repeated_clock_task_rates_the_forfeited_match_once():
    match, players = _japanese_match()
    match = fresh(match)
    to_act = load_state(match).to_act
    Seat.objects.filter(table=match.table, index=to_act).update(timeouts_in_row=TIMEOUTS_BEFORE_GONE - 1)
    assert clock_ran_out(match.pk, match.version)
    assert not clock_ran_out(match.pk, match.version)
    assert all(r.rated_matches == 1 for r in _ratings(players, "japanese"))
    assert RatingChange.objects.filter(match=match).count() == 2


def _race(*actions):
    return race(len(actions), lambda i: actions[i]())


@pytest.mark.django_db(transaction=True)
def test_both_players_resigning_at_once_rate_the_match_exactly_once():
    match, (tamar, levan) = _japanese_match()
    results = _race(lambda: resign(match.pk, tamar), lambda: resign(match.pk, levan))
    outcomes = sorted(kind for kind, _value in results)
    assert outcomes == ["error", "ok"], results
    refused = next(value for kind, value in results if kind == "error")
    assert isinstance(refused, MatchError) and refused.code == "match_over"
    assert RatingChange.objects.filter(match=match).count() == 2
    assert [r.rated_matches for r in _ratings([tamar, levan], "japanese")] == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_two_processes_finishing_the_same_match_under_its_lock_rate_it_once():
    """Two workers that both believe they end the match (each locks it and calls the update)."""
    match, players = _japanese_match()
    resign(match.pk, players[0])
    RatingChange.objects.filter(match=match).delete()
    Rating.objects.filter(player__in=players).delete()
    MatchFigures.objects.filter(match=match).delete()

    def finish_again():
        with transaction.atomic():
            locked = _locked_match(match.pk)
            record_finished_match(locked, load_state(locked))

    results = _race(finish_again, finish_again)
    assert [kind for kind, _ in results] == ["ok", "ok"], results
    assert RatingChange.objects.filter(match=match).count() == 2
    assert [r.rated_matches for r in _ratings(players, "japanese")] == [1, 1]
    assert MatchFigures.objects.filter(match=match).count() == 2


# --- Casual and aborted ----------------------------------------------------------------------

@pytest.mark.django_db
def test_a_casual_match_changes_no_rating_but_keeps_its_figures():
    match, players = seated_match("japanese", ("tamar", "levan"), rated=False)
    resign(match.pk, players[0])
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert MatchFigures.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_an_aborted_match_changes_nothing():
    match, _players = _japanese_match()
    assert abort(match.pk, "staff stopped it")
    assert fresh(match).status == MatchStatus.ABORTED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert not MatchFigures.objects.exists()


@pytest.mark.django_db
def test_practice_tables_with_bots_and_guests_tables_are_casual():
    member = make_player("ana")
    practice = table_service.create_table(member, TableSettings(variant="classic", fill_with_bots=True, rated=True))
    assert practice.rated is False
    guests = table_service.create_table(make_guest(), TableSettings(variant="japanese", rated=True))
    assert guests.rated is False
    assert table_service.create_table(make_player("beka"), TableSettings(variant="japanese")).rated is True


@pytest.mark.django_db
def test_a_guest_is_refused_at_a_rated_table_with_a_message_and_nothing_changes():
    table = table_service.create_table(make_player("ana"), TableSettings(variant="japanese", rated=True))
    with translation.override("en"), pytest.raises(TableError) as refused:
        table_service.sit(table.pk, make_guest())
    assert refused.value.code == "guest_rated" and "Sign up" in refused.value.message
    assert table.seats.count() == 1
    casual = table_service.create_table(make_player("beka"), TableSettings(variant="japanese", rated=False))
    table_service.sit(casual.pk, make_guest())
    assert Match.objects.filter(table=casual).exists()


@pytest.mark.django_db
def test_a_rematch_keeps_the_rated_setting():
    match, players = seated_match("japanese", ("tamar", "levan"), rated=False)
    resign(match.pk, players[0])
    rematch = table_service.offer_rematch(match.table_id, players[1])
    assert Table.objects.get(pk=rematch.pk).rated is False
