"""Tell connected consumers that something moved; each one renders its own view.

Messages carry no hidden card and no per-seat state, only "what changed" and the
new version; a plain move's notice also carries what the move changed (its
public actions and the clock fields, games/services/matches.py `_move_notice`),
so that a process holding the previous version need not read the match. A
consumer that misses one (channel layers deliver at most once) catches up on
the next, or when its client resyncs.
"""

from joker_site.events import _in_flight, _send_all, group_send  # noqa: F401  (the scripts' and tests' names)

LOBBY_GROUP = "lobby"
TABLE_GROUP_PREFIX = "table-"


def table_group(table_id: int) -> str:
    return f"{TABLE_GROUP_PREFIX}{table_id}"


def catch_up_after_redis_returns() -> None:
    """The notices sent while Redis was away are lost: when it is back, every table a web
    process follows checks its version (as the sweeper's `table.check` does), and its lobby
    pages refetch (joker_site/channel_layer.py; registered by GamesConfig.ready())."""
    from joker_site.channel_layer import after_reconnect

    after_reconnect(TABLE_GROUP_PREFIX, lambda group: {
        "type": "table.check", "table": int(group[len(TABLE_GROUP_PREFIX):]), "version": None})
    after_reconnect(LOBBY_GROUP, lambda group: {"type": "lobby.changed"} if group == LOBBY_GROUP else None)


def lobby_changed() -> None:
    group_send(LOBBY_GROUP, {"type": "lobby.changed"})


def table_changed(table_id: int, version: int | None = None, move: dict | None = None,
                  laying: list | None = None) -> None:
    """`laying`: how pages lay the version's cards (games/pacing.py: played cards and taken
    tricks, public facts only)."""
    # The table id lets a connection that follows several tables (the JSON protocol) tell them apart.
    message = {"type": "table.changed", "table": table_id, "version": version}
    if move is not None:
        message["move"] = move
    if laying:
        message["laying"] = laying
    group_send(table_group(table_id), message)


def tables_are_at(versions) -> None:
    """Say again which version each of these (table id, version) pairs is at. A connection
    that already shows it does nothing; one that missed the notice (a web process killed
    between committing a move and announcing it, a notice the layer dropped) catches up.
    The sweeper sends it for every running match."""
    _send_all([(table_group(table_id), {"type": "table.check", "table": table_id, "version": version})
               for table_id, version in versions])
