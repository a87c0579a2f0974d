"""``python manage.py replay FILE [FILE ...]``: check game records against the rules.

Prints one line of JSON per file, in order (docs/record-format.md); exits 0 when
every file was accepted, 1 otherwise.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine import replay_text


class Command(BaseCommand):
    help = "Check joker-record/1 game records against the rules; one JSON verdict line per file."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args, files, **options):
        all_ok = True
        for name in files:
            try:
                with open(name, "rb") as f:
                    text = f.read()
            except OSError as e:
                verdict = {"ok": False, "deal": None, "action": None, "error": f"not_json: cannot read {name}: {e.strerror}"}
            else:
                verdict = replay_text(text)
            all_ok = all_ok and verdict["ok"]
            self.stdout.write(json.dumps(verdict, ensure_ascii=False))
        self.stdout.flush()
        if not all_ok:
            sys.exit(1)
