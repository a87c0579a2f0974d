"""The daily arenas (tournaments/schedule.py): beat makes today's and tomorrow's at their Tbilisi
hours, each once however often it runs, and skips those whose hour has passed."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from tournaments import schedule
from tournaments.models import Status, Tournament

pytestmark = pytest.mark.django_db
TBILISI = ZoneInfo("Asia/Tbilisi")


def test_the_daily_arenas_are_made_at_their_tbilisi_hours_once_however_often_beat_runs():
    morning = datetime(2026, 12, 5, 9, 0, tzinfo=TBILISI)
    made = schedule.create_scheduled(morning)
    assert len(made) == 2 * len(schedule.DAILY_ARENAS)
    assert schedule.create_scheduled(morning) == []  # a doubled run
    starts = sorted((t.starts_at.astimezone(TBILISI).strftime("%d %H:%M"), t.variant) for t in made)
    assert starts == [("05 13:00", "japanese"), ("05 20:00", "classic"), ("05 21:00", "japanese"),
                      ("06 13:00", "japanese"), ("06 20:00", "classic"), ("06 21:00", "japanese")]
    assert all(t.status == Status.UPCOMING for t in made)
    assert Tournament.objects.get(schedule_key="2026-12-05-classic-20").fill_with_bots


def test_an_arena_whose_hour_passed_is_not_made_and_the_next_day_is_added_later():
    evening = datetime(2026, 12, 5, 20, 30, tzinfo=TBILISI)
    made = schedule.create_scheduled(evening)
    assert sorted(t.schedule_key for t in made) == [
        "2026-12-05-japanese-21", "2026-12-06-classic-20", "2026-12-06-japanese-13", "2026-12-06-japanese-21"]
    next_day = schedule.create_scheduled(datetime(2026, 12, 6, 8, 0, tzinfo=TBILISI))
    assert sorted(t.schedule_key for t in next_day) == [
        "2026-12-07-classic-20", "2026-12-07-japanese-13", "2026-12-07-japanese-21"]


def test_the_scheduled_arenas_names_are_shown_in_the_page_language():
    schedule.create_scheduled(datetime(2026, 12, 5, 9, 0, tzinfo=TBILISI))
    page = Client().get("/ru/tournaments/").content.decode()
    assert "Вечерняя арена классического джокера" in page and "Classic evening arena" not in page
