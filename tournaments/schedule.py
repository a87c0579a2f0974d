"""The daily arenas and the weekly Swiss (docs/tournaments.md "The schedule"): created ahead
by beat, each once.

`DAILY_ARENAS` says at which Tbilisi hours an arena of which game starts each day;
`WEEKLY_SWISS` on which weekday and hour a Swiss of which game starts. `create_scheduled(now)`
makes today's and tomorrow's arenas and the coming week's Swiss tournaments that are not
made yet; each row carries its `schedule_key` (day, kind, game, hour), unique, so a doubled
or overlapping run, in any process, makes nothing twice.
"""

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .models import Kind, Tournament

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


@dataclass(frozen=True)
class Weekly:
    weekday: int  # Monday 0 … Sunday 6, in Tbilisi
    hour: int  # Tbilisi time
    variant: str
    rounds: int
    name: str  # an English msgid, as the daily arenas' names


WEEKLY_SWISS = (
    Weekly(weekday=5, hour=19, variant="japanese", rounds=5, name=gettext_noop("Saturday Japanese Swiss")),
    Weekly(weekday=5, hour=19, variant="classic", rounds=4, name=gettext_noop("Saturday classic Swiss")),
)
SWISS_DAYS_AHEAD = 7  # a week ahead: the list shows the next Saturday's Swiss all week


def schedule_key(day, daily: Daily) -> str:
    return f"{day.isoformat()}-{daily.variant}-{daily.hour:02d}"


def swiss_schedule_key(day, weekly: Weekly) -> str:
    return f"{day.isoformat()}-swiss-{weekly.variant}-{weekly.hour:02d}"


def create_scheduled(now: datetime | None = None, days: int = 2) -> list[Tournament]:
    """Make the daily arenas of today and the next `days - 1` days, and the Swiss tournaments of
    the next SWISS_DAYS_AHEAD days, that are not made yet (those whose start has passed are
    skipped); the ones made now."""
    now = now or timezone.now()
    today = now.astimezone(TBILISI).date()
    made = []
    for offset in range(max(days, SWISS_DAYS_AHEAD)):
        day = today + timedelta(days=offset)
        for daily in DAILY_ARENAS if offset < days else ():
            made += _create_once(now, schedule_key(day, daily), name=daily.name, variant=daily.variant,
                                 minutes=daily.minutes, fill_with_bots=daily.fill_with_bots,
                                 starts_at=datetime.combine(day, time(daily.hour), tzinfo=TBILISI))
        for weekly in (w for w in WEEKLY_SWISS if w.weekday == day.weekday()):
            made += _create_once(now, swiss_schedule_key(day, weekly), name=weekly.name, kind=Kind.SWISS,
                                 variant=weekly.variant, rounds=weekly.rounds,
                                 starts_at=datetime.combine(day, time(weekly.hour), tzinfo=TBILISI))
    return made


def _create_once(now: datetime, key: str, **fields) -> list[Tournament]:
    """[the tournament made] or [] (its start has passed, or it exists: the key is unique)."""
    if fields["starts_at"] <= now or Tournament.objects.filter(schedule_key=key).exists():
        return []
    try:
        with transaction.atomic():
            return [Tournament.objects.create(schedule_key=key, **fields)]
    except IntegrityError:  # another run made it a moment ago
        return []
