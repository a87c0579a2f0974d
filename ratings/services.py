"""Ratings: the one update a finished match makes, and the figures a page shows.

`record_finished_match` is called from the one place a match ends
(games/services/matches.py `_finish`), inside the finishing transaction and
under the match row's lock. It stores each player's figures of the match and,
when the match was rated, moves every player's openskill rating once. A second
call for the same match (a finishing task run twice, two processes racing)
finds the match's RatingChange rows and changes nothing; the unique
(match, player) constraint guards the same at the database. See docs/ratings.md.
"""

from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import MatchStatus, Seat

from .figures import seat_figures
from .models import MatchFigures, Rating, RatingChange
from .places import SeatPlaces, final_places

# openskill's Plackett–Luce model with its own defaults (mu 25, sigma 25/3, beta 25/6,
# tau 25/300): one model for both variants, each variant rated on its own.
MODEL = PlackettLuce()
# The shown figure is openskill's ordinal (mu − 3·sigma, a conservative estimate), scaled
# to a familiar range: a newcomer shows 1000, each point of ordinal is 40.
SHOWN_Z, SHOWN_ALPHA, SHOWN_TARGET = 3.0, 40.0, 1000.0
# A rating is provisional for its first matches, and only an established one is on the leaderboard.
PROVISIONAL_MATCHES = 10


@dataclass(frozen=True)
class ShownRating:
    value: int
    rated_matches: int

    @property
    def provisional(self) -> bool:
        return self.rated_matches < PROVISIONAL_MATCHES

    def as_dict(self) -> dict:
        """The protocol's form (docs/protocol.md)."""
        return {"value": self.value, "provisional": self.provisional, "rated_matches": self.rated_matches}


def shown_value(mu: float, sigma: float) -> int:
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(SHOWN_Z, SHOWN_ALPHA, SHOWN_TARGET))


NEWCOMER = ShownRating(shown_value(MODEL.mu, MODEL.sigma), 0)


def shown_rating(rating: Rating | None) -> ShownRating:
    if rating is None:
        return NEWCOMER
    return ShownRating(shown_value(rating.mu, rating.sigma), rating.rated_matches)


def shown_ratings(pairs) -> dict[tuple[int, str], ShownRating]:
    """The shown rating of each (player id, variant) pair (newcomers included), in one query."""
    pairs = {(pk, variant) for pk, variant in pairs if pk is not None}
    if not pairs:
        return {}
    rows = Rating.objects.filter(player_id__in={pk for pk, _ in pairs}, variant__in={v for _, v in pairs})
    found = {(r.player_id, r.variant): r for r in rows}
    return {pair: shown_rating(found.get(pair)) for pair in pairs}


# Pages that are drawn on every move (the match view) read ratings from the cache: a rating
# changes only when a rated match ends, and that end drops its players' entries.
CACHE_SECONDS = 300


def _cache_key(player_id: int, variant: str) -> str:
    return f"rating:{variant}:{player_id}"


def cached_shown_ratings(pairs) -> dict[tuple[int, str], ShownRating]:
    """`shown_ratings` through the cache: no query when every entry is there."""
    pairs = {(pk, variant) for pk, variant in pairs if pk is not None}
    keys = {_cache_key(*pair): pair for pair in pairs}
    found = {keys[key]: ShownRating(*value) for key, value in cache.get_many(list(keys)).items()}
    missing = shown_ratings(pairs - set(found))
    if missing:
        cache.set_many({_cache_key(*pair): (r.value, r.rated_matches) for pair, r in missing.items()},
                       CACHE_SECONDS)
    return found | missing


def _forget_cached(player_ids, variant: str) -> None:
    cache.delete_many([_cache_key(pk, variant) for pk in player_ids])


def conservative_order():
    """The ordering expression of the shown rating (it grows with mu − 3·sigma)."""
    return F("mu") - SHOWN_Z * F("sigma")


# --- The end of a match ------------------------------------------------------------------------

def record_finished_match(match, state) -> None:
    """Figures and, for a rated match, ratings of a match that has just ended (caller holds its lock).

    An aborted match changes nothing: it was not played to a result."""
    if match.status != MatchStatus.FINISHED:
        return
    seats = list(Seat.objects.filter(table_id=match.table_id).select_related("player"))
    variant = match.table.variant
    places = final_places(variant, state, seats)
    store_figures(match, state, seats, places)
    if is_rated(match.table, seats):
        rate_match(match, variant, seats, places)


def is_rated(table, seats) -> bool:
    """A rated table where every chair was a member's (bots and guests never are)."""
    return table.rated and all(
        seat.player_id is not None and not seat.is_bot and not seat.player.is_guest for seat in seats
    )


def store_figures(match, state, seats, places: SeatPlaces) -> None:
    rows = [
        MatchFigures(match=match, player_id=seat.player_id,
                     **seat_figures(match.table.variant, state, seat.index, places.of(seat.index),
                                    seat.left_at is not None))
        for seat in seats if seat.player_id is not None
    ]
    MatchFigures.objects.bulk_create(rows, ignore_conflicts=True)  # a repeated call adds nothing


def rate_match(match, variant: str, seats, places: SeatPlaces) -> bool:
    """Move the ratings of the match's players once; False when this match was already rated."""
    if RatingChange.objects.filter(match=match).exists():
        return False
    seats = sorted(seats, key=lambda seat: seat.index)
    ratings = _locked_ratings(variant, [seat.player_id for seat in seats])
    before = [ratings[seat.player_id] for seat in seats]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[places.of(seat.index) for seat in seats])
    changes, now = [], timezone.now()
    for seat, rating, (new,) in zip(seats, before, after):
        changes.append(RatingChange(
            match=match, player_id=seat.player_id, variant=variant, place=places.of(seat.index),
            mu_before=rating.mu, sigma_before=rating.sigma, mu_after=new.mu, sigma_after=new.sigma,
            shown_before=shown_value(rating.mu, rating.sigma), shown_after=shown_value(new.mu, new.sigma),
        ))
        rating.mu, rating.sigma, rating.rated_matches = new.mu, new.sigma, rating.rated_matches + 1
        rating.updated_at = now
    RatingChange.objects.bulk_create(changes)  # the unique (match, player) pair refuses a second set
    Rating.objects.bulk_update(before, ["mu", "sigma", "rated_matches", "updated_at"])
    player_ids = [seat.player_id for seat in seats]
    transaction.on_commit(lambda: _forget_cached(player_ids, variant))
    return True


def _locked_ratings(variant: str, player_ids: list[int]) -> dict[int, Rating]:
    """The players' Rating rows in `variant`, created at the default when missing, locked.

    Locked in player order, so two matches with shared players finishing at once
    wait for each other instead of deadlocking."""
    Rating.objects.bulk_create(
        [Rating(player_id=pk, variant=variant, mu=MODEL.mu, sigma=MODEL.sigma) for pk in player_ids],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(variant=variant, player_id__in=player_ids).order_by("player_id")
    return {row.player_id: row for row in rows}
