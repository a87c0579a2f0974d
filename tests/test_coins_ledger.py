"""The ledger's rules, one behaviour per test, on the real database."""

import datetime

import pytest
from coins_helpers import assert_ledger_sound, make_staff, make_user, set_balance
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import translation

from coins import services
from coins.models import Account, Entry, EntryKind, ImmutableEntryError, Payout, Stake

pytestmark = pytest.mark.django_db

TBILISI = datetime.timezone(datetime.timedelta(hours=4))


def entries_of(user):
    return list(services.history(user))


# --- welcome grant ----------------------------------------------------------------


def test_a_new_account_gets_the_welcome_grant_when_it_confirms_an_address_and_exactly_once():
    from tests.factories import confirm_email

    user = make_user(confirmed=False)
    assert Account.objects.get(user=user).balance == 0  # the wallet opens empty at sign-up
    assert not Entry.objects.filter(kind=EntryKind.WELCOME_GRANT).exists()
    address = confirm_email(user)
    assert services.balance_of(user) == services.WELCOME_GRANT == 1000
    services.wallet_for(user)
    user.save()  # a later save of the user is not a new account
    address.save()  # nor a later save of the address
    confirm_email(user, "second@example.com")  # nor a second confirmed address
    assert services.pay_welcome_grant(user) is None
    grants = Entry.objects.filter(credit__user=user, kind=EntryKind.WELCOME_GRANT)
    assert grants.count() == 1
    assert grants.get().debit.kind == Account.Kind.MINT
    assert services.balance_of(user) == 1000
    assert_ledger_sound()


def test_an_unconfirmed_member_can_neither_stake_nor_claim_the_bonus_and_nothing_moves():
    user = make_user(confirmed=False)
    with translation.override("en"), pytest.raises(services.EmailNotVerified) as refusal:
        services.stake(user, "table:1", 25)
    with translation.override("en"):
        assert "Confirm your e-mail address" in refusal.value.message
    with pytest.raises(services.BonusNotAvailable) as no_bonus:
        services.claim_daily_bonus(user)
    assert no_bonus.value.reason == services.BonusNotAvailable.NOT_VERIFIED
    assert not services.bonus_status(user).claimable
    assert not Entry.objects.filter(credit__user=user).exists()
    assert not Account.objects.filter(key="table:1", balance__gt=0).exists()
    assert_ledger_sound()


def test_guests_and_anonymous_visitors_have_no_wallet():
    guest = get_user_model()(username="guest-1")
    guest.is_guest = True  # what the accounts app sets on guest players
    guest.save()
    assert not Account.objects.filter(user=guest).exists()
    with pytest.raises(services.NotEligible):
        services.wallet_for(guest)
    with pytest.raises(services.NotEligible):
        services.stake(AnonymousUser(), "table:1", 25)
    assert services.balance_of(AnonymousUser()) == 0


# --- stakes -----------------------------------------------------------------------


def test_joining_moves_the_stake_from_wallet_to_the_table_escrow():
    user = make_user()
    held = services.stake(user, "table:7", 100, table_id=7)
    assert held.state == Stake.State.HELD and held.amount == 100
    assert services.balance_of(user) == 900
    assert Account.objects.get(key="table:7").balance == 100
    assert services.staked_total(user) == 100
    entry = entries_of(user)[0]
    assert (entry.kind, entry.amount, entry.table_id) == (EntryKind.STAKE, 100, 7)
    assert_ledger_sound()


def test_joining_twice_charges_the_stake_once():
    user = make_user()
    first = services.stake(user, "table:1", 50)
    second = services.stake(user, "table:1", 50)
    assert first.pk == second.pk
    assert services.balance_of(user) == 950


@pytest.mark.parametrize("amount", [0, -25, 30, 1000, 25.0, "25", True])
def test_only_the_table_stakes_can_be_staked(amount):
    user = make_user()
    with pytest.raises(services.InvalidAmount):
        services.stake(user, "table:1", amount)
    assert services.balance_of(user) == 1000
    assert not Account.objects.filter(key="table:1").exists()


def test_a_player_who_cannot_cover_the_stake_cannot_sit_and_nothing_changes():
    user = make_user()
    set_balance(user, 240)
    entries_before = Entry.objects.count()
    with pytest.raises(services.InsufficientFunds) as refused:
        services.stake(user, "table:3", 250)
    assert (refused.value.needed, refused.value.available) == (250, 240)
    with translation.override("en"):
        assert str(refused.value) == "You need 250 Domino Coins for this but have only 240."
    with translation.override("ru"):
        assert str(refused.value) == "Для этого нужно 250 коинов, а у вас только 240."
    assert services.balance_of(user) == 240
    assert Entry.objects.count() == entries_before
    assert not Account.objects.filter(key="table:3").exists()
    assert_ledger_sound()


def test_every_stake_in_one_escrow_is_the_same_amount():
    a, b = make_user(), make_user()
    services.stake(a, "table:1", 25)
    with pytest.raises(services.StakeMismatch):
        services.stake(b, "table:1", 50)
    with pytest.raises(services.StakeMismatch):
        services.stake(a, "table:1", 50)
    assert services.balance_of(b) == 1000


def test_standing_up_before_the_start_returns_the_stake_and_twice_does_nothing():
    user = make_user()
    services.stake(user, "table:2", 250)
    refund = services.refund_stake(user, "table:2")
    assert refund.kind == EntryKind.REFUND and refund.amount == 250
    assert services.refund_stake(user, "table:2") is None
    assert services.refund_stake(user, "table:never-used") is None
    assert services.balance_of(user) == 1000
    assert Account.objects.get(key="table:2").balance == 0
    assert not Account.objects.filter(key="table:never-used").exists()
    assert_ledger_sound()


def test_after_the_match_starts_a_stake_can_neither_be_taken_back_nor_added():
    a, b, late = make_user(), make_user(), make_user()
    services.stake(a, "table:4", 100)
    services.stake(b, "table:4", 100)
    services.seal("table:4")
    with pytest.raises(services.EscrowSealed):
        services.refund_stake(a, "table:4")
    with pytest.raises(services.EscrowSealed):
        services.stake(late, "table:4", 100)
    assert services.balance_of(a) == 900 and services.balance_of(late) == 1000


# --- payouts ----------------------------------------------------------------------


def test_japanese_winner_gets_both_stakes():
    winner, loser = make_user(), make_user()
    for player in (winner, loser):
        services.stake(player, "table:10", 250, table_id=10)
    services.seal("table:10")
    payout = services.pay_out("table:10", [winner], "match:100", table_id=10, match_id=100)
    assert (payout.pot, payout.share, payout.remainder) == (500, 500, 0)
    assert services.balance_of(winner) == 1250
    assert services.balance_of(loser) == 750
    assert Account.objects.get(key="table:10").balance == 0
    assert not Account.objects.get(key="table:10").sealed
    assert set(Stake.objects.filter(escrow__key="table:10").values_list("state", flat=True)) == {"settled"}
    line = entries_of(winner)[0]
    assert (line.kind, line.amount, line.match_id) == (EntryKind.PAYOUT, 500, 100)
    assert_ledger_sound()


def test_classic_tied_winners_split_the_pot_and_the_house_gets_the_remainder():
    players = [make_user() for _ in range(4)]
    for player in players:
        services.stake(player, "table:11", 25)
    payout = services.pay_out("table:11", players[:3], "match:101")
    assert (payout.pot, payout.share, payout.remainder) == (100, 33, 1)
    assert [services.balance_of(p) for p in players] == [1008, 1008, 1008, 975]
    assert services.house_account().balance == 1
    assert_ledger_sound()


def test_weights_split_the_pot_in_proportion_and_the_rounding_goes_to_the_house():
    players = [make_user() for _ in range(4)]
    for player in players:
        services.stake(player, "tournament:7", 25)
    for bad in ([50, 30], [50, 30, 0], [50, 30, "20"], [5.0, 3, 2]):
        with pytest.raises(ValueError):
            services.pay_out("tournament:7", players[:3], "tournament:7", weights=bad)
    assert not Payout.objects.exists() and Account.objects.get(key="tournament:7").balance == 100
    payout = services.pay_out("tournament:7", players[:3], "tournament:7", weights=[150, 50, 50])
    # 100 × 150/250 = 60, 100 × 50/250 = 20 each: nothing left over
    assert [services.balance_of(p) for p in players] == [1035, 995, 995, 975]
    assert (payout.pot, payout.remainder, sorted(payout.shares.values())) == (100, 0, [20, 20, 60])
    assert_ledger_sound()


def test_a_forfeited_stake_stays_in_the_pot_for_the_winner():
    winner, resigned, replaced_by_bot, third = (make_user() for _ in range(4))
    for player in (winner, resigned, replaced_by_bot, third):
        services.stake(player, "table:12", 50)
    services.seal("table:12")
    # resigned and replaced_by_bot left mid-match: the ledger needs no call.
    services.pay_out("table:12", [winner], "match:102")
    assert services.balance_of(winner) == 1150
    assert services.balance_of(resigned) == services.balance_of(replaced_by_bot) == 950


def test_a_match_is_paid_exactly_once_however_often_payout_is_called():
    winner, loser = make_user(), make_user()
    for player in (winner, loser):
        services.stake(player, "table:13", 100)
    first = services.pay_out("table:13", [winner], "match:103")
    entries = Entry.objects.count()
    again = services.pay_out("table:13", [winner], "match:103")
    assert again.pk == first.pk
    assert Entry.objects.count() == entries
    assert services.balance_of(winner) == 1100
    # Another key on the same, now settled, pot pays nothing either.
    with pytest.raises(services.NotStaked):
        services.pay_out("table:13", [winner], "match:103-again")
    assert_ledger_sound()


def test_a_payout_key_reused_for_other_winners_is_a_conflict():
    a, b = make_user(), make_user()
    for player in (a, b):
        services.stake(player, "table:14", 25)
    services.pay_out("table:14", [a], "match:104")
    with pytest.raises(services.PayoutConflict):
        services.pay_out("table:14", [b], "match:104")
    with pytest.raises(services.PayoutConflict):
        services.pay_out("table:99", [a], "match:104")
    assert services.balance_of(b) == 975


def test_a_winner_without_a_stake_in_the_pot_is_refused_and_nothing_moves():
    a, b, outsider = make_user(), make_user(), make_user()
    for player in (a, b):
        services.stake(player, "table:15", 25)
    with pytest.raises(services.NotStaked):
        services.pay_out("table:15", [a, outsider], "match:105")
    assert not Payout.objects.filter(key="match:105").exists()
    assert Account.objects.get(key="table:15").balance == 50
    with pytest.raises(ValueError):
        services.pay_out("table:15", [], "match:105")
    with pytest.raises(ValueError):
        services.pay_out("table:15", [a, a], "match:105")
    assert_ledger_sound()


def test_an_aborted_match_refunds_every_stake_including_forfeited_ones():
    players = [make_user() for _ in range(4)]
    for player in players:
        services.stake(player, "table:16", 250)
    services.seal("table:16")
    refunds = services.refund_all("table:16", "aborted by staff", match_id=106)
    assert len(refunds) == 4 and {e.kind for e in refunds} == {EntryKind.ABORT_REFUND}
    assert [services.balance_of(p) for p in players] == [1000] * 4
    assert services.refund_all("table:16", "aborted by staff") == []
    assert services.refund_all("table:nothing-here", "system") == []
    escrow = Account.objects.get(key="table:16")
    assert escrow.balance == 0 and not escrow.sealed
    assert_ledger_sound()


def test_an_escrow_serves_the_next_match_after_a_payout():
    a, b = make_user(), make_user()
    for match in (1, 2):
        services.stake(a, "table:17", 100)
        services.stake(b, "table:17", 100)
        services.seal("table:17")
        services.pay_out("table:17", [a], f"match:17{match}")
    assert services.balance_of(a) == 1200 and services.balance_of(b) == 800
    assert_ledger_sound()


# --- daily bonus ------------------------------------------------------------------


def at_tbilisi(*args):
    return datetime.datetime(*args, tzinfo=TBILISI)


def test_daily_bonus_is_only_for_a_player_who_is_low():
    user = make_user()
    status = services.bonus_status(user)
    assert not status.claimable and status.reason == services.BonusNotAvailable.NOT_LOW
    with pytest.raises(services.BonusNotAvailable):
        services.claim_daily_bonus(user)
    set_balance(user, services.BONUS_THRESHOLD - 1)
    entry = services.claim_daily_bonus(user)
    assert entry.kind == EntryKind.DAILY_BONUS and entry.amount == services.DAILY_BONUS == 100
    assert services.balance_of(user) == 199
    assert_ledger_sound()


def test_coins_staked_at_tables_count_towards_being_low():
    user = make_user()
    set_balance(user, 120)
    services.stake(user, "table:20", 100)  # 20 in the wallet, 100 at a table
    with pytest.raises(services.BonusNotAvailable) as refused:
        services.claim_daily_bonus(user)
    assert refused.value.reason == services.BonusNotAvailable.NOT_LOW


def test_daily_bonus_once_per_calendar_day_in_tbilisi():
    user = make_user()
    set_balance(user, 0)
    services.claim_daily_bonus(user, now=at_tbilisi(2026, 3, 1, 0, 5))
    set_balance(user, 0)
    with pytest.raises(services.BonusNotAvailable) as refused:
        services.claim_daily_bonus(user, now=at_tbilisi(2026, 3, 1, 23, 59))
    assert refused.value.reason == services.BonusNotAvailable.ALREADY_CLAIMED
    status = services.bonus_status(user, now=at_tbilisi(2026, 3, 1, 23, 59))
    assert status.next_claim_at == at_tbilisi(2026, 3, 2, 0, 0)
    # 20:00 UTC on 1 March is already 2 March in Tbilisi.
    utc_evening = datetime.datetime(2026, 3, 1, 20, 0, tzinfo=datetime.UTC)
    services.claim_daily_bonus(user, now=utc_evening)
    assert services.balance_of(user) == 100
    assert_ledger_sound()


# --- staff adjustments ------------------------------------------------------------


def test_staff_adjustment_is_a_new_entry_to_or_from_the_mint():
    user, staff = make_user(), make_staff()
    given = services.staff_adjust(user, 300, "lost coins in an outage", staff)
    taken = services.staff_adjust(user, -500, "duplicate grant", staff)
    assert (given.debit.kind, given.credit_id) == (Account.Kind.MINT, services.wallet_for(user).pk)
    assert (taken.debit_id, taken.credit.kind) == (services.wallet_for(user).pk, Account.Kind.MINT)
    assert given.staff_user == staff and taken.memo == "duplicate grant"
    assert services.balance_of(user) == 800
    assert_ledger_sound()


def test_staff_adjustment_refuses_bad_input_and_changes_nothing():
    user, staff = make_user(), make_staff()
    with pytest.raises(services.StaffOnly):
        services.staff_adjust(user, 10, "why not", make_user())
    with pytest.raises(services.InvalidAmount):
        services.staff_adjust(user, 0, "nothing", staff)
    with pytest.raises(services.MissingReason):
        services.staff_adjust(user, 10, "   ", staff)
    with pytest.raises(services.InsufficientFunds):
        services.staff_adjust(user, -1001, "too much", staff)
    assert services.balance_of(user) == 1000
    assert entries_of(user)[0].kind == EntryKind.WELCOME_GRANT


# --- the database guards the ledger too -------------------------------------------


def test_an_entry_cannot_be_changed_or_deleted():
    user = make_user()
    entry = entries_of(user)[0]
    entry.amount = 5000
    with pytest.raises(ImmutableEntryError):
        entry.save()
    with pytest.raises(ImmutableEntryError):
        entry.delete()
    if connection.vendor == "postgresql":
        with pytest.raises(IntegrityError), transaction.atomic():
            Entry.objects.filter(pk=entry.pk).update(amount=5000)
        with pytest.raises(IntegrityError), transaction.atomic():
            Entry.objects.filter(pk=entry.pk).delete()
    assert Entry.objects.get(pk=entry.pk).amount == 1000


def test_the_database_refuses_a_negative_balance():
    user = make_user()
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(user=user).update(balance=F("balance") - 1001)
    assert services.balance_of(user) == 1000


def test_a_deleted_user_leaves_the_wallet_and_its_coins_accounted_for():
    user, other = make_user(), make_user()
    services.stake(user, "table:30", 25)
    services.stake(other, "table:30", 25)
    services.pay_out("table:30", [other], "match:300")
    wallet_id = services.wallet_for(user).pk
    user.delete()
    wallet = Account.objects.get(pk=wallet_id)
    assert wallet.user is None and wallet.balance == 975
    assert_ledger_sound()
