"""A player's rating history as a small line chart, drawn as SVG on the server."""

from dataclasses import dataclass

from .models import RatingChange

HISTORY = 50  # the chart shows the last 50 rated matches
WIDTH, HEIGHT, PAD = 300, 100, 6


@dataclass(frozen=True)
class Chart:
    values: list[int]  # the shown rating before the first charted match, then after each
    # SVG coordinates as text: a template would print a float in the reader's locale ("6,0").
    points: str  # the polyline's points
    last_x: str
    last_y: str
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def first(self) -> int:
        return self.values[0]

    @property
    def last(self) -> int:
        return self.values[-1]


def history(player, variant: str) -> list[int]:
    changes = list(RatingChange.objects.filter(player=player, variant=variant)
                   .order_by("-created_at", "-id").values_list("shown_before", "shown_after")[:HISTORY])
    changes.reverse()
    return [changes[0][0], *(after for _before, after in changes)] if changes else []


def rating_chart(values: list[int]) -> Chart | None:
    """The chart of these values (None for fewer than two: nothing to draw)."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    xy = [(PAD + i * step, PAD + (high - v) * (HEIGHT - 2 * PAD) / span) for i, v in enumerate(values)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    return Chart(values, points, f"{xy[-1][0]:.1f}", f"{xy[-1][1]:.1f}", low, high)
