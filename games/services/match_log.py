"""A match's record as an append-only log: one `MatchAction` row per version.

A move used to rewrite the whole `joker-record/1` document (a standard game
rewrote 7.9 MiB of JSON over its 680 moves); now the match row keeps the
document's head (format, variant, options, players) and each version adds one
small row of what it added to the record (games/engine/state.py,
`record_since`):

- {"actions": [record actions]}: more actions of the deal that was last;
- {"deal": a record deal, with its actions, "index": its place in the record}: a new deal;
- {"end": {"reason", "seat"}}: the match ended early.

`assemble` folds the rows back into the document, exactly what
`engine.to_record` gives for the position (tests/test_match_action_log.py);
`catch_up` brings a cached earlier position up to date with just the rows it
has not seen. The row's (match, version) is unique: a version is written once.
"""


from games import engine

HEAD_KEYS = ("format", "variant", "options", "players")


def head_of(record: dict) -> dict:
    return {key: record[key] for key in HEAD_KEYS}


def entries_of(record: dict) -> list[dict]:
    """A whole record as log entries (one row holding every deal: the migration's, a test's)."""
    entries = [{"deal": deal, "index": index} for index, deal in enumerate(record.get("deals", []))]
    if record.get("end") is not None:
        entries.append({"end": record["end"]})
    return entries


def assemble(head: dict, rows) -> dict:
    """The record document of `head` and the log rows' entries, in version order."""
    deals, end = [], None
    for entries in rows:
        for entry in entries:
            if "actions" in entry:
                deals[-1]["actions"].extend(entry["actions"])
            elif "deal" in entry:
                deals.append({**entry["deal"], "actions": list(entry["deal"]["actions"])})
            elif "end" in entry:
                end = entry["end"]
    doc = {**head, "deals": deals}
    if end is not None:
        doc["end"] = end
    return doc


def catch_up(state, rows) -> None:
    """Apply the log rows that follow `state`'s position (engine.catch_up_log)."""
    engine.catch_up_log(state, rows)
