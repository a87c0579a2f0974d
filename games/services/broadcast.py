"""Tell connected consumers that something moved; each one renders its own view.

Messages carry no cards and no per-seat state, only "what changed" and the new
version: a consumer that misses one (channel layers deliver at most once)
catches up on the next, or when its client resyncs.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a broadcast failure must never undo a committed move
        log.exception("broadcast to %s failed", group)


def lobby_changed() -> None:
    _send(LOBBY_GROUP, {"type": "lobby.changed"})


def table_changed(table_id: int, version: int | None = None) -> None:
    # The table id lets a connection that follows several tables (the JSON protocol) tell them apart.
    _send(table_group(table_id), {"type": "table.changed", "table": table_id, "version": version})
