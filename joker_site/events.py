"""Sending notices to channel-layer groups from synchronous code: the one way out of a
change to the sockets of every process (the Redis layer in production, the embedded
layer under `make run`).

A change sends its notices once it commits (`group_send_on_commit`); consumers in
any process hear them through their groups. The apps name their own groups
(games/services/broadcast.py: tables and the lobby; accounts/sockets.py: a member's
sockets); this module only carries the messages, and never fails a committed change.
"""

import asyncio
import logging
import os
import threading

from asgiref.sync import AsyncToSync, SyncToAsync
from channels.layers import get_channel_layer
from django.db import transaction
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)

_in_flight = set()  # the notices handed to the server's loop and not yet sent (a task needs a reference)
_in_flight_lock = threading.Lock()

_layer_away = threading.Event()  # set while the channel layer's Redis cannot be reached

# The notices a send could not hand to Redis, sent again every RETRY_SECONDS until they go:
# the latest of each kind per group (a table's newer version says all an older one did).
# The sockets also catch up when this process's own subscriptions come back
# (joker_site/channel_layer.py), but a notice from this process to the others' sockets,
# lost after they had caught up (the publishing connection is found broken only when it is
# used), reached nobody until the sweep.
RETRY_SECONDS = 0.5
LOST_KEPT = 10_000
_lost: dict = {}  # (group, message type) -> (group, message)
_lost_lock = threading.Lock()
_retry_timer = None


_retry_loop = None  # the server's loop a lost notice was met on: the retries are sent there too


def _keep_lost(group: str, message: dict) -> None:
    global _retry_timer, _retry_loop
    with _lost_lock:
        _retry_loop = _running_loop() or _retry_loop
        key = (group, message.get("type"))
        if key in _lost or len(_lost) < LOST_KEPT:
            _lost[key] = (group, message)
        if _retry_timer is None:
            _retry_timer = threading.Timer(RETRY_SECONDS, _send_lost_again)
            _retry_timer.daemon = True
            _retry_timer.start()


def _send_lost_again() -> None:
    """On the timer's thread: hand the kept notices to the server's loop they were lost on
    (a loop of their own per retry would open the layer's connections anew each time), or
    send them on a loop of their own in a worker or a script. What fails again is kept again."""
    global _retry_timer
    with _lost_lock:
        _retry_timer = None
        again = list(_lost.values())
        _lost.clear()
        loop = _retry_loop
    if loop is not None and loop.is_running():
        layer = get_channel_layer()
        for group, message in again:
            _hand_to_loop(loop, layer, group, message)
    else:
        _send_all(again)


def _note_outcome(group: str, message: dict, error: BaseException | None) -> None:
    """A send's outcome. Redis away is said once until a send succeeds again, not a traceback
    per notice, and the notice is kept to be sent again; any other failure is logged whole."""
    if error is None:
        if _layer_away.is_set():
            _layer_away.clear()
            log.warning("notices reach the channel layer again")
        return
    if isinstance(error, ConnectionError | OSError | RedisConnectionError):
        if not _layer_away.is_set():
            _layer_away.set()
            log.warning("notices wait while the channel layer cannot be reached (%s)", error)
        _keep_lost(group, message)
        return
    log.error("broadcast to %s failed", group, exc_info=error)


def group_send(group: str, message: dict) -> None:
    """Send a notice to any group from synchronous code (a view, a task, a thread of the server)."""
    _send_all([(group, message)])


def group_send_on_commit(group: str, message: dict) -> None:
    """Send a notice once the current transaction commits (at once outside one): what a
    change announces is never seen before the change itself, and never if it rolls back."""
    transaction.on_commit(lambda: group_send(group, message))


def _send_all(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    loop = _server_loop()
    if loop is not None:
        for group, message in messages:
            _hand_to_loop(loop, layer, group, message)
        return
    # A Celery worker, a script, or a server thread while the server stops: send on a
    # loop of its own and wait. (Plain async_to_sync would hand the send to the server's
    # stopped loop, which never runs it: the thread, and the process's exit, hung.)
    async def send_each():
        for group, message in messages:
            try:
                await layer.group_send(group, message)
            except Exception as exc:  # noqa: BLE001 (logged there) a broadcast failure must never undo a committed move
                _note_outcome(group, message, exc)
            else:
                _note_outcome(group, message, None)

    def send_and_wait():
        try:
            AsyncToSync(send_each, force_new_loop=True)()
        except Exception:
            log.exception("broadcasting %s notices failed", len(messages))

    if _loop_runs_in_this_thread():
        # Synchronous code called from inside some other event loop (a test driving a browser
        # through Playwright's sync API, a notebook): asgiref refuses to block that loop's
        # thread, so the send waits on a thread of its own.
        sender = threading.Thread(target=send_and_wait, name="broadcast")
        sender.start()
        sender.join()
    else:
        send_and_wait()


def _running_loop():
    """The event loop running in this thread, if any (a lost notice met in a server's send callback)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _loop_runs_in_this_thread() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _server_loop():
    """The web server's running event loop when this is one of its database threads, else None.

    Waiting there for the send (what async_to_sync does) holds the database
    thread until the busy loop gets round to it, tens of milliseconds under
    load, while the move is already committed."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return None if _loop_runs_in_this_thread() else loop  # else this thread runs a loop of its own


def _hand_to_loop(loop, layer, group: str, message: dict) -> None:
    """Send on the server's loop without waiting for it (the notice carries its version, so
    one arriving after a later one changes nothing)."""
    try:
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    except RuntimeError:  # the loop closed just now
        log.warning("broadcast to %s dropped: the server is stopping", group)
        return
    with _in_flight_lock:
        _in_flight.add(future)

    def sent(done):
        with _in_flight_lock:
            _in_flight.discard(done)
        if not done.cancelled():
            _note_outcome(group, message, done.exception())

    future.add_done_callback(sent)


