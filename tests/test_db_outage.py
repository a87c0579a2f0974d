"""Which failures mean the database is away (answered `unavailable`, said once per outage:
joker_site/db_outage.py), and that an outage is logged once when it begins and once when it
ends, however many calls fail meanwhile."""

import logging

import psycopg
import pytest
from django.db import connection
from django.db.utils import OperationalError

from joker_site.db_outage import _Outage, is_database_away


def _as_django_raises(inner):
    """`inner` wrapped the way Django's cursor wraps a driver's error."""
    try:
        try:
            raise inner
        except psycopg.Error as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError as wrapped:
        return wrapped


@pytest.mark.parametrize("failure", [
    _as_django_raises(psycopg.errors.AdminShutdown("terminating connection due to administrator command")),
    _as_django_raises(psycopg.OperationalError("connection refused")),
    psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly"),
    psycopg.InterfaceError("the connection is closed"),
])
def test_a_lost_or_refused_connection_is_the_database_away(failure):
    assert is_database_away(failure)


@pytest.mark.parametrize("failure", [
    _as_django_raises(psycopg.errors.DeadlockDetected("deadlock detected")),
    _as_django_raises(psycopg.errors.SerializationFailure("could not serialize access")),
    _as_django_raises(psycopg.errors.QueryCanceled("canceling statement due to statement timeout")),
    ValueError("a fault of ours"),
])
def test_a_refused_statement_or_a_fault_of_ours_is_not(failure):
    assert not is_database_away(failure)


@pytest.mark.django_db
def test_an_outage_is_logged_once_when_it_begins_and_once_when_it_ends(caplog):
    outage = _Outage()
    failure = psycopg.OperationalError("connection refused")
    with caplog.at_level(logging.WARNING, logger="joker_site.db_outage"):
        outage.check_back()  # no outage: nothing to say
        generation = outage.generation
        for _call in range(50):
            outage.noted(failure, "_act")
        connection.ensure_connection()  # a call that reached the database: the outage is over
        outage.check_back()
        outage.check_back()
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2, lines
    assert lines[0].startswith("the database cannot be reached (_act: connection refused)")
    assert "calls were answered `unavailable`" in lines[1] and "; 50 calls" in lines[1]
    assert outage.generation == generation + 1  # the threads drop their older connections once
    assert not [record for record in caplog.records if record.exc_info]


@pytest.mark.django_db
def test_a_worker_task_the_database_away_stopped_is_skipped_with_one_line_and_a_fault_still_raises(
        caplog, monkeypatch):
    """Beat runs `games.tasks.tick` every second: while PostgreSQL restarted, each run's traceback
    filled the worker's log. A run stopped by the database away is skipped (the next repeats it);
    any other failure raises as before."""
    from games import tasks
    from games.services import clocks
    from joker_site.db_outage import outage

    def database_away(**actions):
        raise _as_django_raises(psycopg.errors.AdminShutdown("terminating connection due to administrator command"))

    monkeypatch.setattr(outage, "began", None)
    monkeypatch.setattr(clocks, "tick", database_away)
    with caplog.at_level(logging.WARNING, logger="joker_site.db_outage"):
        assert tasks.tick() is None
        assert tasks.tick() is None
        monkeypatch.setattr(clocks, "tick", lambda **actions: {"moved": 0})
        connection.ensure_connection()
        assert tasks.tick() == {"moved": 0}
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2, lines
    assert lines[0].startswith("the database cannot be reached (task games.tasks.tick: terminating connection")
    assert lines[0].endswith("the worker's tasks are skipped until it is back")
    assert lines[1].startswith("the database is back after")
    assert not [record for record in caplog.records if record.exc_info]

    def fault_of_ours(**actions):
        raise ValueError("a fault of ours")

    monkeypatch.setattr(clocks, "tick", fault_of_ours)
    with pytest.raises(ValueError):
        tasks.tick()
    with pytest.raises(OperationalError):  # an eager run (inside its caller's work) fails as it would
        monkeypatch.setattr(clocks, "tick", database_away)
        tasks.tick.apply(throw=True).get()
