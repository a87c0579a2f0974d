"""A web process gets ready before it serves: everything it would otherwise do on first use
(import the URL patterns, compile the templates) is done at start-up, and then the garbage
collector is told that all of it lives for good.

First use was slow in the middle of play: the first link to a deal check that a process
drew (when a match's first deal ended) imported and indexed the URL patterns, 275 ms
during which every socket of the process waited; each template compiled on its first
render.

The heap of a Daphne process is mostly long-lived (Django, Channels, Twisted, the
compiled templates), and CPython's full collection walks all of it, about 1.5 objects a
microsecond on this machine: with the default settings it stopped the process for 100
to 225 ms every few seconds of play. Freezing what start-up made (over 120,000 objects)
takes it out of every later collection; what the process makes afterwards is collected
as before.
"""

import gc
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation


def settle() -> None:
    _index_urls()
    _compile_templates()
    gc.collect()  # nothing that is already garbage is frozen
    gc.freeze()


def _index_urls() -> None:
    # The language-prefixed patterns are indexed once per language.
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            get_resolver().reverse_dict  # noqa: B018 (reading it builds it)


# The apps whose templates the sockets draw (a page's templates compile on its first request).
SOCKET_APPS = ("games", "ratings", "chat", "notices", "quickplay", "conduct")


def _compile_templates() -> None:
    for label in SOCKET_APPS:
        folder = Path(apps.get_app_config(label).path) / "templates"
        for path in sorted(folder.rglob("*.html")):
            get_template(path.relative_to(folder).as_posix())
