"""Quick play (quickplay/, docs/quickplay.md): the queue pairs near ratings, widens with the
wait, lets a player leave, holds each stake once (by the seat), refuses clearly, and seats a
player who welcomes bots with them (one tap on the offer, or by itself after the wait), in
both variants, at a free casual table."""

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from coins import services as coins
from games.models import BotLevel, Match, MatchStatus, Seat, Table, TableStatus
from games.services import tables as table_service
from games.services.tables import TableSettings
from moderation.services import ban_user
from quickplay import services
from quickplay.models import EntryStatus, QueueEntry
from quickplay.services import Queue, QuickPlayError
from ratings.models import Rating
from ratings.services import MODEL
from tests.coins_helpers import race, set_balance
from tests.factories import make_guest, make_player
from tests.moderation_support import make_moderator

pytestmark = pytest.mark.django_db

RANGE = {"QUICKPLAY_RANGE_START": 100, "QUICKPLAY_RANGE_PER_SECOND": 10, "QUICKPLAY_BOTS_AFTER_SECONDS": 30}


@pytest.fixture(autouse=True)
def _range_settings(settings):
    for name, value in RANGE.items():
        setattr(settings, name, value)


def rated_at(player, shown, variant="japanese"):
    """Give the player a rating that shows `shown` (40 shown points per point of mu − 3σ)."""
    sigma = MODEL.sigma
    Rating.objects.update_or_create(player=player, variant=variant,
                                    defaults={"mu": (shown - 1000) / 40 + 3 * sigma, "sigma": sigma})
    return player


def waited(entry, seconds):
    """Pretend `entry` joined `seconds` ago."""
    QueueEntry.objects.filter(pk=entry.pk).update(joined_at=timezone.now() - timedelta(seconds=seconds))


def seats_of(table):
    return {seat.player_id for seat in Seat.objects.filter(table=table, player__isnull=False)}


def entry_of(player):
    return QueueEntry.objects.filter(player=player).latest("pk")


# --- Pairing by rating, and the range widening ------------------------------------------------

def test_two_members_near_in_rating_are_seated_at_a_started_rated_japanese_match():
    tamar, levan = make_player("tamar"), make_player("levan")
    first = services.join(tamar, "japanese", 0)
    assert first.status == EntryStatus.WAITING and first.rating == 1000  # no rating yet: the newcomer's
    second = services.join(levan, "japanese", 0)
    assert second.status == EntryStatus.PAIRED
    table = second.table
    assert entry_of(tamar).table == table and entry_of(tamar).status == EntryStatus.PAIRED
    assert table.status == TableStatus.PLAYING and table.rated and table.variant == "japanese"
    assert seats_of(table) == {tamar.pk, levan.pk}
    assert Match.objects.get(table=table).status == MatchStatus.RUNNING


def test_a_far_rating_waits_until_both_ranges_have_widened_enough():
    strong = rated_at(make_player("strong"), 1400)
    newcomer = make_player("newcomer")
    far = services.join(strong, "japanese", 0)
    near = services.join(newcomer, "japanese", 0)
    assert (far.rating, near.rating) == (1400, 1000)
    assert near.status == EntryStatus.WAITING  # 400 apart: the start range is 100
    waited(far, 60)  # one range is 700 now, the other still 100: both must accept
    assert services.pair_all() == 0
    waited(near, 29)  # 100 + 290 < 400
    assert services.pair_all() == 0
    waited(near, 30)  # 100 + 300 = 400
    assert services.pair_all() == 1
    assert entry_of(strong).table == entry_of(newcomer).table


def test_the_nearest_rating_is_chosen_and_the_longest_waiting_player_goes_first():
    first = rated_at(make_player("first"), 1000)
    far = rated_at(make_player("far"), 1090)
    services.join(first, "japanese", 0)
    waited(entry_of(first), 5)  # range 150: "far" would fit
    services.join(far, "japanese", 0)
    assert entry_of(far).status == EntryStatus.PAIRED  # the first one near enough is taken at once
    assert entry_of(first).table == entry_of(far).table

    a, b, c = make_player("a"), make_player("b"), make_player("c")
    for player, shown in ((a, 1000), (b, 1200), (c, 1060)):  # waiting together before any pairing ran
        QueueEntry.objects.create(player=player, variant="japanese", stake=0, rating=shown)
    for entry in QueueEntry.objects.filter(status=EntryStatus.WAITING):
        waited(entry, 30)  # ranges of 400: everyone accepts everyone
    assert services.pair_all() == 1
    assert entry_of(a).table == entry_of(c).table  # 60 apart, rather than 200
    assert entry_of(b).status == EntryStatus.WAITING


def test_classic_waits_for_four_players_of_near_rating():
    players = [make_player(f"classic{i}") for i in range(4)]
    for player in players[:3]:
        assert services.join(player, "classic", 0).status == EntryStatus.WAITING
    last = services.join(players[3], "classic", 0)
    assert last.status == EntryStatus.PAIRED
    assert seats_of(last.table) == {player.pk for player in players}
    assert last.table.rated and last.table.status == TableStatus.PLAYING


def test_queues_of_other_variants_or_stakes_never_meet():
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, "japanese", 0)
    services.join(levan, "japanese", 25)
    for entry in QueueEntry.objects.all():
        waited(entry, 600)
    assert services.pair_all() == 0
    assert services.looking_count(Queue("japanese", 0, True)) == 1


def test_guests_wait_in_a_free_casual_queue_of_their_own():
    member, guest, other_guest = make_player("member"), make_guest(), make_guest()
    services.join(member, "japanese", 0)
    assert services.join(guest, "japanese", 0).status == EntryStatus.WAITING  # not with the member
    paired = services.join(other_guest, "japanese", 0)
    assert paired.status == EntryStatus.PAIRED and not paired.rated
    assert not paired.table.rated and seats_of(paired.table) == {guest.pk, other_guest.pk}
    assert entry_of(member).status == EntryStatus.WAITING


# --- Leaving ------------------------------------------------------------------------------------

def test_leaving_takes_the_player_out_and_a_second_leave_is_refused():
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, "japanese", 0)
    left = services.leave(tamar)
    assert left.status == EntryStatus.LEFT and left.ended_at is not None
    with pytest.raises(QuickPlayError) as refused:
        services.leave(tamar)
    assert refused.value.code == "not_waiting"
    assert services.join(levan, "japanese", 0).status == EntryStatus.WAITING  # nobody to pair with
    assert not Table.objects.exists()
    assert services.join(tamar, "japanese", 0).status == EntryStatus.PAIRED  # and may come back


def test_leaving_after_the_pairing_seated_the_player_names_the_table():
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, "japanese", 0)
    table = services.join(levan, "japanese", 0).table
    with pytest.raises(QuickPlayError) as refused:
        services.leave(tamar)
    assert refused.value.code == "already_paired"
    assert refused.value.params == {"table": table.pk, "match": Match.objects.get(table=table).pk}


# --- Stakes ---------------------------------------------------------------------------------------

def test_a_stake_is_held_once_by_the_seat_and_never_while_waiting():
    tamar, levan = make_player("tamar"), make_player("levan")
    set_balance(tamar.user, 300)
    set_balance(levan.user, 300)
    services.join(tamar, "japanese", 100)
    assert coins.balance_of(tamar.user) == 300 and coins.staked_total(tamar.user) == 0
    with pytest.raises(QuickPlayError):
        services.join(tamar, "japanese", 100)  # a double click
    table = services.join(levan, "japanese", 100).table
    assert table.stake == 100 and table.is_coin_table
    for player in (tamar, levan):
        assert coins.balance_of(player.user) == 200
        assert coins.staked_total(player.user) == 100
        assert coins.held_stake(player.user, table.escrow_key).amount == 100
    assert services.pair_all() == 0  # running the pairing again takes nothing more
    assert coins.balance_of(tamar.user) == coins.balance_of(levan.user) == 200


def test_leaving_a_stake_queue_costs_nothing():
    tamar = make_player("tamar")
    before = coins.balance_of(tamar.user)
    services.join(tamar, "japanese", 250)
    services.leave(tamar)
    assert coins.balance_of(tamar.user) == before and coins.staked_total(tamar.user) == 0


def test_a_player_who_can_no_longer_cover_the_stake_is_taken_out_and_the_other_waits_on():
    tamar, levan, nino = make_player("tamar"), make_player("levan"), make_player("nino")
    set_balance(tamar.user, 100)
    services.join(tamar, "japanese", 100)
    set_balance(tamar.user, 50)  # spent meanwhile
    assert services.join(levan, "japanese", 100).status == EntryStatus.WAITING
    dropped = entry_of(tamar)
    assert dropped.status == EntryStatus.DROPPED and dropped.reason == "insufficient_funds"
    assert coins.balance_of(tamar.user) == 50 and coins.staked_total(levan.user) == 0
    assert services.join(nino, "japanese", 100).status == EntryStatus.PAIRED
    assert seats_of(entry_of(nino).table) == {levan.pk, nino.pk}


# --- Refusals -------------------------------------------------------------------------------------

def refusal(player, variant="japanese", stake=0, bots=False):
    before = (QueueEntry.objects.count(), Table.objects.count())
    with pytest.raises(QuickPlayError) as refused:
        services.join(player, variant, stake, bots)
    assert (QueueEntry.objects.count(), Table.objects.count()) == before  # changed nothing
    assert refused.value.message
    return refused.value.code


def test_who_may_not_queue_is_told_why_and_nothing_changes():
    tamar = make_player("tamar")
    assert refusal(tamar, variant="lotto") == "invalid_variant"
    assert refusal(tamar, stake=30) == "invalid_stake"
    assert refusal(tamar, stake="25") == "invalid_stake"
    assert refusal(tamar, bots="yes") == "bad_message"
    set_balance(tamar.user, 20)
    assert refusal(tamar, stake=25) == "insufficient_funds"
    assert refusal(make_guest(), stake=25) == "guest_coins"

    seated = make_player("seated")
    table_service.create_table(seated, TableSettings(variant="japanese"))
    assert refusal(seated) == "already_seated"

    banned = make_player("banned")
    ban_user(banned.user_id, timedelta(days=1), "abuse", make_moderator())
    assert refusal(banned) == "banned"

    services.join(tamar, "japanese", 0)
    assert refusal(tamar) == "already_waiting"  # a double click
    assert refusal(tamar, variant="classic") == "already_waiting"


def test_may_queue_is_the_one_check_and_the_pairing_asks_it_again():
    tamar, levan, nino = make_player("tamar"), make_player("levan"), make_player("nino")
    services.join(tamar, "japanese", 0)
    table_service.create_table(tamar, TableSettings(variant="classic"))  # sat down elsewhere meanwhile
    assert services.join(levan, "japanese", 0).status == EntryStatus.WAITING
    assert entry_of(tamar).status == EntryStatus.DROPPED and entry_of(tamar).reason == "already_seated"

    ban_user(levan.user_id, timedelta(hours=1), "abuse", make_moderator())
    assert services.join(nino, "japanese", 0).status == EntryStatus.WAITING
    assert entry_of(levan).reason == "banned"
    assert Table.objects.filter(variant="japanese").count() == 0


# --- Bots after the wait --------------------------------------------------------------------------

def test_classic_with_bots_waits_the_setting_then_seats_the_waiting_players_with_bots():
    nino, gio, other = make_player("nino"), make_player("gio"), make_player("other")
    services.join(nino, "classic", 0, bots=True)
    services.join(gio, "classic", 0, bots=True)
    services.join(other, "classic", 0)  # did not ask for bots
    waited(entry_of(nino), 29)
    assert services.pair_all() == 0
    waited(entry_of(nino), 30)
    assert services.pair_all() == 1
    table = entry_of(nino).table
    assert entry_of(gio).table == table and entry_of(other).status == EntryStatus.WAITING
    seats = list(Seat.objects.filter(table=table))
    assert len(seats) == 4 and sum(seat.is_bot for seat in seats) == 2
    assert not table.rated and table.fill_with_bots and table.stake == 0
    assert table.status == TableStatus.PLAYING


@override_settings(QUICKPLAY_BOTS_AFTER_SECONDS=5)
def test_the_bots_wait_is_a_setting():
    nino = make_player("nino")
    services.join(nino, "classic", 0, bots=True)
    waited(entry_of(nino), 5)
    assert services.pair_all() == 1
    assert services.status_of(entry_of(nino))["status"] == "paired"


def test_a_japanese_player_alone_is_seated_with_one_bot_after_the_wait():
    nino = make_player("nino")
    services.join(nino, "japanese", 0, bots=True)
    waited(entry_of(nino), 29)
    assert services.pair_all() == 0
    waited(entry_of(nino), 30)
    assert services.pair_all() == 1
    table = entry_of(nino).table
    assert table.variant == "japanese" and not table.rated and table.stake == 0
    assert [seat.is_bot for seat in Seat.objects.filter(table=table).order_by("is_bot")] == [False, True]
    assert Match.objects.get(table=table).status == MatchStatus.RUNNING


def test_a_staked_queue_falls_back_to_a_free_casual_table_with_bots_and_holds_no_coins():
    nino = make_player("nino")
    set_balance(nino.user, 100)
    services.join(nino, "japanese", 50, bots=True)
    waited(entry_of(nino), 30)
    assert services.pair_all() == 1
    table = entry_of(nino).table
    assert (table.stake, table.rated, table.fill_with_bots) == (0, False, True)
    assert coins.balance_of(nino.user) == 100


def test_taking_the_offer_seats_the_player_with_bots_at_once():
    nino, gio = make_player("nino"), make_player("gio")
    services.join(nino, "classic", 0, bots=True)
    services.join(gio, "classic", 0, bots=True)  # near nino's rating: comes along
    assert services.pair_all() == 0  # nobody has waited long enough for bots by themselves
    entry = services.bots_now(nino)
    assert entry.status == EntryStatus.PAIRED and entry_of(gio).table == entry.table
    assert Seat.objects.filter(table=entry.table, is_bot=True).count() == 2
    with pytest.raises(QuickPlayError) as refused:
        services.bots_now(nino)  # a second tap: the game has started
    assert refused.value.code == "already_paired" and refused.value.params["table"] == entry.table_id


@pytest.mark.parametrize("level", BotLevel.values)
def test_taking_the_offer_at_a_level_makes_that_the_tables_bot_level(level):
    nino = make_player("nino")
    services.join(nino, "japanese", 0, bots=True)
    entry = services.bots_now(nino, level)
    assert entry.table.bot_level == level and entry.table.fill_with_bots and not entry.table.rated


def test_an_unknown_bot_level_is_refused_and_the_player_waits_on():
    nino = make_player("nino")
    services.join(nino, "classic", 0, bots=True)
    with pytest.raises(QuickPlayError) as refused:
        services.bots_now(nino, "grandmaster")
    assert refused.value.code == "bad_message"
    assert entry_of(nino).status == EntryStatus.WAITING and not Table.objects.exists()


def test_bots_that_come_by_themselves_after_the_wait_are_club_bots():
    nino = make_player("nino")
    services.join(nino, "japanese", 0, bots=True)
    waited(entry_of(nino), 30)
    assert services.pair_all() == 1
    assert entry_of(nino).table.bot_level == BotLevel.CLUB


def test_a_player_who_declines_bots_waits_for_people_only_and_cannot_take_them_later():
    nino = make_player("nino")
    services.join(nino, "japanese", 0, bots=True)
    assert services.people_only(nino).bots is False
    waited(entry_of(nino), 600)
    assert services.pair_all() == 0 and entry_of(nino).status == EntryStatus.WAITING
    with pytest.raises(QuickPlayError) as refused:
        services.bots_now(nino)
    assert refused.value.code == "people_only" and entry_of(nino).status == EntryStatus.WAITING
    services.leave(nino)
    for change in (services.bots_now, services.people_only):
        with pytest.raises(QuickPlayError) as refused:
            change(nino)
        assert refused.value.code == "not_waiting"
    assert not Table.objects.exists()


def test_four_people_who_asked_for_bots_play_each_other_rated():
    players = [make_player(f"p{i}") for i in range(4)]
    for player in players:
        services.join(player, "classic", 0, bots=True)
    table = entry_of(players[0]).table
    assert table.rated and not Seat.objects.filter(table=table, is_bot=True).exists()


# --- What the waiting player sees --------------------------------------------------------------

def test_the_status_says_the_wait_the_number_looking_and_the_range():
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, "classic", 0, bots=True)
    services.join(levan, "classic", 0)
    waited(entry_of(tamar), 12)
    status = services.status_of(entry_of(tamar))
    assert status["waited"] == 12 and status["looking"] == 2
    assert status["range"] == [1000 - 220, 1000 + 220] and status["bots_after"] == 18


# --- Races ------------------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_pairings_racing_in_several_threads_seat_each_player_once():
    players = [make_player(f"racer{i}") for i in range(6)]
    for player in players:
        QueueEntry.objects.create(player=player, variant="japanese", stake=25, rating=1000)
    results = race(4, lambda i: len(services.pair_queue(Queue("japanese", 25, True))))
    assert all(kind == "ok" for kind, _ in results), results
    assert sum(made for _, made in results) == 3
    assert Seat.objects.filter(player__in=players).count() == 6
    for player in players:
        assert coins.staked_total(player.user) == 25


@pytest.mark.django_db(transaction=True)
def test_the_same_player_joining_twice_at_once_waits_once():
    tamar = make_player("tamar")
    results = race(4, lambda i: services.join(tamar, "japanese", 0).pk)
    assert sorted(kind for kind, _ in results) == ["error", "error", "error", "ok"]
    assert {result.code for kind, result in results if kind == "error"} == {"already_waiting"}
    assert QueueEntry.objects.filter(player=tamar).count() == 1


def test_the_periodic_pass_takes_out_the_banned_and_the_seated_even_when_nobody_else_waits():
    banned, seated = make_player("banned"), make_player("seated")
    services.join(banned, "japanese", 0)
    services.join(seated, "classic", 0)
    ban_user(banned.user_id, None, "abuse", make_moderator())
    table_service.create_table(seated, TableSettings(variant="japanese"))
    assert services.pair_all() == 0
    assert [entry_of(banned).reason, entry_of(seated).reason] == ["banned", "already_seated"]
    assert services.looking_count(Queue("japanese", 0, True)) == 0


def test_a_player_whose_page_nobody_has_seen_for_a_while_is_taken_out(settings):
    settings.QUICKPLAY_ABSENT_SECONDS = 30
    gone, here = make_player("gone"), make_player("here")
    services.join(gone, "japanese", 0)
    QueueEntry.objects.filter(player=gone).update(seen_at=timezone.now() - timedelta(seconds=31))
    services.join(here, "japanese", 0)  # the only other one waiting closed the page: no match with nobody
    assert entry_of(gone).status == EntryStatus.DROPPED and entry_of(gone).reason == "gone"
    assert entry_of(here).status == EntryStatus.WAITING
    QueueEntry.objects.filter(player=here).update(seen_at=timezone.now() - timedelta(seconds=29))
    assert services.still_here(here) and not services.still_here(gone)
    assert services.pair_all() == 0 and entry_of(here).status == EntryStatus.WAITING
