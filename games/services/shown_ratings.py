"""The ratings shown beside players' names at the table and in the lobby.

They are the ratings app's (above games): it registers how they are read from its
`RatingsConfig.ready()` (`read_with`), so games shows them without importing it
(docs/architecture.md). Each reader takes (player id, variant) pairs and returns
{pair: a shown rating} (ratings.services.ShownRating: `value`, `provisional`,
`rated_matches`, `as_dict()`); a pair it does not know has none.
"""

_readers: dict = {}


def read_with(*, fresh, cached) -> None:
    """`fresh` reads the database (the lobby's lists), `cached` goes through the ratings cache
    (a table's seats, on every move)."""
    _readers["fresh"], _readers["cached"] = fresh, cached


def shown(pairs) -> dict:
    reader = _readers.get("fresh")
    return reader(pairs) if reader is not None else {}


def cached(pairs) -> dict:
    reader = _readers.get("cached")
    return reader(pairs) if reader is not None else {}
