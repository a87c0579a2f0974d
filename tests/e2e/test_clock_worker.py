"""The move clock end to end: a real Celery worker (the one the live site runs,
on the Redis broker) makes the move when a player's time runs out."""

import time

import pytest

from games.models import Match
from games.services import tables as table_service
from games.services.tables import TableSettings
from tests.factories import make_player

pytestmark = pytest.mark.e2e


def test_real_worker_makes_the_move_when_the_clock_runs_out(live_site):
    tamar, levan = make_player("clock_tamar"), make_player("clock_levan")
    table = table_service.create_table(tamar, TableSettings(variant="japanese", clock_seconds=1))
    table_service.sit(table.pk, levan)  # the match starts; its clock task goes to the broker
    match = Match.objects.get(table=table)
    assert match.version == 1
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.version >= 2:
            break
        time.sleep(0.5)
    assert match.version >= 2, "no worker made the timed-out move"
    trump_choice = match.record["deals"][0]["actions"][0]
    assert "trump" in trump_choice
