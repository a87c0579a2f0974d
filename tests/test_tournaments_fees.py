"""Domino Coin tournaments (tournaments/services.py, coins/): the entry fee is held once when
joining (refused clearly, changing nothing, when the wallet is short); when the arena ends the
fee of whoever played no match comes back and the pool is paid on the graded split
(tournaments/prizes.py) exactly once, also under a doubled finishing task racing in two
threads; cancelling refunds every fee."""

from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone

from coins import services as coins
from coins.models import Entry, Payout
from games import live
from games.models import Match
from tests.coins_helpers import assert_ledger_sound, race, set_balance
from tests.factories import make_player
from tournaments import prizes, services
from tournaments.models import Participant, Status, Tournament
from tournaments.services import TournamentError

FEE = 25


def paid_arena():
    return Tournament.objects.create(name="Coin arena", variant="japanese", minutes=60, rated=False,
                                     entry_fee=FEE, status=Status.RUNNING,
                                     starts_at=timezone.now() - timedelta(minutes=1))


def balance(player):
    return coins.balance_of(player.user)


def five_in_an_arena():
    """ana–giorgi and nino–dato play (ana and nino win by resignation); eka joined and never played."""
    tournament = paid_arena()
    ana, giorgi, nino, dato, eka = (make_player(n) for n in ("ana", "giorgi", "nino", "dato", "eka"))
    for player in (ana, giorgi, nino, dato, eka):
        services.join(player, tournament)
    for loser in (giorgi, dato):  # the commits' callbacks (pairing again) do not run in these tests
        game = Participant.objects.get(player=loser).game
        live.submit(Match.objects.get(table_id=game.table_id).pk, loser, live.Resign())
    return tournament, (ana, giorgi, nino, dato, eka)


def end_of(tournament):
    return timezone.now() + timedelta(minutes=tournament.minutes + 1)


@pytest.mark.django_db
def test_joining_holds_the_fee_once_and_a_short_wallet_is_refused_changing_nothing():
    tournament = paid_arena()
    tamar, poor = make_player("tamar"), make_player("poor")
    services.join(tamar, tournament)
    assert balance(tamar) == 1000 - FEE
    services.leave(tamar, tournament)
    services.join(tamar, tournament)  # back again: nothing more is taken
    assert balance(tamar) == 1000 - FEE
    set_balance(poor.user, FEE - 1)
    with pytest.raises(TournamentError) as refused:
        services.join(poor, tournament)
    assert refused.value.code == "insufficient_funds"
    assert balance(poor) == FEE - 1 and not Participant.objects.filter(player=poor).exists()


@pytest.mark.django_db
def test_the_end_refunds_who_never_played_and_level_players_share_their_places_once():
    tournament, (ana, giorgi, nino, dato, eka) = five_in_an_arena()
    services.tick(now=end_of(tournament))
    services.tick(now=end_of(tournament))  # a doubled tick
    assert services.settle(tournament.pk) is None  # and a doubled finishing task
    # eka's fee went back: a pool of 100. ana and nino (2 points, 1 win, 1 match) are level on
    # 1st and 2nd: (50 + 30) / 2 = 40 % each; giorgi and dato (0, 0, 1) on 3rd and 4th: 20 / 2 = 10 %.
    assert {p.user.username: balance(p) for p in (ana, giorgi, nino, dato, eka)} == {
        "ana": 1000 - FEE + 40, "nino": 1000 - FEE + 40, "giorgi": 1000 - FEE + 10,
        "dato": 1000 - FEE + 10, "eka": 1000}
    assert Payout.objects.count() == 1 and Entry.objects.filter(kind="payout").count() == 4
    tournament.refresh_from_db()
    assert tournament.settled
    assert_ledger_sound()


@pytest.mark.django_db
def test_three_places_are_paid_fifty_thirty_twenty_and_the_rounding_goes_to_the_house():
    tournament = paid_arena()
    players = [make_player(n) for n in ("ana", "bela", "gia", "dito", "eli", "lado")]
    for player in players:
        services.join(player, tournament)
    scores = {"ana": (6, 3), "bela": (4, 2), "gia": (2, 1), "dito": (0, 0), "eli": (0, 0), "lado": (0, 0)}
    for participant in Participant.objects.filter(tournament=tournament).select_related("player__user"):
        score, wins = scores[participant.player.user.username]
        Participant.objects.filter(pk=participant.pk).update(score=score, wins=wins, played=3, game=None)
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    payout = services.settle(tournament.pk)
    # The pool of 150: 75, 45, 30; nothing left over.
    assert [balance(p) - (1000 - FEE) for p in players] == [75, 45, 30, 0, 0, 0]
    assert (payout.pot, payout.remainder) == (150, 0)
    assert_ledger_sound()


def test_the_split_pays_fewer_places_for_fewer_players_and_level_players_share():
    assert prizes.split_for(1) == (100,) and prizes.split_for(2) == (70, 30)
    assert prizes.split_for(3) == prizes.split_for(40) == (50, 30, 20)
    assert prizes.percents([(4,), (2,), (0,), (0,)]) == [50, 30, 10, 10]
    assert prizes.percents([(4,), (2,), (2,), (2,)]) == [50, Fraction(50, 3), Fraction(50, 3), Fraction(50, 3)]
    assert prizes.percents([(4,), (4,)]) == [50, 50]
    assert prizes.whole_weights(prizes.percents([(4,), (2,), (2,), (2,)])) == [150, 50, 50, 50]


@pytest.mark.django_db(transaction=True)
def test_two_finishing_tasks_racing_pay_the_prizes_once():
    tournament, players = five_in_an_arena()
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    outcomes = race(2, lambda _i: services.settle(tournament.pk))
    assert [kind for kind, _result in outcomes] == ["ok", "ok"]
    assert sum(1 for _kind, result in outcomes if result is not None) == 1
    assert Payout.objects.count() == 1 and Entry.objects.filter(kind="payout").count() == 4
    assert sum(balance(p) for p in players) == 5 * 1000  # every coin of the pool was paid out
    assert_ledger_sound()


@pytest.mark.django_db
def test_cancelling_gives_every_fee_back():
    tournament, players = five_in_an_arena()
    services.cancel(tournament.pk)
    assert [balance(p) for p in players] == [1000] * 5
    services.tick(now=end_of(tournament))
    assert not Payout.objects.exists()
