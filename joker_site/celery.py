"""The Celery app. Broker: Redis when REDIS_URL is set, else a folder on disk
(kombu's filesystem transport) so `make run` needs no outside service.

The worker keeps its database connections from task to task (settings:
`CELERY_DB_REUSE_MAX`, so Celery's Django fix-up does not close them around every
task); after a task, a connection that broke is closed here, so the next task
opens a fresh one instead of failing on it.

A task that fails because the database is away (PostgreSQL restarting) is skipped with one
line for the whole outage, and one when a task finds the database again
(joker_site/db_outage.py), not a traceback a second from beat's `tick`: every periodic task
is a sweep the next run repeats, and a push is a courtesy."""

import os

from celery import Celery, Task
from celery.signals import task_postrun, worker_process_shutdown, worker_shutdown

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "joker_site.settings")


class SkippedWhileDatabaseAway(Task):
    """Every task of the site: one run the database's absence stopped is skipped and said
    once per outage (an eager run, inside its caller's work, fails as it would)."""

    def __call__(self, *args, **kwargs):
        from .db_outage import is_database_away, outage

        try:
            result = super().__call__(*args, **kwargs)
        except Exception as exc:
            if self.request.is_eager or not is_database_away(exc):
                raise
            outage.noted(exc, f"task {self.name}", "the worker's tasks are skipped until it is back")
            return None
        outage.check_back()
        return result


app = Celery("joker_site", task_cls=SkippedWhileDatabaseAway)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_postrun.connect
def close_broken_database_connections(sender=None, **kwargs):
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # an eager task runs in its caller's connection and transaction
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.connection is None or not connection.errors_occurred:
            continue
        if connection.is_usable():
            connection.errors_occurred = False  # an error in a query, not in the connection
        else:
            connection.close()


@worker_process_shutdown.connect
@worker_shutdown.connect
def close_database_connections(**kwargs):
    """A stopping worker says goodbye to PostgreSQL rather than leave it to notice the closed socket
    (a database dropped right after, as by the tests, would still count the session)."""
    from django.db import connections

    connections.close_all()
