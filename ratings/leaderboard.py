"""The leaderboard of a variant: the best established ratings and this week's biggest gains."""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import F, Sum
from django.utils import timezone

from accounts.friends import friend_ids
from accounts.models import Player

from .models import Rating, RatingChange
from .services import PROVISIONAL_MATCHES, ShownRating, conservative_order, shown_rating

TOP = 100
IMPROVED = 10
WEEK = timedelta(days=7)


@dataclass(frozen=True)
class Row:
    place: int
    player: Player
    rating: ShownRating
    gain: int | None = None


def _circle(user) -> set[int]:
    """The user and their friends (user ids): the friends filter."""
    return set(friend_ids(user)) | {user.pk}


def top_ratings(variant: str, *, friends_of=None, limit: int = TOP) -> list[Row]:
    """The `limit` best shown ratings with at least PROVISIONAL_MATCHES rated matches."""
    ratings = (Rating.objects.filter(variant=variant, rated_matches__gte=PROVISIONAL_MATCHES)
               .select_related("player__user").order_by(conservative_order().desc(), "player_id"))
    if friends_of is not None:
        ratings = ratings.filter(player__user_id__in=_circle(friends_of))
    return [Row(place, rating.player, shown_rating(rating)) for place, rating in enumerate(ratings[:limit], 1)]


def most_improved(variant: str, *, friends_of=None, since=None, limit: int = IMPROVED) -> list[Row]:
    """The biggest net gains of shown rating over the last seven days (gains only)."""
    since = since or timezone.now() - WEEK
    changes = RatingChange.objects.filter(variant=variant, created_at__gte=since)
    if friends_of is not None:
        changes = changes.filter(player__user_id__in=_circle(friends_of))
    gains = list(changes.values("player_id").annotate(gain=Sum(F("shown_after") - F("shown_before")))
                 .filter(gain__gt=0).order_by("-gain", "player_id")[:limit])
    players = Player.objects.select_related("user").in_bulk([row["player_id"] for row in gains])
    ratings = {r.player_id: r for r in Rating.objects.filter(variant=variant, player_id__in=players)}
    return [Row(place, players[row["player_id"]], shown_rating(ratings.get(row["player_id"])), row["gain"])
            for place, row in enumerate(gains, 1)]
