"""The daily arenas and the weekly Swiss (tournaments/schedule.py): beat makes today's and
tomorrow's arenas and the coming week's Swiss tournaments at their Tbilisi hours, each once
however often it runs, and skips those whose hour has passed."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from tournaments import schedule
from tournaments.models import Kind, Status, Tournament

pytestmark = pytest.mark.django_db
TBILISI = ZoneInfo("Asia/Tbilisi")


def test_the_daily_arenas_are_made_at_their_tbilisi_hours_once_however_often_beat_runs():
    morning = datetime(2026, 12, 5, 9, 0, tzinfo=TBILISI)
    made = [t for t in schedule.create_scheduled(morning) if t.kind == Kind.ARENA]
    assert len(made) == 2 * len(schedule.DAILY_ARENAS)
    assert schedule.create_scheduled(morning) == []  # a doubled run
    starts = sorted((t.starts_at.astimezone(TBILISI).strftime("%d %H:%M"), t.variant) for t in made)
    assert starts == [("05 13:00", "japanese"), ("05 20:00", "classic"), ("05 21:00", "japanese"),
                      ("06 13:00", "japanese"), ("06 20:00", "classic"), ("06 21:00", "japanese")]
    assert all(t.status == Status.UPCOMING for t in made)
    assert Tournament.objects.get(schedule_key="2026-12-05-classic-20").fill_with_bots


def test_an_arena_whose_hour_passed_is_not_made_and_the_next_day_is_added_later():
    evening = datetime(2026, 12, 5, 20, 30, tzinfo=TBILISI)
    made = [t for t in schedule.create_scheduled(evening) if t.kind == Kind.ARENA]
    assert sorted(t.schedule_key for t in made) == [
        "2026-12-05-japanese-21", "2026-12-06-classic-20", "2026-12-06-japanese-13", "2026-12-06-japanese-21"]
    next_day = [t for t in schedule.create_scheduled(datetime(2026, 12, 6, 8, 0, tzinfo=TBILISI))
                if t.kind == Kind.ARENA]
    assert sorted(t.schedule_key for t in next_day) == [
        "2026-12-07-classic-20", "2026-12-07-japanese-13", "2026-12-07-japanese-21"]


def test_the_scheduled_arenas_names_are_shown_in_the_page_language():
    schedule.create_scheduled(datetime(2026, 12, 5, 9, 0, tzinfo=TBILISI))
    page = Client().get("/ru/tournaments/").content.decode()
    assert "Вечерняя арена классического джокера" in page and "Classic evening arena" not in page


def test_the_weekly_swiss_of_both_games_is_made_a_week_ahead_at_its_tbilisi_hour_once():
    monday = datetime(2026, 11, 30, 9, 0, tzinfo=TBILISI)
    made = [t for t in schedule.create_scheduled(monday) if t.kind == Kind.SWISS]
    assert sorted((t.starts_at.astimezone(TBILISI).strftime("%a %d %H:%M"), t.variant, t.rounds) for t in made) == [
        ("Sat 05 19:00", "classic", 4), ("Sat 05 19:00", "japanese", 5)]
    assert all(t.status == Status.UPCOMING and not t.fill_with_bots for t in made)
    assert [t for t in schedule.create_scheduled(monday) if t.kind == Kind.SWISS] == []  # a doubled run
    saturday_evening = datetime(2026, 12, 5, 19, 30, tzinfo=TBILISI)  # started: nothing new within the week
    assert [t for t in schedule.create_scheduled(saturday_evening) if t.kind == Kind.SWISS] == []
    sunday = datetime(2026, 12, 6, 8, 0, tzinfo=TBILISI)  # next Saturday is within the week now
    later = [t.schedule_key for t in schedule.create_scheduled(sunday) if t.kind == Kind.SWISS]
    assert sorted(later) == ["2026-12-12-swiss-classic-19", "2026-12-12-swiss-japanese-19"]
    assert Tournament.objects.filter(kind=Kind.SWISS).count() == 4
