"""The only way coins move. Every public function runs in one database
transaction (nested as a savepoint when the caller already has one), locks the
account rows it touches in one fixed order, and posts immutable entries.

See docs/coins.md for the rules and how the tables code calls this.
"""

import datetime
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from joker_site.refusals import Refusal

from .models import Account, Entry, EntryKind, Payout, Stake
from .stakes import TABLE_STAKES

WELCOME_GRANT = 1000
DAILY_BONUS = 100
# The stakes a coin table may have (coins/stakes.py).
# The daily bonus is for a player who is low: fewer coins than this, counting
# coins staked at tables, i.e. not even four stakes of the smallest table.
BONUS_THRESHOLD = 4 * min(TABLE_STAKES)

HOUSE_KEY = "house"
MINT_KEY = "mint"


# --- Errors ----------------------------------------------------------------------


class LedgerError(Refusal):
    """A refused coin operation. Nothing was changed. `message` (and `str()`) is a
    sentence for the player, in the language active when it is read."""

    code = "coins_refused"

    def __init__(self, **params):
        super().__init__(params=params)

    @property
    def message(self):
        return gettext("This coin operation is not possible.")


class InsufficientFunds(LedgerError):
    code = "insufficient_funds"

    def __init__(self, needed, available):
        super().__init__(needed=needed, available=available)
        self.needed = needed
        self.available = available

    @property
    def message(self):
        return ngettext(
            "You need %(needed)s Domino Coin for this but have only %(available)s.",
            "You need %(needed)s Domino Coins for this but have only %(available)s.",
            self.needed,
        ) % {"needed": self.needed, "available": self.available}


class NotEligible(LedgerError):
    """Guests and anonymous visitors have no wallet."""

    @property
    def message(self):
        return gettext("Domino Coins are for registered accounts. Sign up or log in to get yours.")


class InvalidAmount(LedgerError):
    def __init__(self, amount, allowed=None):
        super().__init__(amount=amount, allowed=allowed)
        self.amount = amount
        self.allowed = allowed

    @property
    def message(self):
        if self.allowed:
            return gettext("%(amount)s is not a table stake; the stakes are %(allowed)s.") % {
                "amount": self.amount,
                "allowed": ", ".join(str(a) for a in self.allowed),
            }
        return gettext("%(amount)s is not a valid number of coins.") % {"amount": self.amount}


class StakeMismatch(LedgerError):
    """Every stake in one escrow must be the same amount."""

    def __init__(self, amount, table_stake):
        super().__init__(amount=amount, table_stake=table_stake)
        self.amount = amount
        self.table_stake = table_stake

    @property
    def message(self):
        return gettext("This table plays for %(stake)s coins, not %(amount)s.") % {
            "stake": self.table_stake,
            "amount": self.amount,
        }


class EscrowSealed(LedgerError):
    @property
    def message(self):
        return gettext("The match has started: stakes stay in the pot until it ends.")


class NotStaked(LedgerError):
    def __init__(self, who=""):
        super().__init__(who=who)
        self.who = who

    @property
    def message(self):
        return gettext("Only a player whose stake is in this pot can win it.")


class PayoutConflict(LedgerError):
    """The payout key was already used for a different pot or winners: a bug
    in the caller, never something to retry."""

    def __init__(self, key):
        super().__init__(key=key)
        self.key = key

    @property
    def message(self):
        return gettext("This match has already been paid out differently.")


class EmailNotVerified(LedgerError):
    """Coins are for members who confirmed an e-mail address: a throw-away account
    neither gets the welcome grant nor stakes (docs/coins.md)."""

    code = "email_unverified"

    @property
    def message(self):
        return gettext(
            "Confirm your e-mail address to play for Domino Coin: your %(grant)s welcome coins come with it."
        ) % {"grant": WELCOME_GRANT}


class BonusNotAvailable(LedgerError):
    ALREADY_CLAIMED = "already_claimed"
    NOT_LOW = "not_low"
    NOT_VERIFIED = "email_unverified"

    def __init__(self, reason):
        super().__init__(reason=reason)
        self.reason = reason

    @property
    def message(self):
        if self.reason == self.ALREADY_CLAIMED:
            return gettext("You have already claimed today's bonus. Come back tomorrow.")
        if self.reason == self.NOT_VERIFIED:
            return EmailNotVerified().message
        return gettext(
            "The daily bonus is for players with fewer than %(threshold)s coins, "
            "counting coins staked at tables."
        ) % {"threshold": BONUS_THRESHOLD}


class MissingReason(LedgerError):
    @property
    def message(self):
        return gettext("Say why the balance is being corrected.")


class StaffOnly(LedgerError):
    @property
    def message(self):
        return gettext("Only site staff can adjust a balance.")


# --- Accounts --------------------------------------------------------------------


def is_coin_eligible(user):
    """Registered accounts hold coins; anonymous visitors and guest players do
    not. A guest user is one whose `is_guest` attribute is true (the accounts
    app sets it)."""
    return bool(user is not None and user.is_authenticated and not getattr(user, "is_guest", False))


def _system_account(key, kind):
    account = Account.objects.filter(key=key).first()
    if account is not None:
        return account
    try:
        with transaction.atomic():
            return Account.objects.create(key=key, kind=kind)
    except IntegrityError:  # created by a concurrent transaction
        return Account.objects.get(key=key)


def house_account():
    return _system_account(HOUSE_KEY, Account.Kind.HOUSE)


def mint_account():
    return _system_account(MINT_KEY, Account.Kind.MINT)


def escrow_account(escrow_key):
    _check_escrow_key(escrow_key)
    account = _system_account(escrow_key, Account.Kind.ESCROW)
    if account.kind != Account.Kind.ESCROW:
        raise ValueError(f"{escrow_key!r} is not an escrow account")
    return account


def _check_escrow_key(escrow_key):
    if not isinstance(escrow_key, str) or not escrow_key or escrow_key in {HOUSE_KEY, MINT_KEY}:
        raise ValueError(f"bad escrow key {escrow_key!r}")
    if escrow_key.startswith("wallet:") or len(escrow_key) > 100:
        raise ValueError(f"bad escrow key {escrow_key!r}")


def _wallet_key(user):
    return f"wallet:{user.pk}"


def wallet_for(user):
    """The user's wallet, opened empty on first use (the welcome grant waits for a
    verified e-mail address: `pay_welcome_grant`)."""
    if not is_coin_eligible(user):
        raise NotEligible()
    wallet = Account.objects.filter(user_id=user.pk).first()
    if wallet is not None:
        return wallet
    try:
        with transaction.atomic():
            return Account.objects.create(key=_wallet_key(user), kind=Account.Kind.WALLET, user=user)
    except IntegrityError:  # opened by a concurrent transaction
        return Account.objects.get(user_id=user.pk)


def has_verified_email(user) -> bool:
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user_id=user.pk, verified=True).exists()


def refuse_unless_verified(user) -> None:
    """Raise EmailNotVerified for a member without a confirmed e-mail address."""
    if not has_verified_email(user):
        raise EmailNotVerified()


def pay_welcome_grant(user):
    """The welcome grant, once per user ever (keyed `welcome:<user id>`, so a second
    confirmed address, a repeated signal or two requests at once pay nothing more).
    Returns the entry, or None when it was paid before."""
    key = f"welcome:{user.pk}"
    wallet, mint = wallet_for(user), mint_account()
    with transaction.atomic():
        locked = _lock(wallet, mint)
        # Checked under the wallet lock: a concurrent payment has committed by now.
        if Entry.objects.filter(idempotency_key=key).exists():
            return None
        return _post(locked[mint.pk], locked[wallet.pk], WELCOME_GRANT, EntryKind.WELCOME_GRANT,
                     idempotency_key=key)


def balance_of(user):
    """Coins in the user's wallet (0 for anyone without one); fresh from the database."""
    if not is_coin_eligible(user):
        return 0
    return wallet_for(user).balance


def staked_total(user):
    """Coins the user has in pots at tables, not yet returned or settled."""
    if not is_coin_eligible(user):
        return 0
    held = Stake.objects.filter(wallet__user_id=user.pk, state=Stake.State.HELD)
    return held.aggregate(total=Sum("amount"))["total"] or 0


def held_stake(user, escrow_key):
    """The user's stake still in this escrow, or None."""
    return Stake.objects.filter(
        wallet__user_id=user.pk, escrow__key=escrow_key, state=Stake.State.HELD
    ).first()


def history(user):
    """The user's wallet entries, newest first (a queryset to paginate)."""
    wallet = wallet_for(user)
    return (
        Entry.objects.filter(Q(debit=wallet) | Q(credit=wallet))
        .select_related("debit", "credit")
        .order_by("-id")
    )


# --- Locking and posting ---------------------------------------------------------


def _lock(*accounts):
    """Lock the accounts' rows (SELECT ... FOR UPDATE) in the one global order
    and return fresh copies by primary key. Must run inside a transaction."""
    unique = {a.pk: a for a in accounts}
    locked = {}
    for account in sorted(unique.values(), key=lambda a: a.lock_rank):
        locked[account.pk] = Account.objects.select_for_update().get(pk=account.pk)
    return locked


def _post(debit, credit, amount, kind, *, memo="", table_id=None, match_id=None,
          idempotency_key=None, payout=None, staff_user=None):
    """Move `amount` from `debit` to `credit`, both already locked by `_lock`
    in this transaction. Refuses to take an account other than the mint below zero."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise InvalidAmount(amount)
    if debit.kind != Account.Kind.MINT and debit.balance < amount:
        raise InsufficientFunds(amount, debit.balance)
    debit.balance -= amount
    credit.balance += amount
    Account.objects.filter(pk=debit.pk).update(balance=debit.balance)
    Account.objects.filter(pk=credit.pk).update(balance=credit.balance)
    return Entry.objects.create(
        debit=debit,
        credit=credit,
        amount=amount,
        kind=kind,
        memo=(memo or "")[:200],
        table_id=table_id,
        match_id=match_id,
        debit_balance_after=debit.balance,
        credit_balance_after=credit.balance,
        idempotency_key=idempotency_key,
        payout=payout,
        staff_user=staff_user,
    )


# --- Daily bonus -----------------------------------------------------------------


def bonus_day(now=None):
    """The calendar day in the site's time zone (settings.TIME_ZONE, Tbilisi)."""
    now = now or timezone.now()
    return timezone.localtime(now, timezone.get_default_timezone()).date()


def next_bonus_time(now=None):
    """The moment the next calendar day starts in the site's time zone."""
    tz = timezone.get_default_timezone()
    tomorrow = bonus_day(now) + datetime.timedelta(days=1)
    return datetime.datetime.combine(tomorrow, datetime.time.min, tzinfo=tz)


def _bonus_key(user, day):
    return f"bonus:{user.pk}:{day.isoformat()}"


@dataclass(frozen=True)
class BonusStatus:
    claimable: bool
    reason: str  # "" when claimable, else a BonusNotAvailable reason
    amount: int
    threshold: int
    next_claim_at: datetime.datetime | None  # when it is already claimed today


def bonus_status(user, now=None):
    """Whether the user may claim the daily bonus now, and if not, why."""
    day = bonus_day(now)
    wallet = wallet_for(user)
    if not has_verified_email(user):
        return BonusStatus(False, BonusNotAvailable.NOT_VERIFIED, DAILY_BONUS, BONUS_THRESHOLD, None)
    if Entry.objects.filter(idempotency_key=_bonus_key(user, day)).exists():
        return BonusStatus(
            False, BonusNotAvailable.ALREADY_CLAIMED, DAILY_BONUS, BONUS_THRESHOLD, next_bonus_time(now)
        )
    if wallet.balance + staked_total(user) >= BONUS_THRESHOLD:
        return BonusStatus(False, BonusNotAvailable.NOT_LOW, DAILY_BONUS, BONUS_THRESHOLD, None)
    return BonusStatus(True, "", DAILY_BONUS, BONUS_THRESHOLD, None)


def claim_daily_bonus(user, now=None):
    """Grant the daily bonus, or raise BonusNotAvailable. Once per calendar day
    in the site's time zone, only while the player has fewer than
    BONUS_THRESHOLD coins counting stakes at tables."""
    day = bonus_day(now)
    key = _bonus_key(user, day)
    if not has_verified_email(user):
        raise BonusNotAvailable(BonusNotAvailable.NOT_VERIFIED)
    wallet, mint = wallet_for(user), mint_account()
    with transaction.atomic():
        locked = _lock(wallet, mint)
        wallet = locked[wallet.pk]
        # Checked under the wallet lock: a concurrent claim has committed by now.
        if Entry.objects.filter(idempotency_key=key).exists():
            raise BonusNotAvailable(BonusNotAvailable.ALREADY_CLAIMED)
        if wallet.balance + staked_total(user) >= BONUS_THRESHOLD:
            raise BonusNotAvailable(BonusNotAvailable.NOT_LOW)
        return _post(
            locked[mint.pk], wallet, DAILY_BONUS, EntryKind.DAILY_BONUS, idempotency_key=key
        )


# --- Stakes ----------------------------------------------------------------------


def stake(user, escrow_key, amount, *, table_id=None, match_id=None, memo=""):
    """Move a table stake from the user's wallet into the escrow. Returns the
    Stake. Staking again while the first stake is held returns that stake
    (a double click charges once). Raises InsufficientFunds, InvalidAmount,
    StakeMismatch, EscrowSealed, NotEligible or EmailNotVerified, changing nothing."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount not in TABLE_STAKES:
        raise InvalidAmount(amount, TABLE_STAKES)
    wallet = wallet_for(user)
    refuse_unless_verified(user)
    with transaction.atomic():
        escrow = escrow_account(escrow_key)
        locked = _lock(escrow, wallet)
        escrow, wallet = locked[escrow.pk], locked[wallet.pk]
        held = list(Stake.objects.filter(escrow=escrow, state=Stake.State.HELD))
        mine = next((s for s in held if s.wallet_id == wallet.pk), None)
        if mine is not None:
            if mine.amount != amount:
                raise StakeMismatch(amount, mine.amount)
            return mine
        if escrow.sealed:
            raise EscrowSealed()
        if held and held[0].amount != amount:
            raise StakeMismatch(amount, held[0].amount)
        entry = _post(
            wallet, escrow, amount, EntryKind.STAKE, memo=memo, table_id=table_id, match_id=match_id
        )
        return Stake.objects.create(escrow=escrow, wallet=wallet, amount=amount, stake_entry=entry)


def refund_stake(user, escrow_key, *, memo=""):
    """Give the user's held stake back (standing up before the match starts).
    Returns the refund entry, or None when there is nothing held (refunding
    twice does nothing). Raises EscrowSealed once the match has started."""
    wallet = wallet_for(user)
    if not Account.objects.filter(key=escrow_key, kind=Account.Kind.ESCROW).exists():
        return None
    with transaction.atomic():
        escrow = escrow_account(escrow_key)
        locked = _lock(escrow, wallet)
        escrow, wallet = locked[escrow.pk], locked[wallet.pk]
        held = Stake.objects.filter(escrow=escrow, wallet=wallet, state=Stake.State.HELD).first()
        if held is None:
            return None
        if escrow.sealed:
            raise EscrowSealed()
        return _return_stake(held, escrow, wallet, EntryKind.REFUND, memo=memo)


def _return_stake(held, escrow, wallet, kind, *, memo="", table_id=None, match_id=None):
    if table_id is None:
        table_id = held.stake_entry.table_id
    entry = _post(escrow, wallet, held.amount, kind, memo=memo, table_id=table_id, match_id=match_id)
    held.state = Stake.State.REFUNDED
    held.refund_entry = entry
    held.save(update_fields=["state", "refund_entry"])
    return entry


def seal(escrow_key):
    """The match has started: from now on no stake can be added or taken
    back; the pot only leaves the escrow by pay_out or refund_all. Idempotent."""
    with transaction.atomic():
        escrow = escrow_account(escrow_key)
        escrow = _lock(escrow)[escrow.pk]
        if not escrow.sealed:
            Account.objects.filter(pk=escrow.pk).update(sealed=True)
            escrow.sealed = True
        return escrow


def refund_all(escrow_key, reason, *, table_id=None, match_id=None):
    """Abort (by staff or the system): every held stake, forfeited ones
    included, goes back to its owner, and the escrow opens again. Returns the
    refund entries; an empty list when there was nothing to refund."""
    if not Account.objects.filter(key=escrow_key, kind=Account.Kind.ESCROW).exists():
        return []
    with transaction.atomic():
        escrow = escrow_account(escrow_key)
        escrow = _lock(escrow)[escrow.pk]
        # The escrow lock is held: no stake can be added or removed meanwhile.
        held = list(Stake.objects.filter(escrow=escrow, state=Stake.State.HELD).select_related("stake_entry"))
        locked = _lock(escrow, *[Account(pk=s.wallet_id, kind=Account.Kind.WALLET) for s in held])
        escrow = locked[escrow.pk]
        entries = [
            _return_stake(s, escrow, locked[s.wallet_id], EntryKind.ABORT_REFUND,
                          memo=reason, table_id=table_id, match_id=match_id)
            for s in held
        ]
        _unseal(escrow)
        return entries


def _unseal(escrow):
    if escrow.sealed:
        Account.objects.filter(pk=escrow.pk).update(sealed=False)
        escrow.sealed = False


def pay_out(escrow_key, winners, payout_key, *, table_id=None, match_id=None, memo="", weights=None):
    """Settle the pot: the whole escrow is split among the winners, evenly or (`weights`, one
    positive whole number per winner, in the winners' order) in those proportions, each
    share rounded down; the indivisible remainder goes to the house, every held stake is
    settled and the escrow opens again. A match is paid exactly once: calling again with the same
    `payout_key` (a retry, a race) returns the first Payout and moves nothing.
    Forfeited stakes need no call: they are still in the escrow, so in the pot.

    Raises NotStaked if a winner has no stake in this pot, PayoutConflict if the
    key was used for another escrow or other winners."""
    if not isinstance(payout_key, str) or not payout_key or len(payout_key) > 100:
        raise ValueError(f"bad payout key {payout_key!r}")
    winners = list(winners)
    if not winners:
        raise ValueError("a payout needs at least one winner")
    if len({w.pk for w in winners}) != len(winners):
        raise ValueError("a winner is listed twice")
    weights = _checked_weights(weights, len(winners))
    wallets = [wallet_for(w) for w in winners]
    winner_ids = sorted(w.pk for w in wallets)

    existing = Payout.objects.filter(key=payout_key).first()
    if existing is not None:
        return _same_payout(existing, escrow_key, winner_ids)
    with transaction.atomic():
        escrow = escrow_account(escrow_key)
        house = house_account()
        locked = _lock(escrow, house, *wallets)
        escrow, house = locked[escrow.pk], locked[house.pk]
        # Under the escrow lock a concurrent payout of this key has committed.
        existing = Payout.objects.filter(key=payout_key).first()
        if existing is not None:
            return _same_payout(existing, escrow_key, winner_ids)
        held = list(Stake.objects.filter(escrow=escrow, state=Stake.State.HELD))
        held_wallets = {s.wallet_id for s in held}
        for wallet in wallets:
            if wallet.pk not in held_wallets:
                raise NotStaked(wallet.key)
        pot = escrow.balance
        amounts = _shares(pot, [w.pk for w in wallets], weights)
        remainder = pot - sum(amounts.values())
        even = len(set(amounts.values())) == 1
        try:
            with transaction.atomic():
                payout = Payout.objects.create(
                    key=payout_key, escrow=escrow, pot=pot, share=next(iter(amounts.values())) if even else 0,
                    shares=None if even else {str(pk): amount for pk, amount in amounts.items()},
                    remainder=remainder, winner_wallet_ids=winner_ids, table_id=table_id, match_id=match_id,
                )
        except IntegrityError:  # same key paid from another escrow meanwhile
            raise PayoutConflict(payout_key) from None
        for wallet in sorted(wallets, key=lambda w: w.pk):
            if amounts[wallet.pk]:
                _post(escrow, locked[wallet.pk], amounts[wallet.pk], EntryKind.PAYOUT, memo=memo, table_id=table_id,
                      match_id=match_id, payout=payout, idempotency_key=f"payout:{payout_key}:{wallet.pk}")
        if remainder:
            _post(escrow, house, remainder, EntryKind.HOUSE_REMAINDER, memo=memo, table_id=table_id,
                  match_id=match_id, payout=payout, idempotency_key=f"payout:{payout_key}:house")
        Stake.objects.filter(pk__in=[s.pk for s in held]).update(state=Stake.State.SETTLED, payout=payout)
        _unseal(escrow)
        return payout


def _checked_weights(weights, count: int) -> list[int]:
    if weights is None:
        return [1] * count
    weights = list(weights)
    if len(weights) != count or any(not isinstance(w, int) or isinstance(w, bool) or w <= 0 for w in weights):
        raise ValueError(f"weights {weights!r} are not one positive whole number per winner")
    return weights


def _shares(pot: int, wallet_ids: list[int], weights: list[int]) -> dict[int, int]:
    """{wallet id: coins}: the pot in proportion to the weights, each share rounded down."""
    total = sum(weights)
    return {wallet_id: pot * weight // total for wallet_id, weight in zip(wallet_ids, weights, strict=True)}


def _same_payout(existing, escrow_key, winner_ids):
    if existing.escrow.key != escrow_key or sorted(existing.winner_wallet_ids) != winner_ids:
        raise PayoutConflict(existing.key)
    return existing


# --- Staff -----------------------------------------------------------------------


def staff_adjust(user, amount, reason, staff_user):
    """A correction by site staff: a positive amount is issued to the player
    from the mint, a negative one taken back to the mint. Always a new entry,
    never an edit of a balance. Raises StaffOnly, InvalidAmount, InsufficientFunds."""
    if staff_user is None or not getattr(staff_user, "is_staff", False):
        raise StaffOnly()
    if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
        raise InvalidAmount(amount)
    reason = (reason or "").strip()
    if not reason:
        raise MissingReason()
    wallet, mint = wallet_for(user), mint_account()
    with transaction.atomic():
        locked = _lock(wallet, mint)
        wallet, mint = locked[wallet.pk], locked[mint.pk]
        debit, credit = (mint, wallet) if amount > 0 else (wallet, mint)
        return _post(
            debit, credit, abs(amount), EntryKind.STAFF_ADJUSTMENT, memo=reason, staff_user=staff_user
        )


def open_wallet_on_signup(sender, instance, created, raw=False, **kwargs):
    """post_save on the user model: a new account gets its (empty) wallet."""
    if created and not raw and is_coin_eligible(instance):
        wallet_for(instance)


def pay_grant_on_verified_email(sender, instance, raw=False, **kwargs):
    """post_save on allauth's EmailAddress: the first confirmed address pays the welcome
    grant (the confirmation link, or staff ticking "verified" in the admin)."""
    if instance.verified and not raw and is_coin_eligible(instance.user):
        pay_welcome_grant(instance.user)


__all__ = [
    "BONUS_THRESHOLD",
    "DAILY_BONUS",
    "TABLE_STAKES",
    "WELCOME_GRANT",
    "BonusNotAvailable",
    "BonusStatus",
    "EmailNotVerified",
    "EscrowSealed",
    "InsufficientFunds",
    "InvalidAmount",
    "LedgerError",
    "MissingReason",
    "NotEligible",
    "NotStaked",
    "PayoutConflict",
    "StaffOnly",
    "StakeMismatch",
    "balance_of",
    "bonus_status",
    "claim_daily_bonus",
    "escrow_account",
    "has_verified_email",
    "held_stake",
    "history",
    "house_account",
    "is_coin_eligible",
    "mint_account",
    "next_bonus_time",
    "pay_out",
    "pay_welcome_grant",
    "refund_all",
    "refund_stake",
    "refuse_unless_verified",
    "seal",
    "staff_adjust",
    "stake",
    "staked_total",
    "wallet_for",
]
