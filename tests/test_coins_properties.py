"""Property tests: random sequences of grants, joins, leaves, match starts,
payouts, aborts, bonuses and staff adjustments keep every ledger invariant and
agree, coin for coin, with a plain-Python model of the rules."""

import datetime

import pytest
from coins_helpers import make_staff, make_user
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from coins import services
from coins.integrity import find_problems
from coins.models import Account

TABLES = ["table:a", "table:b"]
MAX_PLAYERS = 5
NOON_TBILISI = datetime.datetime(2026, 1, 1, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=4)))


class LedgerMachine(RuleBasedStateMachine):
    """The model: wallet balances, the stakes held per table, sealed tables,
    the house, settled payout keys and claimed bonus days."""

    def __init__(self):
        super().__init__()
        # Every run starts from an empty ledger and leaves nothing behind.
        self._savepoint = transaction.atomic()
        self._savepoint.__enter__()
        self.players = []
        self.wallet = {}
        self.held = {table: {} for table in TABLES}
        self.sealed = set()
        self.house = 0
        self.issued = 0
        self.payouts = {}
        self.bonus_days = set()
        self.day = 0
        self.staff = make_staff()
        self.wallet[self.staff.pk] = services.WELCOME_GRANT  # staff are players too
        self.issued += services.WELCOME_GRANT

    def teardown(self):
        try:
            assert find_problems() == []
        finally:
            transaction.set_rollback(True)
            self._savepoint.__exit__(None, None, None)

    # --- rules ----------------------------------------------------------------

    @initialize()
    def four_players_sign_up(self):
        for _ in range(4):
            self.sign_up()

    @precondition(lambda self: len(self.players) < MAX_PLAYERS)
    @rule()
    def sign_up(self):
        player = make_user()
        self.players.append(player)
        self.wallet[player.pk] = services.WELCOME_GRANT
        self.issued += services.WELCOME_GRANT

    @rule(data=st.data(), table=st.sampled_from(TABLES), amount=st.sampled_from(services.TABLE_STAKES))
    def join_at_any_stake(self, data, table, amount):
        self._join(data.draw(st.sampled_from(self.players)), table, amount)

    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def join_at_the_table_stake(self, data, table):
        # What the tables code does: sit down at the stake the table plays for.
        held = self.held[table]
        amount = next(iter(held.values())) if held else data.draw(st.sampled_from(services.TABLE_STAKES))
        self._join(data.draw(st.sampled_from(self.players)), table, amount)

    def _join(self, player, table, amount):
        held = self.held[table]
        if player.pk in held:
            expected = None if held[player.pk] == amount else services.StakeMismatch
        elif table in self.sealed:
            expected = services.EscrowSealed
        elif held and next(iter(held.values())) != amount:
            expected = services.StakeMismatch
        elif self.wallet[player.pk] < amount:
            expected = services.InsufficientFunds
        else:
            expected = None
        outcome = self._attempt(lambda: services.stake(player, table, amount))
        assert outcome is expected, (outcome, expected)
        if expected is None and player.pk not in held:
            held[player.pk] = amount
            self.wallet[player.pk] -= amount

    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def stand_up(self, data, table):
        player = data.draw(st.sampled_from(self.players))
        held = self.held[table]
        expected = services.EscrowSealed if player.pk in held and table in self.sealed else None
        outcome = self._attempt(lambda: services.refund_stake(player, table))
        assert outcome is expected, (outcome, expected)
        if expected is None and player.pk in held:
            self.wallet[player.pk] += held.pop(player.pk)

    @rule(table=st.sampled_from(TABLES))
    def match_starts(self, table):
        services.seal(table)
        self.sealed.add(table)

    @rule(data=st.data(), table=st.sampled_from(TABLES), match=st.integers(0, 5))
    def match_ends(self, data, table, match):
        seated = [p for p in self.players if p.pk in self.held[table]]
        # Mostly real results (winners seated at the table), sometimes nonsense.
        pool = seated if seated and data.draw(st.integers(0, 3)) else self.players
        winners = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique_by=lambda u: u.pk))
        self._settle(table, winners, f"match:{match}")

    @rule(
        data=st.data(),
        table=st.sampled_from(TABLES),
        amount=st.sampled_from(services.TABLE_STAKES),
        seats=st.integers(2, 4),
        tied=st.integers(1, 3),
        aborted=st.booleans(),
    )
    def a_whole_match(self, data, table, amount, seats, tied, aborted):
        """Players sit down, the match is played, and it is paid or aborted."""
        players = data.draw(st.permutations(self.players))[:seats]
        for player in players:
            self._join(player, table, amount)
        self.match_starts(table)
        seated = [p for p in players if p.pk in self.held[table]]
        if seated and not aborted:
            self._settle(table, seated[: min(tied, len(seated))], f"match:whole-{len(self.payouts)}")
        else:
            self.match_aborted(table)

    def _settle(self, table, winners, key):
        winner_ids = sorted(w.pk for w in winners)
        held = self.held[table]
        if key in self.payouts:
            expected = None if self.payouts[key] == (table, winner_ids) else services.PayoutConflict
        elif any(w.pk not in held for w in winners):
            expected = services.NotStaked
        else:
            expected = None
        outcome = self._attempt(lambda: services.pay_out(table, winners, key))
        assert outcome is expected, (outcome, expected)
        if expected is None and key not in self.payouts:
            pot = sum(held.values())
            share, remainder = divmod(pot, len(winners))
            for winner in winners:
                self.wallet[winner.pk] += share
            self.house += remainder
            held.clear()
            self.sealed.discard(table)
            self.payouts[key] = (table, winner_ids)

    @rule(table=st.sampled_from(TABLES))
    def match_aborted(self, table):
        services.refund_all(table, "aborted by the system")
        for player_pk, amount in self.held[table].items():
            self.wallet[player_pk] += amount
        self.held[table].clear()
        self.sealed.discard(table)

    @rule(data=st.data())
    def claim_bonus(self, data):
        player = data.draw(st.sampled_from(self.players))
        staked = sum(held.get(player.pk, 0) for held in self.held.values())
        if (player.pk, self.day) in self.bonus_days or self.wallet[player.pk] + staked >= services.BONUS_THRESHOLD:
            expected = services.BonusNotAvailable
        else:
            expected = None
        now = NOON_TBILISI + datetime.timedelta(days=self.day)
        outcome = self._attempt(lambda: services.claim_daily_bonus(player, now=now))
        assert outcome is expected, (outcome, expected)
        if expected is None:
            self.bonus_days.add((player.pk, self.day))
            self.wallet[player.pk] += services.DAILY_BONUS
            self.issued += services.DAILY_BONUS

    @rule()
    def a_day_passes(self):
        self.day += 1

    @rule(data=st.data(), amount=st.integers(-400, 400).filter(bool))
    def staff_adjusts(self, data, amount):
        player = data.draw(st.sampled_from(self.players))
        expected = services.InsufficientFunds if self.wallet[player.pk] + amount < 0 else None
        outcome = self._attempt(lambda: services.staff_adjust(player, amount, "property test", self.staff))
        assert outcome is expected, (outcome, expected)
        if expected is None:
            self.wallet[player.pk] += amount
            self.issued += amount

    def _attempt(self, action):
        """Run a ledger call; return None on success or the refusal's class."""
        try:
            action()
        except services.LedgerError as refusal:
            return type(refusal)
        return None

    # --- invariants --------------------------------------------------------------

    @invariant()
    def balances_match_the_model_and_nothing_is_created_or_lost(self):
        accounts = list(Account.objects.values_list("key", "kind", "user_id", "balance"))
        by_key = {key: balance for key, _, _, balance in accounts}
        assert {user_id: balance for _, kind, user_id, balance in accounts if kind == "wallet"} == self.wallet
        for table in TABLES:
            assert by_key.get(table, 0) == sum(self.held[table].values())
        assert by_key.get("house", 0) == self.house
        assert -by_key.get("mint", 0) == self.issued
        assert sum(by_key.values()) == 0
        assert all(balance >= 0 for key, balance in by_key.items() if key != "mint")


@pytest.mark.django_db
def test_random_sequences_of_ledger_operations_keep_every_invariant():
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=15,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
            database=None,
        ),
    )
