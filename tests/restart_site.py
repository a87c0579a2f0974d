"""What tests/test_services_restart.py does inside the site's own environment (its private
PostgreSQL, which the test process's ORM does not reach): run as
`python -m tests.restart_site COMMAND JSON` with the site's environment, it prints JSON.

- `matches [{"names": [a, b], "clock_seconds": n}, ...]`: two members with access tokens and
  a Japanese match to 11 between them, for each; gives [{"table": id, "tokens": [..]}].
- `records [table ids]`: each table's match as stored (status, version, end, its actions in
  order, whether the engine replays its record), and the coin ledger's problems.
"""

import json
import sys


def matches(specs):
    from accounts.tokens import create_token
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from tests.factories import make_player

    made = []
    for spec in specs:
        players = [make_player(name) for name in spec["names"]]
        tokens = [create_token(player.user, "bot")[1] for player in players]
        table = table_service.create_table(players[0], TableSettings(
            variant="japanese", target=11, clock_seconds=spec.get("clock_seconds", 30), bank_seconds=0))
        table_service.sit(table.pk, players[1])
        made.append({"table": table.pk, "tokens": tokens})
    return made


def records(table_ids):
    from coins.integrity import find_problems
    from games import engine
    from games.models import Match, Seat

    out = {}
    for match in Match.objects.filter(table_id__in=table_ids):
        try:
            engine.state_from_record(match.record)
            replays = True
        except Exception as exc:
            replays = repr(exc)
        out[match.table_id] = {
            "status": match.status, "version": match.version, "end_reason": match.end_reason,
            "actions": [action for deal in match.record["deals"] for action in deal["actions"]],
            "replays": replays,
            "timeouts": {seat.index: seat.timeouts_in_row for seat in Seat.objects.filter(table_id=match.table_id)},
        }
    return {"matches": out, "ledger_problems": find_problems()}


if __name__ == "__main__":
    import django

    django.setup()
    command, argument = sys.argv[1], json.loads(sys.argv[2])
    print(json.dumps({"matches": matches, "records": records}[command](argument)))
