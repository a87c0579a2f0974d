"""The daily arenas (docs/tournaments.md "The schedule"): created ahead by beat, each once.

`DAILY_ARENAS` says at which Tbilisi hours an arena of which game starts each day.
`create_scheduled(now)` makes today's and tomorrow's that are not made yet; each row
carries its `schedule_key` (day, game, hour), unique, so a doubled or overlapping run,
in any process, makes nothing twice.
"""

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .models import Tournament

TBILISI = ZoneInfo("Asia/Tbilisi")


@dataclass(frozen=True)
class Daily:
    hour: int  # Tbilisi time
    variant: str
    minutes: int
    name: str  # the arena's name, an English msgid: pages show it translated (Tournament.shown_name)
    fill_with_bots: bool = False


DAILY_ARENAS = (
    Daily(hour=13, variant="japanese", minutes=45, name=gettext_noop("Japanese lunch arena")),
    Daily(hour=20, variant="classic", minutes=90, name=gettext_noop("Classic evening arena"), fill_with_bots=True),
    Daily(hour=21, variant="japanese", minutes=60, name=gettext_noop("Japanese evening arena")),
)


def schedule_key(day, daily: Daily) -> str:
    return f"{day.isoformat()}-{daily.variant}-{daily.hour:02d}"


def create_scheduled(now: datetime | None = None, days: int = 2) -> list[Tournament]:
    """Make the daily arenas of today and the next `days - 1` days that are not made yet
    (those whose start has passed are skipped); the ones made now."""
    now = now or timezone.now()
    today = now.astimezone(TBILISI).date()
    made = []
    for offset in range(days):
        day = today + timedelta(days=offset)
        for daily in DAILY_ARENAS:
            starts_at = datetime.combine(day, time(daily.hour), tzinfo=TBILISI)
            if starts_at <= now:
                continue
            key = schedule_key(day, daily)
            if Tournament.objects.filter(schedule_key=key).exists():
                continue
            try:
                with transaction.atomic():
                    made.append(Tournament.objects.create(
                        name=daily.name, variant=daily.variant, minutes=daily.minutes, starts_at=starts_at,
                        fill_with_bots=daily.fill_with_bots, schedule_key=key))
            except IntegrityError:  # another run made it a moment ago
                continue
    return made
