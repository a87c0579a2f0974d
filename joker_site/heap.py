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

What play makes lives a little while (a table's read lasts until its next move, a seat's
view until it is sent), long enough to outlive CPython's first two generations at their
default sizes and count towards the next full collection. So a process at 100 closed-loop
tables still paused 120-250 ms about every ten seconds (15 full collections a web process
in a 90 s run). Larger generations (GC_THRESHOLDS) let those objects die of their
reference counts first: one full collection a process in the same run, and the same
resident memory (141 MB a process after 80 s either way).
"""

import atexit
import gc
import logging
import time
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

log = logging.getLogger(__name__)

LONG_PAUSE_MS = 100  # a full collection this long shows in what the players wait for: logged
GC_THRESHOLDS = (20_000, 50, 100)  # CPython's default is (700, 10, 10)


def settle() -> None:
    _index_urls()
    _compile_templates()
    gc.collect()  # nothing that is already garbage is frozen
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if _log_long_pauses not in gc.callbacks:
        gc.callbacks.append(_log_long_pauses)
        # At exit the log's stream may be closed already (a test run's captured stderr), and a
        # warning logged then is a "Logging error" traceback, not a figure anyone reads.
        atexit.register(_stop_logging_pauses)


def _stop_logging_pauses() -> None:
    if _log_long_pauses in gc.callbacks:
        gc.callbacks.remove(_log_long_pauses)


_pause_started = [0.0, 0.0]  # perf_counter and thread_time when the full collection began


def _log_long_pauses(phase, info) -> None:
    """Log each full collection that stopped the process for LONG_PAUSE_MS or more (with the
    CPU it took, the rest being the process put off the CPU, and how many objects it found
    to be garbage): what an operator reads when the players' waiting has spikes the CPU
    figures do not explain."""
    if info["generation"] != 2:
        return
    if phase == "start":
        _pause_started[0] = time.perf_counter()
        _pause_started[1] = time.thread_time()
        return
    paused_ms = (time.perf_counter() - _pause_started[0]) * 1000
    if paused_ms >= LONG_PAUSE_MS:
        cpu_ms = (time.thread_time() - _pause_started[1]) * 1000
        log.warning("a full garbage collection paused this process for %.0f ms (%.0f ms of CPU, %d objects "
                    "collected)", paused_ms, cpu_ms, info["collected"])


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
