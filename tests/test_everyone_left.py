"""When every person at a table goes at once, nobody walked out (docs/conduct.md, "Everyone left
at once"): the match is aborted, no rating moves and no walk-out is written, whichever grace
ran out first; a leaving noticed a moment later (a socket closing just after, a web process
found dead by the sweeper) is waited for; a player who left well before the others is still
charged. The sockets are the real table consumers, the timers Celery's real tick and sweep;
time passing is the disconnect stamps moved into the past, never a wait."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from conduct import services as conduct
from conduct.models import Pause, WalkOut
from games.models import Match, MatchStatus, Seat
from games.services import presence
from games.services import tables as table_service
from games.services.tables import TableSettings
from games.tasks import sweep, tick
from ratings.models import RatingChange
from tests.factories import make_player
from tests.live_clients import connect

db = pytest.mark.django_db


def _rated(variant, names, **options):
    players = [make_player(name) for name in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, rated=True, **options))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    return Match.objects.get(table=table), players


def _seats(match):
    return {seat.player_id: seat for seat in Seat.objects.filter(table_id=match.table_id)}


def _time_passes(match, seconds):
    """Every disconnect stamp of the table `seconds` further in the past, as if that long went by."""
    for seat in Seat.objects.filter(table_id=match.table_id, disconnected_at__isnull=False):
        Seat.objects.filter(pk=seat.pk).update(disconnected_at=seat.disconnected_at - timedelta(seconds=seconds))


def _grace_and_window():
    return settings.DISCONNECT_GRACE_SECONDS + settings.EVERYONE_GONE_WINDOW_SECONDS


def _nobody_charged(match, players):
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.end_reason, match.winners) == (MatchStatus.ABORTED, "everyone_left", [])
    assert not RatingChange.objects.filter(match=match).exists()
    assert not WalkOut.objects.exists() and not Pause.objects.exists()
    assert all(conduct.standing(player).walk_outs == 0 for player in players)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_both_players_closing_their_pages_together_change_no_rating_and_record_no_walk_out():
    from asgiref.sync import sync_to_async

    match, players = await sync_to_async(_rated)("japanese", ("tamar", "levan"))
    sockets = [await connect(match.table_id, player) for player in players]
    for socket in sockets:
        assert "data-version" in await socket.receive_from(timeout=10)  # the table: the seat is counted
    assert [seat.connections for seat in (await sync_to_async(_seats)(match)).values()] == [1, 1]
    for socket in sockets:  # both close their browsers, one a moment after the other
        await socket.disconnect()

    def settle():
        assert all(seat.disconnected_at for seat in _seats(match).values())
        assert tick()["graces"] == 0  # the grace has just begun
        _time_passes(match, settings.DISCONNECT_GRACE_SECONDS + 1)
        assert tick()["graces"] == 0  # the grace is over, the window after it not yet
        assert Match.objects.get(pk=match.pk).status == MatchStatus.RUNNING
        _time_passes(match, settings.EVERYONE_GONE_WINDOW_SECONDS)
        assert tick()["graces"] == 1  # one decision for the table: aborted
        assert tick()["graces"] == 0  # the other seat's grace finds the match over
        _nobody_charged(match, players)

    await sync_to_async(settle)()


@db
def test_a_second_leaving_noticed_later_by_the_sweeper_still_counts_as_together():
    """Levan's web process died as Tamar closed her page: his seat still counts as connected when
    her grace ends; the sweeper finds him gone, from when his process was last seen, in time."""
    from joker_site.heartbeat import stale_seconds

    match, (tamar, levan) = _rated("japanese", ("tamar", "levan"))
    seats = _seats(match)
    presence.connected(match.table_id, tamar)
    presence.connected(match.table_id, levan)
    presence.disconnected(seats[tamar.pk].pk)
    ago = settings.DISCONNECT_GRACE_SECONDS + 1
    assert ago > stale_seconds()
    _time_passes(match, ago)  # her grace is over; his process stopped beating just after she left
    Seat.objects.filter(pk=seats[levan.pk].pk).update(
        seen_at=timezone.now() - timedelta(seconds=ago - 1))
    assert tick()["graces"] == 0  # within the window: she is not charged yet
    assert sweep() == {"unseen": 1, "clocks": 0, "graces": 0, "tables": 0}  # he is found gone
    _time_passes(match, settings.EVERYONE_GONE_WINDOW_SECONDS)
    assert tick()["graces"] == 1
    _nobody_charged(match, [tamar, levan])


@db
def test_a_player_who_left_well_before_the_other_is_still_charged():
    match, (tamar, levan) = _rated("japanese", ("tamar", "levan"))
    seats = _seats(match)
    presence.connected(match.table_id, tamar)
    presence.connected(match.table_id, levan)
    presence.disconnected(seats[tamar.pk].pk)
    _time_passes(match, 2 * settings.EVERYONE_GONE_WINDOW_SECONDS + 1)
    presence.disconnected(seats[levan.pk].pk)  # he closes his page later than the window
    _time_passes(match, _grace_and_window())
    assert tick()["graces"] == 1
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.end_reason, match.winners) == (
        MatchStatus.FINISHED, "forfeit", [seats[levan.pk].index])
    assert [walk_out.player_id for walk_out in WalkOut.objects.all()] == [tamar.pk]
    assert RatingChange.objects.filter(match=match).count() == 2


def _classic_with_people_away(away):
    """A rated classic match whose four people opened the table; the first `away` closed it at once."""
    match, players = _rated("classic", ("ana", "beka", "gio", "dato"), game_type="short")
    seats = _seats(match)
    for player in players:
        presence.connected(match.table_id, player)
    for player in players[:away]:
        presence.disconnected(seats[player.pk].pk)
    return match, players


@db
def test_every_person_of_a_classic_table_gone_at_once_is_an_abort_without_walk_outs():
    match, players = _classic_with_people_away(4)
    _time_passes(match, _grace_and_window() + 1)
    assert tick()["graces"] == 1
    assert Seat.objects.filter(table_id=match.table_id, left_at__isnull=False).count() == 0  # nobody left alone
    _nobody_charged(match, players)


@db
def test_a_classic_player_gone_while_the_others_stay_is_charged_and_a_bot_plays_on():
    match, players = _classic_with_people_away(3)  # three go at once; dato stays
    _time_passes(match, _grace_and_window() + 1)
    assert tick()["graces"] == 3
    assert Match.objects.get(pk=match.pk).status == MatchStatus.RUNNING
    assert sorted(WalkOut.objects.values_list("player_id", flat=True)) == sorted(p.pk for p in players[:3])


@db
@pytest.mark.parametrize("language, words", [
    ("ru", "Все игроки покинули стол в один и тот же момент"),
    ("ka", "ყველამ ერთსა და იმავე წამს დატოვა მაგიდა"),
])
def test_the_end_of_the_match_and_its_replay_say_everyone_left_at_once_not_that_someone_walked_out(
        client, language, words):
    from django.urls import reverse

    from games.replay import step_places

    match, (tamar, levan) = _rated("japanese", ("tamar", "levan"))
    seats = _seats(match)
    presence.connected(match.table_id, tamar)
    presence.connected(match.table_id, levan)
    presence.disconnected(seats[tamar.pk].pk)
    presence.disconnected(seats[levan.pk].pk)
    _time_passes(match, _grace_and_window() + 1)
    assert tick()["graces"] == 1
    client.force_login(tamar.user)
    client.cookies["django_language"] = language
    table_page = client.get(f"/{language}/tables/{match.table_id}/").content.decode()
    assert words in table_page
    last_step = len(step_places(Match.objects.get(pk=match.pk).record)) - 1
    replay = client.get(reverse("table_replay", args=[match.table_id]) + f"?step={last_step}").content.decode()
    assert words in replay and "walked out" not in replay
