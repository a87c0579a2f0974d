"""Celery beat's sweep of members' pages held by web processes that stopped beating."""

from celery import shared_task

from . import presence


@shared_task(ignore_result=True)
def sweep_presence() -> int:
    return presence.sweep_lapsed()
