"""Celery beat's hourly retiring of idle guests (accounts/guests.py)."""

from celery import shared_task

from . import guests


@shared_task(ignore_result=True)
def retire_idle_guests() -> int:
    return guests.retire_idle_guests()
