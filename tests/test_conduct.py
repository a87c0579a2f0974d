"""The price of walking out (docs/conduct.md): each kind of walk-out from a rated match is
counted once, a comeback within the grace time and a casual match count nothing, the pause
climbs its ladder and ends, staff lift it with an audit entry, paused players are refused
rated tables (pages and protocol), and the profile's reliability figure is what happened."""

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone, translation

from conduct import services as conduct
from conduct.models import Pause, WalkOut, WalkOutKind
from games.models import Match, MatchStatus, Seat, Table
from games.services import presence
from games.services import tables as table_service
from games.services.matches import (
    TIMEOUTS_BEFORE_GONE,
    MatchError,
    clock_ran_out,
    grace_ran_out,
    load_state,
    resign,
)
from games.services.tables import TableError, TableSettings
from moderation import services as moderation
from moderation.models import AuditAction, AuditEntry
from tests.factories import make_player, walk_out_of
from tests.moderation_support import action_url, confirm, moderator_client
from tests.protocol_clients import (
    ProgramClient,
    make_program_player,
)
from tests.replay_helpers import fresh

db = pytest.mark.django_db


def _match(creator, other, variant="japanese", rated=True, **options):
    """`creator` makes a table, `other` sits down: the match runs."""
    table = table_service.create_table(creator, TableSettings(variant=variant, rated=rated, **options))
    table_service.sit(table.pk, other)
    return Match.objects.select_related("table").get(table=table)


def _classic(players, rated=True):
    table = table_service.create_table(players[0], TableSettings(variant="classic", rated=rated, game_type="short"))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    return Match.objects.select_related("table").get(table=table)


def _walk_outs(player):
    return list(WalkOut.objects.filter(player=player).order_by("created_at", "id"))


def _time_passes(player, delta):
    """Move the player's walk-outs and pauses `delta` into the past: as if that much time went by."""
    for walk_out in WalkOut.objects.filter(player=player):
        WalkOut.objects.filter(pk=walk_out.pk).update(created_at=walk_out.created_at - delta)
    for pause in Pause.objects.filter(player=player):
        Pause.objects.filter(pk=pause.pk).update(starts_at=pause.starts_at - delta, ends_at=pause.ends_at - delta)


def _seat_of(match, player):
    return Seat.objects.get(table_id=match.table_id, player=player)


# --- Each kind of walk-out, once ----------------------------------------------------------------

@db
def test_resigning_a_rated_match_is_no_walk_out_in_either_variant():
    tamar, levan = make_player("tamar"), make_player("levan")
    match = _match(levan, tamar)
    resign(match.pk, tamar)
    assert fresh(match).end_reason == "resign"
    players = [make_player(name) for name in ("ana", "beka", "gio", "dato")]
    classic = _classic(players)
    resign(classic.pk, players[2])  # "Leave the table": a bot plays the seat on
    assert fresh(classic).status == MatchStatus.RUNNING
    assert not WalkOut.objects.exists() and not Pause.objects.exists()
    assert conduct.standing(tamar).walk_outs == 0 and conduct.reliability(tamar).walked_out == 0


@db
def test_a_resignation_recorded_before_the_rule_changed_no_longer_counts():
    tamar, levan = make_player("tamar"), make_player("levan")
    match = _match(levan, tamar)
    resign(match.pk, tamar)
    WalkOut.objects.create(player=tamar, match=match, kind=WalkOutKind.RESIGNED, step=1)
    assert conduct.standing(tamar).walk_outs == 0 and conduct.reliability(tamar).walked_out == 0
    walk_out_of(_match(levan, tamar).pk, tamar)
    assert _walk_outs(tamar)[-1].step == 1  # the first that counts: a warning


@db
def test_walking_out_of_a_rated_classic_match_counts_once_while_a_bot_plays_the_seat_on():
    players = [make_player(name) for name in ("ana", "beka", "gio", "dato")]
    match = _classic(players)
    walk_out_of(match.pk, players[2])
    with pytest.raises(MatchError):
        resign(match.pk, players[2])  # the seat is no longer theirs
    assert fresh(match).status == MatchStatus.RUNNING
    assert [w.kind for w in _walk_outs(players[2])] == [WalkOutKind.DISCONNECTED]
    assert WalkOut.objects.count() == 1


@db
def test_a_forfeit_on_disconnect_counts_once_and_a_doubled_grace_task_adds_nothing():
    tamar, levan = make_player("tamar"), make_player("levan")
    match = _match(levan, tamar)
    seat_id = presence.connected(match.table_id, tamar)
    presence.disconnected(seat_id)
    gone_at = Seat.objects.get(pk=seat_id).disconnected_at
    assert grace_ran_out(seat_id, gone_at)
    assert not grace_ran_out(seat_id, gone_at)  # the same task delivered again
    assert [w.kind for w in _walk_outs(tamar)] == [WalkOutKind.DISCONNECTED]
    assert fresh(match).end_reason == "forfeit"


@db
def test_a_disconnect_that_came_back_within_the_grace_time_counts_nothing():
    tamar, levan = make_player("tamar"), make_player("levan")
    match = _match(levan, tamar)
    seat_id = presence.connected(match.table_id, tamar)
    presence.disconnected(seat_id)
    gone_at = Seat.objects.get(pk=seat_id).disconnected_at
    presence.connected(match.table_id, tamar)  # back before the grace time ended
    assert not grace_ran_out(seat_id, gone_at)  # the timer finds them back: _player_gone is never reached
    assert fresh(match).status == MatchStatus.RUNNING
    assert Seat.objects.get(pk=seat_id).left_at is None
    assert not WalkOut.objects.exists()
    assert conduct.standing(tamar).walk_outs == 0


@db
def test_the_clock_moving_for_a_player_three_times_running_counts_once_as_timeouts():
    tamar, levan = make_player("tamar"), make_player("levan")
    match = _match(levan, tamar)
    match = fresh(match)
    to_act = load_state(match).to_act
    Seat.objects.filter(table=match.table, index=to_act).update(timeouts_in_row=TIMEOUTS_BEFORE_GONE - 1)
    assert clock_ran_out(match.pk, match.version)
    assert not clock_ran_out(match.pk, match.version)  # a late or doubled clock task
    leaver = Seat.objects.get(table=match.table, index=to_act).player
    (walk_out,) = _walk_outs(leaver)
    assert walk_out.kind == WalkOutKind.TIMEOUTS
    assert WalkOut.objects.count() == 1


@db
def test_one_or_two_timeouts_are_not_a_walk_out():
    tamar, levan = make_player("tamar"), make_player("levan")
    match = fresh(_match(levan, tamar))
    assert clock_ran_out(match.pk, match.version)
    assert fresh(match).status == MatchStatus.RUNNING
    assert not WalkOut.objects.exists()


@db
def test_casual_matches_and_practice_tables_count_nothing():
    tamar, levan = make_player("tamar"), make_player("levan")
    casual = _match(levan, tamar, rated=False)
    walk_out_of(casual.pk, tamar)
    practice = table_service.create_table(tamar, TableSettings(variant="japanese", fill_with_bots=True))
    assert not practice.rated
    walk_out_of(Match.objects.get(table=practice).pk, tamar)
    assert not WalkOut.objects.exists()
    assert conduct.reliability(tamar).matches == 0


@db
def test_a_ban_that_resigns_a_running_match_is_not_counted_as_a_walk_out():
    from moderation.services import ban_user

    tamar, levan = make_player("tamar"), make_player("levan")
    match = _match(levan, tamar)
    _staff, moderator = moderator_client()
    ban_user(tamar.user_id, timedelta(days=1), "cheating", moderator)
    assert fresh(match).status == MatchStatus.FINISHED
    assert not WalkOut.objects.exists()


# --- The ladder -------------------------------------------------------------------------------

@db
def test_the_pause_climbs_the_ladder_expires_and_the_ladder_forgets_after_the_window():
    tamar, levan = make_player("tamar"), make_player("levan")
    steps = []
    for expected_pause in (None, timedelta(minutes=10), timedelta(hours=1), timedelta(days=1), timedelta(days=1)):
        conduct.refuse_if_paused(tamar)  # free to play rated before each walk-out
        walk_out_of(_match(levan, tamar).pk, tamar)
        walk_out = _walk_outs(tamar)[-1]
        steps.append(walk_out.step)
        pause = Pause.objects.filter(walk_out=walk_out).first()
        if expected_pause is None:
            assert pause is None
            conduct.refuse_if_paused(tamar)
            continue
        assert pause.ends_at - walk_out.created_at == expected_pause
        with pytest.raises(conduct.Paused) as refused:
            conduct.refuse_if_paused(tamar)
        assert refused.value.params["until"] == pause.ends_at.isoformat()
        # The edge is asked at given moments: the wall clock runs on while the test does (a
        # loaded CI machine took over a second between the walk-out and the check).
        with pytest.raises(conduct.Paused):
            conduct.refuse_if_paused(tamar, now=pause.ends_at - timedelta(seconds=1))  # still paused
        assert conduct.active_pause(tamar, now=pause.ends_at) is None  # it ends by itself: no job needed
        _time_passes(tamar, expected_pause)
        assert conduct.active_pause(tamar) is None
    assert steps == [1, 2, 3, 4, 4]
    assert conduct.standing(tamar).walk_outs == 5
    _time_passes(tamar, conduct.WINDOW)
    assert conduct.standing(tamar).walk_outs == 0
    walk_out_of(_match(levan, tamar).pk, tamar)
    assert _walk_outs(tamar)[-1].step == 1  # a warning again
    assert conduct.active_pause(tamar) is None
    assert conduct.reliability(tamar).walked_out == 6  # the figure keeps them all


@db
def test_a_walk_out_while_paused_adds_its_pause_after_the_one_in_force():
    tamar = make_player("tamar")
    # Three rated matches at once, all started before any walk-out.
    running = [_match(make_player(name), tamar) for name in ("levan", "nino", "gio")]
    walk_out_of(running[0].pk, tamar)
    walk_out_of(running[1].pk, tamar)
    ten_minutes = conduct.active_pause(tamar)
    assert ten_minutes.walk_out.step == 2
    walk_out_of(running[2].pk, tamar)
    latest = conduct.active_pause(tamar)
    assert latest.walk_out.step == 3
    assert latest.ends_at - ten_minutes.ends_at == timedelta(hours=1)


# --- Refusals ---------------------------------------------------------------------------------

def _paused_player(name="tamar", other="levan"):
    """A player with a ten-minute pause in force (two walk-outs), and their opponent."""
    player, opponent = make_player(name), make_player(other)
    for _ in range(2):
        walk_out_of(_match(opponent, player).pk, player)
    pause = conduct.active_pause(player)
    assert pause is not None
    return player, opponent, pause


def _local_time(pause):
    return timezone.localtime(pause.ends_at).strftime("%H:%M")


@db
def test_a_paused_player_is_refused_rated_tables_with_the_end_time_and_may_play_casual():
    tamar, levan, pause = _paused_player()
    with pytest.raises(TableError) as created:
        table_service.create_table(tamar, TableSettings(variant="japanese", rated=True))
    assert created.value.code == "paused" and created.value.params["until"] == pause.ends_at.isoformat()
    assert _local_time(pause) in created.value.message
    rated = table_service.create_table(levan, TableSettings(variant="classic", rated=True))
    with pytest.raises(TableError) as joined:
        table_service.sit(rated.pk, tamar)
    assert joined.value.code == "paused"
    assert not Seat.objects.filter(table=rated, player=tamar).exists()
    tables_before = Table.objects.count()
    casual = table_service.create_table(tamar, TableSettings(variant="japanese", rated=False))
    assert Table.objects.count() == tables_before + 1 and not casual.rated
    other_casual = table_service.create_table(levan, TableSettings(variant="classic", rated=False))
    table_service.sit(other_casual.pk, tamar)
    practice = table_service.create_table(tamar, TableSettings(variant="japanese", fill_with_bots=True))
    assert not practice.rated


@db
def test_a_paused_player_may_not_wait_for_quick_play_until_the_pause_is_lifted():
    from quickplay import services as quickplay
    from quickplay.models import QueueEntry
    from tests.moderation_support import make_moderator

    tamar, _levan, pause = _paused_player()
    with pytest.raises(quickplay.QuickPlayError) as refused:
        quickplay.join(tamar, "japanese", 0)
    assert refused.value.code == "paused" and refused.value.params["until"] == pause.ends_at.isoformat()
    assert _local_time(pause) in refused.value.message
    assert not QueueEntry.objects.filter(player=tamar).exists()
    moderation.lift_pause(pause.pk, "a family emergency", make_moderator())
    quickplay.join(tamar, "japanese", 0)
    assert QueueEntry.objects.filter(player=tamar).exists()


@db
@pytest.mark.parametrize("language, words", [("ka", "შეჩერებულია"), ("ru", "приостановлены")])
def test_the_refusal_is_worded_in_the_readers_language_with_the_end_time(language, words):
    tamar, _levan, pause = _paused_player()
    with translation.override(language):
        with pytest.raises(TableError) as refused:
            table_service.create_table(tamar, TableSettings(variant="japanese", rated=True))
        message = refused.value.message
    assert words in message and _local_time(pause) in message
    assert not re.search(r"[A-Za-z]{3,}", message), message  # no English left


@db
def test_the_table_form_and_the_join_button_tell_a_paused_player_until_when():
    tamar, levan, pause = _paused_player()
    client = Client()
    client.force_login(tamar.user)
    page = client.get("/ru/tables/new/?variant=japanese")
    assert "pause-notice paused" in page.content.decode() and _local_time(pause) in page.content.decode()
    tables_before = Table.objects.count()
    refused = client.post("/ru/tables/new/", {"variant": "japanese", "target": 11, "stake": 0, "visibility": "open",
                                              "clock_seconds": 60, "rated": "on"})
    assert refused.status_code == 200 and Table.objects.count() == tables_before
    assert "приостановлены" in refused.content.decode() and _local_time(pause) in refused.content.decode()
    rated = table_service.create_table(levan, TableSettings(variant="japanese", rated=True))
    answer = client.post(f"/ka/tables/{rated.pk}/sit/", follow=True)
    assert "შეჩერებულია" in answer.content.decode() and _local_time(pause) in answer.content.decode()
    assert not Seat.objects.filter(table=rated, player=tamar).exists()
    lobby = client.get("/ka/lobby/").content.decode()
    assert "pause-notice paused" in lobby


@db
def test_a_player_not_paused_sees_no_notice_and_a_warned_one_sees_the_next_step():
    tamar, levan = make_player("tamar"), make_player("levan")
    client = Client()
    client.force_login(tamar.user)
    assert "pause-notice" not in client.get("/en/lobby/").content.decode()
    walk_out_of(_match(levan, tamar).pk, tamar)
    lobby = client.get("/en/lobby/").content.decode()
    assert "pause-notice warned" in lobby and "10 minutes" in lobby


# --- The JSON protocol ------------------------------------------------------------------------

@sync_to_async
def _pause_program_player(player):
    opponent = make_player(f"{player.user.username}_opponent")
    for _ in range(2):
        walk_out_of(_match(opponent, player).pk, player)
    return conduct.active_pause(player), table_service.create_table(
        opponent, TableSettings(variant="japanese", rated=True)).pk


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_protocol_refuses_a_paused_program_rated_tables_with_the_end_in_params():
    player, token = await make_program_player("paused_prog")
    pause, rated_table = await _pause_program_player(player)
    client = await ProgramClient.connect(token)
    await client.send({"type": "hello", "language": "ru"})
    await client.receive_type("welcome")
    await client.send({"type": "create_table", "variant": "japanese", "options": {"rated": True}, "id": 7})
    error = await client.receive_type("error")
    assert error["code"] == "paused" and error["in_reply_to"] == "create_table" and error["id"] == 7
    assert error["params"]["until"] == pause.ends_at.isoformat()
    assert "приостановлены" in error["message"] and _local_time(pause) in error["message"]
    await client.send({"type": "join_table", "table": rated_table})
    error = await client.receive_type("error")
    assert error["code"] == "paused" and error["params"]["until"] == pause.ends_at.isoformat()
    await client.send({"type": "create_table", "variant": "japanese", "options": {"rated": False}})
    assert (await client.receive_type("table"))  # casual is open to them
    await client.close()


# --- Staff lift a pause -----------------------------------------------------------------------

@db
def test_staff_lift_a_pause_with_a_reason_the_audit_entry_is_written_and_the_walk_out_forgiven():
    tamar, _levan, pause = _paused_player()
    client, moderator = moderator_client()
    listing = client.get("/admin/conduct/pause/?in_force=yes")
    assert listing.status_code == 200 and "tamar" in listing.content.decode()
    assert client.get("/admin/conduct/walkout/").status_code == 200
    page = client.get(f"/admin/conduct/pause/{pause.pk}/change/")
    assert action_url("conduct", "pause", "lift_pause", pause.pk) in page.content.decode()
    # No reason: refused, nothing changes.
    confirm(client, "conduct", "pause", "lift_pause", [pause.pk], reason="   ")
    assert conduct.active_pause(tamar) is not None and not AuditEntry.objects.exists()
    answer = confirm(client, "conduct", "pause", "lift_pause", [pause.pk], reason="the server restarted")
    assert answer.status_code == 302
    pause.refresh_from_db()
    assert pause.lifted_by == moderator and pause.lift_reason == "the server restarted"
    assert conduct.active_pause(tamar) is None
    conduct.refuse_if_paused(tamar)
    table_service.create_table(tamar, TableSettings(variant="japanese", rated=True))
    (entry,) = AuditEntry.objects.all()
    assert (entry.action, entry.actor, entry.reason) == (AuditAction.LIFT_PAUSE, moderator, "the server restarted")
    assert entry.details["pause_id"] == pause.pk and entry.details["match_id"] == pause.walk_out.match_id
    assert WalkOut.objects.get(pk=pause.walk_out_id).forgiven
    assert conduct.standing(tamar).walk_outs == 1  # the forgiven one no longer climbs the ladder
    assert conduct.reliability(tamar).walked_out == 1
    # Lifting again: refused, no second entry.
    again = confirm(client, "conduct", "pause", "lift_pause", [pause.pk], reason="twice")
    assert again.status_code == 200 and AuditEntry.objects.count() == 1
    assert "tamar" in client.get(f"/admin/conduct/pause/{pause.pk}/change/").content.decode()


@db
def test_a_lift_that_fails_writes_no_audit_entry_and_changes_nothing():
    from moderation.services import ModerationError

    tamar, _levan, pause = _paused_player()
    _client, moderator = moderator_client()
    _time_passes(tamar, timedelta(minutes=10))  # the pause has ended by itself
    with pytest.raises(ModerationError):
        moderation.lift_pause(pause.pk, "late", moderator)
    assert not AuditEntry.objects.exists()
    assert not WalkOut.objects.get(pk=pause.walk_out_id).forgiven


@db
def test_people_who_are_not_staff_cannot_lift_a_pause():
    tamar, _levan, pause = _paused_player()
    client = Client()
    client.force_login(tamar.user)
    answer = confirm(client, "conduct", "pause", "lift_pause", [pause.pk], reason="please")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
    assert conduct.active_pause(tamar) is not None


# --- Reliability ------------------------------------------------------------------------------

@db
def test_reliability_is_the_share_of_finished_rated_matches_with_its_counts():
    tamar, levan = make_player("tamar"), make_player("levan")
    for leaver in (tamar, levan, levan):
        walk_out_of(_match(levan, tamar).pk, leaver)
        _time_passes(levan, timedelta(hours=2))  # a pause ends before the next match
    walk_out_of(_match(levan, tamar, rated=False).pk, tamar)  # casual: not in the figure
    resign(_match(levan, tamar).pk, tamar)  # resigned: played to its end, not walked out of
    mine, theirs = conduct.reliability(tamar), conduct.reliability(levan)
    assert (mine.matches, mine.finished, mine.walked_out, mine.percent) == (4, 3, 1, 75)
    assert (theirs.matches, theirs.finished, theirs.walked_out, theirs.percent) == (4, 2, 2, 50)
    assert conduct.reliability(make_player("nino")).percent is None
    page = Client().get("/en/players/tamar/").content.decode()
    assert re.search(r'class="reliability-percent">75%<', page)
    assert re.search(r'class="reliability-finished">3<', page) and re.search(r'class="reliability-walked-out">1<', page)
    assert "pause-notice" not in page  # another visitor sees the figure, not the warning


@db
def test_reliability_counts_only_the_latest_rated_matches(monkeypatch):
    monkeypatch.setattr(conduct, "RELIABILITY_MATCHES", 3)
    tamar, levan = make_player("tamar"), make_player("levan")
    walk_out_of(_match(levan, tamar).pk, tamar)  # the oldest: left out once three more are played
    for name in ("nino", "gio", "dato"):
        opponent = make_player(name)
        resign(_match(opponent, tamar).pk, opponent)
    figure = conduct.reliability(tamar)
    assert (figure.matches, figure.walked_out, figure.percent) == (3, 0, 100)


@db
def test_one_walk_out_in_many_never_shows_as_a_hundred_percent():
    assert conduct.Reliability(50, 1).percent == 98
    assert conduct.Reliability(7, 1).percent == 85
    assert conduct.Reliability(300, 1).percent == 99
