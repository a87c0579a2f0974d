"""Why coins moved: the ledger stores a key, a page says it in its reader's language.

An entry is never rewritten, so the English phrases stored before these keys existed
are read as the keys they stand for."""

from django.utils.translation import pgettext_lazy

TABLE_CLOSED = "table_closed"
TABLE_NEVER_FILLED = "table_never_filled"
TABLE_CLOSED_BY_STAFF = "table_closed_by_staff"
MATCH_ABORTED = "match_aborted"
MATCH_ABORTED_BY_STAFF = "match_aborted_by_staff"
NO_PLAYER_LEFT = "no_player_left"
TOURNAMENT_ENTRY = "tournament_entry"
TOURNAMENT_PRIZE = "tournament_prize"
TOURNAMENT_CANCELLED = "tournament_cancelled"
TOURNAMENT_NOT_PLAYED = "tournament_not_played"

TEXTS = {
    TABLE_CLOSED: pgettext_lazy("coin memo", "table closed"),
    TABLE_NEVER_FILLED: pgettext_lazy("coin memo", "the table never filled"),
    TABLE_CLOSED_BY_STAFF: pgettext_lazy("coin memo", "table closed by the site staff"),
    MATCH_ABORTED: pgettext_lazy("coin memo", "match stopped"),
    MATCH_ABORTED_BY_STAFF: pgettext_lazy("coin memo", "match stopped by the site staff"),
    NO_PLAYER_LEFT: pgettext_lazy("coin memo", "no player left to pay"),
    TOURNAMENT_ENTRY: pgettext_lazy("coin memo", "tournament entry fee"),
    TOURNAMENT_PRIZE: pgettext_lazy("coin memo", "tournament prize"),
    TOURNAMENT_CANCELLED: pgettext_lazy("coin memo", "tournament cancelled"),
    TOURNAMENT_NOT_PLAYED: pgettext_lazy("coin memo", "no match played in the tournament"),
}

_STORED_BEFORE_KEYS = {
    "table closed": TABLE_CLOSED,
    "table never filled": TABLE_NEVER_FILLED,
    "table closed by the site staff": TABLE_CLOSED_BY_STAFF,
    "match aborted": MATCH_ABORTED,
    "match aborted by the site staff": MATCH_ABORTED_BY_STAFF,
    "no player left to pay": NO_PLAYER_LEFT,
}


def memo_text(memo: str) -> str:
    """What a page shows for an entry's memo: a known key in the page's language, anything
    else (a staff member's reason for an adjustment) as it was written."""
    key = _STORED_BEFORE_KEYS.get(memo, memo)
    return str(TEXTS[key]) if key in TEXTS else memo
