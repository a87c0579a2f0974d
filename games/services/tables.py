"""Creating tables, sitting down and standing up.

Every change locks the table row first (`select_for_update`), so two people
taking the last seat at the same moment are served one after the other and
exactly one of them gets it. Stakes move through the coin ledger inside the
same transaction: a seat and its stake exist together or not at all.
"""

from dataclasses import dataclass

from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.friends import are_friends, is_blocked
from coins import memos
from coins import services as coins
from moderation import bans

from ..models import SEATS_BY_VARIANT, Seat, Table, TableStatus, Visibility
from . import broadcast

PASSWORD_GUESSES_ALLOWED = 5
PASSWORD_GUESS_WINDOW_SECONDS = 600


class TableError(Exception):
    """A refusal with a message fit to show the player."""

    def __init__(self, message, code="refused"):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class TableSettings:
    variant: str
    stake: int = 0
    visibility: str = Visibility.OPEN
    password: str = ""
    clock_seconds: int = 30
    game_type: str = "standard"
    khishti: str = "200"
    pulka_bonus: str = "premium_moshla"
    fill_with_bots: bool = False
    target: int = 21


def create_table(creator, settings: TableSettings, *, sit=True) -> Table:
    """Create a table and (by default) seat its creator at seat 0."""
    _check_not_banned(creator)
    if creator.is_guest and settings.stake:
        raise TableError(_("Guests can only play at free tables. Sign up to play for Domino Coin."), "guest_coins")
    if creator.is_guest and settings.visibility == Visibility.FRIENDS:
        raise TableError(_("Guests have no friends list. Sign up to make a friends-only table."), "guest_friends")
    with transaction.atomic():
        table = Table.objects.create(
            variant=settings.variant,
            stake=settings.stake,
            visibility=settings.visibility,
            password_hash=make_password(settings.password) if settings.visibility == Visibility.PASSWORD else "",
            clock_seconds=settings.clock_seconds,
            game_type=settings.game_type,
            khishti=settings.khishti,
            pulka_bonus=settings.pulka_bonus,
            fill_with_bots=settings.fill_with_bots,
            target=settings.target,
            creator=creator,
        )
        if sit:
            _seat_creator(table, creator)
        transaction.on_commit(broadcast.lobby_changed)
    return table


def _seat_creator(table: Table, creator) -> None:
    """The creator takes seat 0; practice bots take the rest, and then the match starts."""
    _seat_player(table, creator, seat_index=0)
    if table.fill_with_bots:
        _fill_with_bots(table)
    _start_if_full(table)


def can_see(table: Table, player) -> bool:
    """Friends-only tables are for the creator and the creator's friends (and, at a
    rematch, for everyone who played the match it follows)."""
    if table.visibility != Visibility.FRIENDS:
        return True
    if player is None or player.is_guest:
        return False
    if player.pk == table.creator_id or _played_the_match_before(table, player):
        return True
    creator_user = table.creator.user
    return creator_user is not None and are_friends(creator_user, player.user) and not is_blocked(
        creator_user, player.user
    )


def check_table_password(table: Table, player, password: str, client_key: str):
    """Constant-time check with a cap on wrong guesses per player and table."""
    key = f"table-password:{table.pk}:{client_key}"
    guesses = cache.get(key, 0)
    if guesses >= PASSWORD_GUESSES_ALLOWED:
        raise TableError(_("Too many wrong passwords. Try again in a few minutes."), "password_rate_limited")
    if not password or not check_password(password, table.password_hash):
        cache.set(key, guesses + 1, PASSWORD_GUESS_WINDOW_SECONDS)
        raise TableError(_("Wrong table password."), "wrong_password")


def sit(table_id: int, player, *, password: str = "", client_key: str = "", seat_index=None) -> Seat:
    """Take a free seat. Sitting again where you already sit changes nothing."""
    with transaction.atomic():
        table = Table.objects.select_for_update(of=("self",)).select_related("creator__user").get(pk=table_id)
        existing = table.seats.filter(player=player, left_at__isnull=True).first()
        if existing:
            return existing
        _check_may_sit(table, player)
        if table.rematch_of_id is not None:
            # Only the players of the match before may sit, and they need no password.
            if not _played_the_match_before(table, player):
                raise TableError(_("This rematch is kept for the players of the match before it."),
                                 "rematch_reserved")
        elif table.visibility == Visibility.PASSWORD and player.pk != table.creator_id:
            check_table_password(table, player, password, client_key or f"player:{player.pk}")
        seat = _seat_player(table, player, seat_index)
        _start_if_full(table)
        transaction.on_commit(broadcast.lobby_changed)
        transaction.on_commit(lambda: broadcast.table_changed(table.pk))
    return seat


def played_at(table_id: int, player) -> bool:
    """Whether `player` sat at that table (also if they resigned or left it since)."""
    return player is not None and Seat.objects.filter(table_id=table_id, player=player).exists()


def _played_the_match_before(table: Table, player) -> bool:
    """A rematch table lets in, without its password, everyone who sat at the table
    before, and nobody else."""
    return table.rematch_of_id is not None and played_at(table.rematch_of_id, player)


def may_join_rematch(table: Table, player) -> bool | None:
    """None for an ordinary table; for a rematch, whether this player played the match before."""
    if table.rematch_of_id is None:
        return None
    return _played_the_match_before(table, player)


def waiting_rematch(table: Table) -> Table | None:
    """The rematch of a finished table that is still waiting for players, if someone offered one."""
    return table.rematches.filter(status=TableStatus.OPEN).select_related("creator").order_by("pk").first()


def offer_rematch(table_id: int, player) -> Table:
    """A player of a finished match asks for another with the same settings.

    The first to ask creates the rematch table and sits there; the others, asking
    or joining from the finished match's page, sit at that same table (no password
    needed). Asking twice changes nothing."""
    with transaction.atomic():
        # The old table's lock serialises two players asking at the same moment: one rematch.
        old = Table.objects.select_for_update(of=("self",)).get(pk=table_id)
        if old.status != TableStatus.FINISHED:
            raise TableError(_("A rematch can be asked for once the match is over."), "not_finished")
        if not played_at(old.pk, player):
            raise TableError(_("Only the players of this match can ask for a rematch."), "not_a_player")
        rematch = waiting_rematch(old)
        if rematch is None:
            rematch = _create_rematch(old, player)
        else:
            sit(rematch.pk, player)
        transaction.on_commit(lambda: broadcast.table_changed(old.pk))
    return rematch


def _create_rematch(old: Table, player) -> Table:
    _check_not_banned(player)
    if player.is_guest and old.is_coin_table:
        raise TableError(_("Guests can only play at free tables. Sign up to play for Domino Coin."), "guest_coins")
    table = Table.objects.create(
        variant=old.variant, stake=old.stake, visibility=old.visibility, password_hash=old.password_hash,
        clock_seconds=old.clock_seconds, game_type=old.game_type, khishti=old.khishti,
        pulka_bonus=old.pulka_bonus, fill_with_bots=old.fill_with_bots, target=old.target,
        creator=player, rematch_of=old,
    )
    _seat_creator(table, player)
    transaction.on_commit(broadcast.lobby_changed)
    return table


def stand(table_id: int, player) -> None:
    """Leave a table before its match starts; the stake comes back."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seat = table.seats.filter(player=player).first()
        if seat is None:
            raise TableError(_("You are not sitting at this table."), "not_seated")
        if table.status != TableStatus.OPEN:
            raise TableError(_("The match has started: use Resign to leave it."), "already_started")
        if table.is_coin_table:
            coins.refund_stake(player.user, table.escrow_key)
        seat.delete()
        if not table.seats.filter(player__isnull=False).exists():
            _close(table)
        transaction.on_commit(broadcast.lobby_changed)
        transaction.on_commit(lambda: broadcast.table_changed(table.pk))


def close_unstarted(table: Table, reason: str = "") -> None:
    """Close a table that never started, refunding every stake (caller holds the lock)."""
    if table.status != TableStatus.OPEN:
        raise TableError(_("Only a table that has not started can be closed."), "already_started")
    if table.is_coin_table:
        coins.refund_all(table.escrow_key, reason or memos.TABLE_CLOSED, table_id=table.pk)
    table.seats.all().delete()
    _close(table)
    transaction.on_commit(broadcast.lobby_changed)
    transaction.on_commit(lambda: broadcast.table_changed(table.pk))


def _close(table: Table) -> None:
    table.status = TableStatus.CLOSED
    table.closed_at = timezone.now()
    table.save(update_fields=["status", "closed_at"])


def _check_not_banned(player) -> None:
    refusal = bans.refusal_for_player(player)
    if refusal:
        raise TableError(refusal, "banned")


def _check_may_sit(table: Table, player) -> None:
    if table.status != TableStatus.OPEN:
        raise TableError(_("This table is no longer taking players."), "not_open")
    _check_not_banned(player)
    if player.is_guest and table.is_coin_table:
        raise TableError(_("Guests can only play at free tables. Sign up to play for Domino Coin."), "guest_coins")
    if table.visibility == Visibility.FRIENDS:
        if player.is_guest:
            raise TableError(_("Friends-only tables are for the creator's friends; guests cannot join them."),
                             "guest_friends")
        if not can_see(table, player):
            raise TableError(_("This table is for the creator's friends only."), "friends_only")


def _free_seat_indexes(table: Table):
    taken = set(table.seats.values_list("index", flat=True))
    return [i for i in range(SEATS_BY_VARIANT[table.variant]) if i not in taken]


def _seat_player(table: Table, player, seat_index=None) -> Seat:
    free = _free_seat_indexes(table)
    if not free:
        raise TableError(_("This table is full."), "full")
    if seat_index is None:
        seat_index = free[0]
    elif seat_index not in free:
        raise TableError(_("That seat is taken."), "seat_taken")
    if table.is_coin_table:
        try:
            coins.stake(player.user, table.escrow_key, table.stake, table_id=table.pk)
        except coins.InsufficientFunds as exc:
            raise TableError(str(exc), "insufficient_funds") from exc
        except coins.LedgerError as exc:
            raise TableError(str(exc), "coins_refused") from exc
    try:
        with transaction.atomic():
            return Seat.objects.create(table=table, index=seat_index, player=player)
    except IntegrityError as exc:  # the table lock makes this unreachable; keep the error honest anyway
        raise TableError(_("That seat is taken."), "seat_taken") from exc


def _fill_with_bots(table: Table) -> None:
    for index in _free_seat_indexes(table):
        Seat.objects.create(table=table, index=index, is_bot=True)


def _start_if_full(table: Table) -> None:
    if _free_seat_indexes(table):
        return
    from .matches import start_match  # the match layer needs the engine; import late

    start_match(table)


def close_stale_table(table_id: int) -> bool:
    """The sweeper's job: a table that never filled is closed and its stakes refunded."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != TableStatus.OPEN:
            return False
        close_unstarted(table, reason=memos.TABLE_NEVER_FILLED)
        return True
