"""The Celery app. Broker: Redis when REDIS_URL is set, else a folder on disk
(kombu's filesystem transport) so `make run` needs no outside service."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "joker_site.settings")

app = Celery("joker_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
