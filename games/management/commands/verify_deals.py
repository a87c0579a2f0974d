"""`python manage.py verify_deals RECORD.json FAIRNESS.json`: was every deal the deal committed?

Recomputes each deal's commitment from the downloaded game record and the
revealed salt (docs/fairness.md) and prints one line per deal. Exit status 0
when every deal of the record is verified, 1 otherwise (a deal that does not
match, a deal not revealed yet, a commitment missing) and 2 for unreadable files.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.fairness import (
    MISMATCH,
    NO_COMMITMENT,
    NO_DEAL,
    NOT_REVEALED,
    FairnessInputError,
    all_verified,
    check_deals,
)

VERDICTS = {
    MISMATCH: "DOES NOT MATCH its commitment",
    NOT_REVEALED: "not revealed yet (the deal is still being played)",
    NO_COMMITMENT: "has no commitment in the fairness file",
    NO_DEAL: "has a commitment but is not in the record",
}


def _load(path: str, what: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as exc:
        raise CommandError(f"cannot read the {what} file {path}: {exc.strerror}", returncode=2) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CommandError(f"the {what} file {path} is not JSON: {exc}", returncode=2) from None


class Command(BaseCommand):
    help = "Check that every deal in a game record is the deal the site committed to before it started."

    def add_arguments(self, parser):
        parser.add_argument("record", help="the game record (record.json, joker-record/1)")
        parser.add_argument("fairness", help="the match's fairness.json")

    def handle(self, *args, **options):
        record = _load(options["record"], "record")
        fairness = _load(options["fairness"], "fairness")
        try:
            checks = check_deals(record, fairness)
        except FairnessInputError as exc:
            raise CommandError(str(exc), returncode=2) from None
        for check in checks:
            if check.verified:
                self.stdout.write(f"deal {check.number}: verified, sha256 {check.computed}")
            else:
                line = f"deal {check.number}: {VERDICTS[check.status]}"
                if check.status == MISMATCH:
                    line += f" (committed {check.commitment}, the record's deal gives {check.computed})"
                self.stdout.write(line)
        ok = all_verified(checks)
        verified = sum(c.verified for c in checks)
        self.stdout.write(f"{verified} of {len(checks)} deals verified" + ("" if ok else ": CHECK FAILED"))
        if not ok:
            raise CommandError("not every deal was verified", returncode=1)
