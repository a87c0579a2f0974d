from django.core.management.base import BaseCommand, CommandError

from coins.integrity import find_problems, summary


class Command(BaseCommand):
    help = (
        "Verify the Domino Coin ledger: every stored balance against its entries, "
        "no negative balance outside the mint, escrows against the stakes they hold, "
        "payouts against their pots, and the global sum of all accounts (always 0). "
        "Exits with status 1 and names each account on any mismatch."
    )

    def handle(self, *args, **options):
        problems = find_problems()
        if problems:
            for problem in problems:
                self.stderr.write(f"MISMATCH {problem}")
            raise CommandError(f"ledger check failed: {len(problems)} problem(s)")
        figures = summary()
        self.stdout.write(
            "Ledger OK: {accounts} accounts, {entries} entries, {payouts} payouts, "
            "{circulating} coins in circulation.".format(**figures)
        )
