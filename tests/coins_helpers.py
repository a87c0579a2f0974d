"""Shared helpers for the coins tests (not a test module)."""

import itertools
import threading
import time

from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction

from coins import services
from coins.integrity import find_problems

_serial = itertools.count()


def make_user(prefix="player", confirmed=True, **extra):
    """A member; `confirmed` (the default) has confirmed an e-mail address, so holds the welcome grant."""
    from tests.factories import confirm_email

    user = get_user_model().objects.create_user(username=f"{prefix}{next(_serial)}", password=None, **extra)
    if confirmed:
        confirm_email(user)
    return user


def make_staff():
    return make_user("staff", is_staff=True)


def set_balance(user, target):
    """Bring a wallet to `target` coins the only way coins move: a staff entry."""
    current = services.balance_of(user)
    if current != target:
        services.staff_adjust(user, target - current, "test set-up", make_staff())
    assert services.balance_of(user) == target


def assert_ledger_sound():
    problems = find_problems()
    assert problems == [], "\n".join(problems)


def race(count, action):
    """Run action(i) in `count` threads released at the same instant; each
    thread has its own database connection, closed when it ends. Returns
    [("ok", result) | ("error", exception)] in thread order."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i):
        try:
            # Connect first, so that opening connections does not stagger the start.
            connection.ensure_connection()
            barrier.wait(timeout=30)
            results[i] = ("ok", action(i))
        except Exception as error:  # the caller asserts on every outcome
            results[i] = ("error", error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a racing thread hung (deadlock?)"
    return results


def in_caller_transaction(action, linger=0.05):
    """Run `action` the way the tables code will: inside its own transaction,
    which goes on with other work (here: waits) before it commits."""
    with transaction.atomic():
        result = action()
        time.sleep(linger)
        return result
