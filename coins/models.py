"""The Domino Coin ledger: accounts, immutable double-entry entries, stakes, payouts.

Domino Coin is a play coin: not money, cannot be bought or cashed. Every coin
movement is one `Entry` from a debit account to a credit account; an account's
`balance` is a cache of its entries kept in the same transaction, and
`python manage.py check_ledger` proves the cache right.

The mint is the only account that may go negative: every coin in circulation
was issued by an entry out of the mint (welcome grant, daily bonus, staff
adjustment), so the sum over all accounts is always exactly zero and the coins
in circulation equal minus the mint's balance.

Nothing here imports the games app: escrows are keyed by an opaque string
(e.g. "table:123") and entries carry plain integer table/match references.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Account(models.Model):
    class Kind(models.TextChoices):
        WALLET = "wallet", _("Player's wallet")
        ESCROW = "escrow", _("Table escrow")
        HOUSE = "house", _("House")
        MINT = "mint", _("Mint")

    # Rows are always locked escrow first, then wallets, then house, then mint,
    # and by primary key within a kind: one fixed order for every transaction, so
    # two ledger operations can never wait on each other in a cycle.
    LOCK_RANK = {"escrow": 0, "wallet": 1, "house": 2, "mint": 3}

    kind = models.CharField(max_length=8, choices=Kind.choices)
    # "wallet:<user id>", the caller's escrow key ("table:123"), "house", "mint".
    key = models.CharField(max_length=100, unique=True)
    # Wallets only. A deleted user's wallet stays (its coins stay accounted for).
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="coin_wallet",
    )
    balance = models.BigIntegerField(default=0)
    # Escrows only: set when the match starts; stakes can then no longer be
    # taken back or added, only paid out or refunded by an abort.
    sealed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind="mint"),
                name="coins_account_balance_not_negative_except_mint",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["wallet", "escrow", "house", "mint"]),
                name="coins_account_kind_known",
            ),
        ]

    def __str__(self):
        return self.key

    @property
    def lock_rank(self):
        return (self.LOCK_RANK[str(self.kind)], self.pk)


class EntryKind(models.TextChoices):
    WELCOME_GRANT = "welcome_grant", _("Welcome grant")
    DAILY_BONUS = "daily_bonus", _("Daily bonus")
    STAKE = "stake", _("Stake")
    REFUND = "refund", _("Stake returned")
    ABORT_REFUND = "abort_refund", _("Stake refunded: match cancelled")
    PAYOUT = "payout", _("Winnings")
    HOUSE_REMAINDER = "house_remainder", _("Undivided remainder to the house")
    STAFF_ADJUSTMENT = "staff_adjustment", _("Correction by the site staff")


class ImmutableEntryError(Exception):
    pass


class Entry(models.Model):
    """One coin movement. Never updated, never deleted (a PostgreSQL trigger
    refuses both, besides the checks below)."""

    debit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="debit_entries")
    credit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="credit_entries")
    amount = models.BigIntegerField()
    kind = models.CharField(max_length=20, choices=EntryKind.choices)
    memo = models.CharField(max_length=200, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)
    match_id = models.BigIntegerField(null=True, blank=True)
    # Balances of both sides right after this entry: a statement line per
    # entry, and a second thing check_ledger can verify.
    debit_balance_after = models.BigIntegerField()
    credit_balance_after = models.BigIntegerField()
    # Makes grants and payouts happen once: "welcome:<user>", "bonus:<user>:<date>",
    # "payout:<payout key>:<account>".
    idempotency_key = models.CharField(max_length=150, unique=True, null=True, blank=True)
    payout = models.ForeignKey(
        "Payout", null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    # Who made a staff adjustment. No database constraint and no cascade: an
    # entry is never rewritten, even when that staff user is deleted.
    staff_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="coins_entry_amount_positive"),
            models.CheckConstraint(condition=~Q(debit=models.F("credit")), name="coins_entry_two_accounts"),
        ]
        indexes = [
            models.Index(fields=["debit", "-id"], name="coins_entry_debit_recent"),
            models.Index(fields=["credit", "-id"], name="coins_entry_credit_recent"),
        ]

    def __str__(self):
        return f"#{self.pk} {self.kind} {self.amount} {self.debit_id}->{self.credit_id}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise ImmutableEntryError("ledger entries are immutable; post a new entry instead")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEntryError("ledger entries are never deleted")


class Stake(models.Model):
    """A player's stake in an escrow. The coins moved by the STAKE entry; this
    row remembers whose they are until they are returned or settled."""

    class State(models.TextChoices):
        HELD = "held", _("In the pot")
        REFUNDED = "refunded", _("Returned")
        SETTLED = "settled", _("Settled")

    escrow = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="stakes")
    wallet = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="stakes_placed")
    amount = models.BigIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.HELD)
    stake_entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="+")
    refund_entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payout = models.ForeignKey(
        "Payout", null=True, blank=True, on_delete=models.PROTECT, related_name="stakes"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["escrow", "wallet"],
                condition=Q(state="held"),
                name="coins_one_held_stake_per_player_per_escrow",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="coins_stake_amount_positive"),
        ]

    def __str__(self):
        return f"{self.wallet.key} {self.amount} in {self.escrow.key} ({self.state})"


class Payout(models.Model):
    """A settled pot. `key` (e.g. "match:45") is unique: a match is paid once."""

    key = models.CharField(max_length=100, unique=True)
    escrow = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="payouts")
    pot = models.BigIntegerField()
    share = models.BigIntegerField()  # each winner's coins when the split is even (else 0)
    # {wallet id: coins} when the winners' shares differ (a tournament's graded prizes); None: `share` each.
    shares = models.JSONField(null=True, blank=True)
    remainder = models.BigIntegerField()
    winner_wallet_ids = models.JSONField()
    table_id = models.BigIntegerField(null=True, blank=True)
    match_id = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"payout {self.key}: {self.pot}"

    @property
    def shared_out(self) -> int:
        """The coins the winners received (the pot less the house's remainder)."""
        if self.shares is not None:
            return sum(self.shares.values())
        return self.share * len(self.winner_wallet_ids)

    def clean(self):
        if self.shared_out + self.remainder != self.pot:
            raise ValidationError("shares and remainder must add up to the pot")
