"""Domino Coin tournaments (tournaments/services.py, coins/): the entry fee is held once when
joining (refused clearly, changing nothing, when the wallet is short); when the arena ends the
fee of whoever played no match comes back and the pool is shared by the first three exactly
once, also under a doubled finishing task racing in two threads; cancelling refunds every fee."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coins import services as coins
from coins.models import Entry, Payout
from games import live
from games.models import Match
from tests.coins_helpers import race, set_balance
from tests.factories import make_player
from tournaments import services
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
def test_the_end_refunds_who_never_played_and_pays_the_first_three_once():
    tournament, (ana, giorgi, nino, dato, eka) = five_in_an_arena()
    services.tick(now=end_of(tournament))
    services.tick(now=end_of(tournament))  # a doubled tick
    assert services.settle(tournament.pk) is None  # and a doubled finishing task
    pot = 4 * FEE  # eka's fee went back
    share = pot // 3
    assert {p.user.username: balance(p) for p in (ana, giorgi, nino, dato, eka)} == {
        "ana": 1000 - FEE + share, "nino": 1000 - FEE + share, "giorgi": 1000 - FEE + share,
        "dato": 1000 - FEE, "eka": 1000}
    assert Payout.objects.count() == 1 and Entry.objects.filter(kind="payout").count() == 3
    tournament.refresh_from_db()
    assert tournament.settled


@pytest.mark.django_db(transaction=True)
def test_two_finishing_tasks_racing_pay_the_prizes_once():
    tournament, players = five_in_an_arena()
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    outcomes = race(2, lambda _i: services.settle(tournament.pk))
    assert [kind for kind, _result in outcomes] == ["ok", "ok"]
    assert sum(1 for _kind, result in outcomes if result is not None) == 1
    assert Payout.objects.count() == 1 and Entry.objects.filter(kind="payout").count() == 3
    assert sum(balance(p) for p in players) == 5 * 1000 - (4 * FEE) % 3  # the remainder went to the house


@pytest.mark.django_db
def test_cancelling_gives_every_fee_back():
    tournament, players = five_in_an_arena()
    services.cancel(tournament.pk)
    assert [balance(p) for p in players] == [1000] * 5
    services.tick(now=end_of(tournament))
    assert not Payout.objects.exists()
