"""Bans, chat mutes and pauses from rated play are one shape (accounts/sanctions.py): in force
from when they are made until their end unless lifted; the query (`active()`) and the row
(`is_active`) decide it alike, and `period()` words how long."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from conduct.models import Pause, WalkOut
from moderation.models import Ban, Mute
from tests.factories import make_player
from tests.replay_helpers import seated_match


def _rows(now):
    player = make_player("nino")
    match, _players = seated_match("japanese", ("tamar", "levan"))  # a walk-out needs a match
    rows = {}
    for name, end in (("ongoing", now + timedelta(hours=1)), ("ended", now - timedelta(minutes=1)),
                      ("lifted", now + timedelta(hours=1))):
        lifted = now if name == "lifted" else None
        rows[("ban", name)] = Ban.objects.create(user=player.user, until=end, reason="r", lifted_at=lifted)
        rows[("mute", name)] = Mute.objects.create(player=player, until=end, reason="r", lifted_at=lifted)
        walk_out = WalkOut.objects.create(player=make_player(f"w-{name}"), match=match, kind="resigned", step=2)
        rows[("pause", name)] = Pause.objects.create(player=player, walk_out=walk_out, starts_at=end - timedelta(hours=2),
                                                     ends_at=end, lifted_at=lifted)
    rows[("ban", "for good")] = Ban.objects.create(user=player.user, until=None, reason="r")
    return rows


@pytest.mark.django_db
def test_a_sanction_is_in_force_until_its_end_unless_lifted_and_the_query_and_the_row_agree():
    now = timezone.now()
    rows = _rows(now)
    in_force = {key for key, row in rows.items() if row.is_active}
    assert in_force == {("ban", "ongoing"), ("mute", "ongoing"), ("pause", "ongoing"), ("ban", "for good")}
    queried = {key for key, row in rows.items() if type(row).objects.active(now).filter(pk=row.pk).exists()}
    assert queried == in_force


@pytest.mark.django_db
def test_a_sanctions_period_is_worded_in_the_active_language():
    rows = _rows(timezone.now())
    with translation.override("ru"):
        assert rows[("ban", "for good")].period() == "навсегда"
        assert rows[("mute", "ongoing")].period().startswith("до ")
    with translation.override("en"):
        assert rows[("pause", "ongoing")].period().startswith("until ")
