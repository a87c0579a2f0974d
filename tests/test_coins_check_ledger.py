"""`manage.py check_ledger` is clean on a sound ledger and names the account on any mismatch."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from coins_helpers import make_staff, make_user
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.models import F

from coins import services
from coins.integrity import find_problems
from coins.models import Account, Stake

ROOT = Path(__file__).resolve().parent.parent


def play_a_little():
    a, b, c = make_user(), make_user(), make_user()
    for player in (a, b, c):
        services.stake(player, "table:1", 25)
    services.pay_out("table:1", [a, b], "match:1")  # 75 -> 37 + 37, 1 to the house
    services.stake(c, "table:2", 50)
    services.staff_adjust(c, 5, "apology", make_staff())
    return a, b, c


def run_check():
    out, err = StringIO(), StringIO()
    call_command("check_ledger", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_a_sound_ledger_checks_clean():
    play_a_little()
    out, _ = run_check()
    assert out.startswith("Ledger OK:")
    assert "coins in circulation" in out


@pytest.mark.django_db
@pytest.mark.corrupts_ledger
def test_a_corrupted_wallet_balance_is_named():
    a, _, _ = play_a_little()
    Account.objects.filter(user=a).update(balance=F("balance") + 7)
    with pytest.raises(CommandError):
        run_check()
    problems = find_problems()
    key = f"wallet:{a.pk}"
    assert any(key in p and "entries add up to 1012" in p and "1019" in p for p in problems), problems
    assert any(p.startswith("global sum: all balances add up to 7") for p in problems), problems


@pytest.mark.django_db
@pytest.mark.corrupts_ledger
def test_an_escrow_that_disagrees_with_its_stakes_is_named():
    _, _, _c = play_a_little()
    Stake.objects.filter(escrow__key="table:2").update(state=Stake.State.REFUNDED)
    problems = find_problems()
    named = [p for p in problems if p.startswith("escrow table:2") and "stakes held in it add up to 0" in p]
    assert named, problems


@pytest.mark.django_db
@pytest.mark.corrupts_ledger
def test_coins_moved_into_the_house_without_an_entry_are_named():
    play_a_little()
    Account.objects.filter(key="house").update(balance=F("balance") + 100)
    problems = find_problems()
    assert any(p.startswith("account house") for p in problems), problems


@pytest.mark.django_db(transaction=True)
@pytest.mark.corrupts_ledger
@pytest.mark.skipif(connection.vendor != "postgresql", reason="runs the command against the test database")
def test_the_command_exits_non_zero_and_says_where():
    a, _, _ = play_a_little()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    db = connection.settings_dict
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    command = [sys.executable, "manage.py", "check_ledger"]

    clean = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert clean.returncode == 0, clean.stderr
    assert "Ledger OK" in clean.stdout

    with transaction.atomic():
        Account.objects.filter(user=a).update(balance=F("balance") - 12)
    broken = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert broken.returncode != 0
    assert f"MISMATCH account wallet:{a.pk}" in broken.stderr
    assert "ledger check failed" in broken.stderr
