"""Racing threads on the real PostgreSQL, each with its own connection: the
ledger must never overspend, double-pay, lose or invent a coin, and must not
deadlock."""

import random

import pytest
from coins_helpers import assert_ledger_sound, in_caller_transaction, make_user, race, set_balance
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection

from coins import services
from coins.models import Account, Entry, EntryKind, Payout, Stake

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are what is under test"),
]


def outcomes(results):
    return [kind for kind, _ in results]


def errors(results):
    return [value for kind, value in results if kind == "error"]


def test_joining_several_tables_at_once_with_money_for_one_seats_exactly_once():
    for round_ in range(5):
        user = make_user()
        set_balance(user, 300)
        for i in range(4):
            services.escrow_account(f"table:r{round_}-{i}")
        results = race(
            4, lambda i: in_caller_transaction(lambda: services.stake(user, f"table:r{round_}-{i}", 250))
        )
        assert outcomes(results).count("ok") == 1, results
        assert all(isinstance(e, services.InsufficientFunds) for e in errors(results)), results
        assert services.balance_of(user) == 50
        assert Stake.objects.filter(wallet__user=user, state="held").count() == 1
    assert_ledger_sound()


def test_the_same_join_clicked_in_two_tabs_charges_once():
    user = make_user()
    services.escrow_account("table:tabs")  # the table exists before the clicks
    results = race(2, lambda i: in_caller_transaction(lambda: services.stake(user, "table:tabs", 100).pk))
    assert outcomes(results) == ["ok", "ok"]
    assert results[0][1] == results[1][1]
    assert services.balance_of(user) == 900
    assert_ledger_sound()


def test_ten_concurrent_payouts_of_one_match_pay_it_once():
    winner, loser = make_user(), make_user()
    for player in (winner, loser):
        services.stake(player, "table:pay", 250)
    services.seal("table:pay")
    services.house_account()  # exists on any live site; its creation must not serialize the race
    results = race(
        10, lambda i: in_caller_transaction(lambda: services.pay_out("table:pay", [winner], "match:1").pk)
    )
    assert outcomes(results) == ["ok"] * 10, results
    assert len({payout_id for _, payout_id in results}) == 1
    assert Payout.objects.filter(key="match:1").count() == 1
    assert Entry.objects.filter(kind=EntryKind.PAYOUT).count() == 1
    assert services.balance_of(winner) == 1250
    assert_ledger_sound()


def test_five_concurrent_bonus_claims_grant_one_bonus():
    user = make_user()
    set_balance(user, 10)
    results = race(5, lambda i: in_caller_transaction(lambda: services.claim_daily_bonus(user)))
    assert outcomes(results).count("ok") == 1, results
    assert all(isinstance(e, services.BonusNotAvailable) for e in errors(results)), results
    assert services.balance_of(user) == 110
    assert_ledger_sound()


def test_a_wallet_opened_and_its_grant_paid_from_several_requests_at_once_pay_one_welcome_grant():
    # bulk_create sends no post_save: the wallet is opened on first use instead.
    (user,) = get_user_model().objects.bulk_create([get_user_model()(username="late-wallet")])
    results = race(5, lambda i: in_caller_transaction(lambda: services.wallet_for(user).pk))
    assert outcomes(results) == ["ok"] * 5, results
    assert len({wallet_id for _, wallet_id in results}) == 1
    assert not Entry.objects.filter(kind=EntryKind.WELCOME_GRANT, credit__user=user).exists()
    results = race(5, lambda i: in_caller_transaction(lambda: services.pay_welcome_grant(user) is not None))
    assert outcomes(results) == ["ok"] * 5, results
    assert sorted(paid for _, paid in results) == [False] * 4 + [True]
    assert Entry.objects.filter(kind=EntryKind.WELCOME_GRANT, credit__user=user).count() == 1
    assert services.balance_of(user) == 1000
    assert_ledger_sound()


def test_payouts_of_different_matches_into_one_wallet_lose_nothing():
    champion = make_user()
    opponents = [make_user() for _ in range(6)]
    for i, opponent in enumerate(opponents):
        services.stake(champion, f"table:multi{i}", 25)
        services.stake(opponent, f"table:multi{i}", 25)
    results = race(6, lambda i: services.pay_out(f"table:multi{i}", [champion], f"match:multi{i}"))
    assert outcomes(results) == ["ok"] * 6, results
    assert services.balance_of(champion) == 1000 - 6 * 25 + 6 * 50
    assert_ledger_sound()


def test_standing_up_while_the_match_is_aborted_refunds_the_stake_once():
    for round_ in range(5):
        a, b = make_user(), make_user()
        key = f"table:abort{round_}"
        services.stake(a, key, 100)
        services.stake(b, key, 100)
        race(2, lambda i: services.refund_stake(a, key) if i == 0 else services.refund_all(key, "system"))
        assert services.balance_of(a) == services.balance_of(b) == 1000
        assert Account.objects.get(key=key).balance == 0
    assert_ledger_sound()


def test_a_payout_racing_an_abort_settles_the_pot_one_way_only():
    for round_ in range(5):
        a, b = make_user(), make_user()
        key = f"table:either{round_}"
        services.stake(a, key, 50)
        services.stake(b, key, 50)
        results = race(2, lambda i: services.pay_out(key, [a], f"match:either{round_}") if i == 0
                       else services.refund_all(key, "system"))
        balances = (services.balance_of(a), services.balance_of(b))
        if results[0][0] == "ok":  # paid first: the abort found nothing left to refund
            assert balances == (1050, 950) and results[1] == ("ok", [])
        else:  # aborted first: the payout found no stake in the pot
            assert isinstance(results[0][1], services.NotStaked) and balances == (1000, 1000)
    assert_ledger_sound()


def test_a_storm_of_random_operations_keeps_every_invariant_and_never_deadlocks():
    players = [make_user() for _ in range(6)]
    tables = [f"table:storm{i}" for i in range(3)]
    grants_before = -services.mint_account().balance

    def storm(seed):
        rng = random.Random(seed)
        unexpected = []
        for step in range(25):
            player = rng.choice(players)
            table = rng.choice(tables)
            try:
                action = rng.randrange(5)
                if action == 0:
                    services.stake(player, table, 25)
                elif action == 1:
                    services.refund_stake(player, table)
                elif action == 2:
                    services.pay_out(table, rng.sample(players, rng.randint(1, 2)), f"match:{seed}-{step}")
                elif action == 3:
                    services.refund_all(table, "system")
                else:
                    services.claim_daily_bonus(player)
            except services.LedgerError:
                pass  # refusals are fine; they changed nothing
            except OperationalError as error:  # a deadlock would land here
                unexpected.append(error)
        return unexpected

    results = race(6, storm)
    assert outcomes(results) == ["ok"] * 6, results
    assert [problem for _, found in results for problem in found] == []
    assert_ledger_sound()
    # Coins in play changed only by recorded grants (daily bonuses here).
    bonuses = sum(Entry.objects.filter(kind=EntryKind.DAILY_BONUS).values_list("amount", flat=True))
    assert -services.mint_account().balance == grants_before + bonuses
