"""The database away (PostgreSQL stopped, restarting, or its connections terminated): what a
socket answers and what the log says.

A call on the sockets' database threads (joker_site/db_threads.py) that fails because the
database cannot be reached raises `DatabaseUnavailable`, a refusal with the code
`unavailable` and a retry hint (`params["retry_after"]`, seconds): the JSON protocol sends it
as its `error`, a page shows its sentence. Nothing the server did not confirm was taken: a
move sent again with the same version is either taken then or refused as `stale_version`
(it was taken before the connection broke).

The log says it once per outage: one warning when the first call fails, and one line when a
call after it finds the database again (with how long it was away and how many answers were
`unavailable`), not a traceback per call. A thread's connection opened before an outage
began is closed at the thread's next call (the database may have ended it, and it would
fail at its first use, long after the database is back: another outage in the log, and
an `unavailable` nobody needed).
"""

import logging
import threading
import time

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import InterfaceError, OperationalError
from django.utils.translation import gettext_lazy

from .refusals import Refusal

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2


class DatabaseUnavailable(Refusal):
    code = "unavailable"

    def __init__(self):
        super().__init__(None, gettext_lazy("The server cannot reach its database just now. Try again in a few seconds."),
                         {"retry_after": RETRY_AFTER_SECONDS})


def is_database_away(exc: BaseException) -> bool:
    """Whether `exc` (or what caused it) is the database being unreachable, not a fault of ours:
    an OperationalError (refused, closed, terminated by the administrator) or an
    InterfaceError (a connection already closed), Django's or psycopg's."""
    chain = []
    while exc is not None and all(exc is not seen for seen in chain):
        chain.append(exc)
        exc = exc.__cause__ or exc.__context__
    if any(_database_is_there(getattr(link, "sqlstate", None) or "") for link in chain):
        return False  # a deadlock, a conflict, a statement cancelled or a lock refused: the database answered
    return any(isinstance(link, _AWAY) for link in chain)


try:  # psycopg's own, where Django does not wrap them (a pipeline's exit, a connection's close)
    import psycopg

    _AWAY = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
except ImportError:  # SQLite only
    _AWAY = (OperationalError, InterfaceError)


def _database_is_there(sqlstate: str) -> bool:
    """PostgreSQL's codes for a refusal of this statement or transaction (class 40: a deadlock,
    a serialization failure; 57014: cancelled; 55P03: a lock not available), not of the connection."""
    return sqlstate.startswith("40") or sqlstate in ("57014", "55P03")


class _Outage:
    def __init__(self):
        self._lock = threading.Lock()
        self.began = None  # time.monotonic() of the first failure, while the database is away
        self.answered = 0  # calls that failed since
        self.generation = 0  # counts the outages noticed: a connection opened before the last one may be dead

    def noted(self, exc: BaseException, where: str,
              meanwhile: str = "sockets answer `unavailable` until it is back") -> None:
        with self._lock:
            self.answered += 1
            if self.began is not None:
                return
            self.began = time.monotonic()
            self.generation += 1  # every thread's connection from before is dropped at its next call
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        log.warning("the database cannot be reached (%s: %s); %s", where, first_line, meanwhile)

    def check_back(self) -> None:
        """After a call that succeeded while an outage is noted, on its thread: the outage is over
        if the call holds a working connection (the thread dropped any it had from before the
        outage, so this one was opened since: the database answered)."""
        if self.began is None:
            return
        connection = connections[DEFAULT_DB_ALIAS]
        if connection.connection is None or connection.errors_occurred:
            return  # the call did not reach the database: nothing is known
        with self._lock:
            if self.began is None:
                return
            away, answered = time.monotonic() - self.began, self.answered
            self.began, self.answered = None, 0
        log.warning("the database is back after %.1f s; %d calls were answered `unavailable`", away, answered)


outage = _Outage()


def log_failure(logger, message, *args) -> None:
    """In an `except` block: the failure with its traceback, unless it is the database being
    away, which the outage's one line has said already."""
    import sys

    if is_database_away(sys.exc_info()[1]):
        return
    logger.exception(message, *args)
