"""Profile figures per variant, added up from each finished match's stored MatchFigures.

A match that ended before figures were kept has none yet: the first profile that
needs it replays its record once with the engine and stores them, so every later
view is a single aggregate query.
"""

from dataclasses import dataclass

from django.db.models import Avg, Count, Q, Sum

from games import engine
from games.models import Match, MatchStatus, Seat, Variant

from .models import MatchFigures
from .places import final_places
from .services import store_figures


@dataclass(frozen=True)
class ClassicFigures:
    matches: int
    wins: int
    places: tuple[int, int, int, int]  # how often first, second, third, fourth
    average_place: float | None
    bids: int
    bids_exact: int
    khishti: int
    premiums: int

    @property
    def bids_exact_percent(self) -> int | None:
        return round(100 * self.bids_exact / self.bids) if self.bids else None


@dataclass(frozen=True)
class JapaneseFigures:
    matches: int
    wins: int
    deals_won: int
    average_difference: float | None


def _fill_missing_figures(player) -> None:
    """Figures for the player's finished matches that ended before figures were kept."""
    missing = (Match.objects.filter(status=MatchStatus.FINISHED, table__seats__player=player)
               .exclude(figures__player=player).select_related("table"))
    for match in missing:
        seats = list(Seat.objects.filter(table_id=match.table_id))
        state = engine.state_from_record(match.record)
        store_figures(match, state, seats, final_places(match.table.variant, state, seats))


def player_figures(player) -> dict[str, ClassicFigures | JapaneseFigures]:
    """`{variant: figures}` for every variant, zeros where the player has no finished match."""
    _fill_missing_figures(player)
    rows = {
        row["variant"]: row
        for row in MatchFigures.objects.filter(player=player).values("variant").annotate(
            matches=Count("id"), wins=Count("id", filter=Q(place=1)),
            first=Count("id", filter=Q(place=1)), second=Count("id", filter=Q(place=2)),
            third=Count("id", filter=Q(place=3)), fourth=Count("id", filter=Q(place=4)),
            average_place=Avg("place"), bids=Sum("bids"), bids_exact=Sum("bids_exact"),
            khishti=Sum("khishti"), premiums=Sum("premiums"), deals_won=Sum("deals_won"),
            average_difference=Avg("difference"),
        )
    }
    classic = rows.get(Variant.CLASSIC, {})
    japanese = rows.get(Variant.JAPANESE, {})
    return {
        Variant.CLASSIC: ClassicFigures(
            matches=classic.get("matches", 0), wins=classic.get("wins", 0),
            places=tuple(classic.get(key, 0) for key in ("first", "second", "third", "fourth")),
            average_place=classic.get("average_place"), bids=classic.get("bids") or 0,
            bids_exact=classic.get("bids_exact") or 0, khishti=classic.get("khishti") or 0,
            premiums=classic.get("premiums") or 0,
        ),
        Variant.JAPANESE: JapaneseFigures(
            matches=japanese.get("matches", 0), wins=japanese.get("wins", 0),
            deals_won=japanese.get("deals_won") or 0, average_difference=japanese.get("average_difference"),
        ),
    }
