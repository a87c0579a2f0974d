"""Checks that the ledger adds up. Used by `manage.py check_ledger` and the tests."""

from collections import defaultdict

from django.db import connection, transaction
from django.db.models import Count, Max, Sum

from .models import Account, Entry, EntryKind, Payout, Stake

ISSUING_KINDS = {EntryKind.WELCOME_GRANT, EntryKind.DAILY_BONUS, EntryKind.STAFF_ADJUSTMENT}


def find_problems():
    """Return a list of sentences, one per mismatch; empty when the ledger is sound.

    Read in one REPEATABLE READ snapshot on PostgreSQL so that coins moving while
    the check runs cannot show up as a false mismatch."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _find_problems()


def _find_problems():
    problems = []
    credited = defaultdict(int, _grouped(Entry.objects.all(), "credit", Sum("amount")))
    debited = defaultdict(int, _grouped(Entry.objects.all(), "debit", Sum("amount")))
    last_after = _last_balance_after_by_account()
    held = defaultdict(int, _grouped(Stake.objects.filter(state=Stake.State.HELD), "escrow", Sum("amount")))

    total = 0
    mint_balance = 0
    for account in Account.objects.order_by("pk"):
        total += account.balance
        from_entries = credited[account.pk] - debited[account.pk]
        if account.balance != from_entries:
            problems.append(
                f"account {account.key} (id {account.pk}): stored balance {account.balance} "
                f"but its entries add up to {from_entries}"
            )
        if account.pk in last_after and last_after[account.pk] != account.balance:
            problems.append(
                f"account {account.key} (id {account.pk}): stored balance {account.balance} "
                f"but its latest entry left it at {last_after[account.pk]}"
            )
        if account.kind == Account.Kind.MINT:
            mint_balance += account.balance
        elif account.balance < 0:
            problems.append(f"account {account.key} (id {account.pk}): negative balance {account.balance}")
        if account.kind == Account.Kind.ESCROW and account.balance != held[account.pk]:
            problems.append(
                f"escrow {account.key} (id {account.pk}): balance {account.balance} "
                f"but the stakes held in it add up to {held[account.pk]}"
            )
    if total != 0:
        problems.append(f"global sum: all balances add up to {total}, not 0 (coins were created or lost)")

    problems.extend(_issuance_problems(mint_balance))
    problems.extend(_payout_problems())
    problems.extend(_entry_problems())
    return problems


def _last_balance_after_by_account():
    """The balance each account's most recent entry left it at."""
    latest = defaultdict(int)
    for side in ("debit", "credit"):
        for account_id, entry_id in _grouped(Entry.objects.all(), side, Max("id")).items():
            latest[account_id] = max(latest[account_id], entry_id)
    last = {}
    for entry in Entry.objects.filter(id__in=set(latest.values())):
        if latest[entry.debit_id] == entry.id:
            last[entry.debit_id] = entry.debit_balance_after
        if latest[entry.credit_id] == entry.id:
            last[entry.credit_id] = entry.credit_balance_after
    return last


def _grouped(queryset, field, aggregate):
    """{value of `field`: aggregate} computed by the database."""
    return dict(queryset.values(field).annotate(result=aggregate).values_list(field, "result"))


def _issuance_problems(mint_balance):
    """Coins enter or leave circulation only through the mint, and only by a
    recorded grant or staff adjustment."""
    problems = []
    mint_ids = list(Account.objects.filter(kind=Account.Kind.MINT).values_list("pk", flat=True))
    for entry in Entry.objects.filter(debit_id__in=mint_ids).exclude(kind__in=ISSUING_KINDS)[:10]:
        problems.append(f"entry {entry.pk}: a {entry.kind} issued coins out of the mint")
    for entry in Entry.objects.filter(credit_id__in=mint_ids).exclude(kind=EntryKind.STAFF_ADJUSTMENT)[:10]:
        problems.append(f"entry {entry.pk}: a {entry.kind} sent coins into the mint")
    issued = Entry.objects.filter(debit_id__in=mint_ids).aggregate(total=Sum("amount"))["total"] or 0
    withdrawn = Entry.objects.filter(credit_id__in=mint_ids).aggregate(total=Sum("amount"))["total"] or 0
    if -mint_balance != issued - withdrawn:
        problems.append(
            f"mint: {-mint_balance} coins in circulation but grants and adjustments "
            f"recorded {issued - withdrawn}"
        )
    return problems


def _payout_problems():
    problems = []
    paid = _grouped(Entry.objects.filter(payout__isnull=False), "payout", Sum("amount"))
    for payout in Payout.objects.order_by("pk"):
        if payout.shared_out + payout.remainder != payout.pot:
            problems.append(
                f"payout {payout.key}: shares and remainder do not add up to the pot {payout.pot}"
            )
        if paid.get(payout.pk, 0) != payout.pot:
            problems.append(
                f"payout {payout.key}: pot {payout.pot} but its entries paid {paid.get(payout.pk, 0)}"
            )
    return problems


def _entry_problems():
    problems = []
    keyed = Entry.objects.exclude(idempotency_key=None)
    for key, count in _grouped(keyed, "idempotency_key", Count("id")).items():
        if count < 2:
            continue
        problems.append(f"entry key {key} used {count} times")
    bad = Entry.objects.filter(amount__lte=0).values_list("pk", flat=True)[:10]
    for pk in bad:
        problems.append(f"entry {pk}: amount is not positive")
    return problems


def summary():
    """Figures for the check command's success line."""
    mint = Account.objects.filter(kind=Account.Kind.MINT).aggregate(total=Sum("balance"))["total"] or 0
    return {
        "accounts": Account.objects.count(),
        "entries": Entry.objects.count(),
        "circulating": -mint,
        "payouts": Payout.objects.count(),
    }
