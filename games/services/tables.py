"""Creating tables, sitting down and standing up.

Every change locks the table row first (`select_for_update`), so two people
taking the last seat at the same moment are served one after the other and
exactly one of them gets it. Stakes move through the coin ledger inside the
same transaction: a seat and its stake exist together or not at all.
"""

from dataclasses import dataclass
from dataclasses import fields as dataclass_fields

from django.conf import settings as site_settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from accounts import access
from accounts.friends import are_friends, is_blocked
from accounts.models import Player
from coins import memos
from coins import services as coins
from joker_site.refusals import Refusal

from .. import events, options
from ..models import SEATS_BY_VARIANT, BotLevel, Seat, Table, TableStatus, Visibility
from . import broadcast, matches

# Wrong table passwords (docs/live-match.md): a player may guess 5 times and an address 10
# times per table in 10 minutes; after 20 wrong guesses from anyone the table stops taking
# its password (for a week, longer than any table waits), and its host is told.
PASSWORD_GUESSES_ALLOWED = 5
PASSWORD_GUESSES_PER_ADDRESS = 10
PASSWORD_FAILURES_BEFORE_LOCK = 20
PASSWORD_GUESS_WINDOW_SECONDS = 600
PASSWORD_LOCK_SECONDS = 7 * 24 * 3600


class TableError(Refusal):
    """A refused table action (creating, sitting, standing, a rematch), fit to show the player."""


@dataclass(frozen=True)
class TableSettings:
    """What a table is created with; the one place a table's settings are copied from
    (`table_fields`) and read back (`of`), for a new table and for a rematch alike."""

    variant: str
    stake: int = 0
    visibility: str = Visibility.OPEN
    password: str = ""
    clock_seconds: int = options.DEFAULT_CLOCK_SECONDS
    bank_seconds: int = options.DEFAULT_BANK_SECONDS
    game_type: str = options.DEFAULT_GAME_TYPE
    khishti: str = options.DEFAULT_KHISHTI
    pulka_bonus: str = options.DEFAULT_PULKA_BONUS
    fill_with_bots: bool = False
    bot_level: str = BotLevel.CLUB
    target: int = options.DEFAULT_TARGET
    rated: bool = True
    allow_spectators: bool = True
    berserk_allowed: bool = False  # an arena's tables (tournaments/services.py)

    @classmethod
    def of(cls, table: Table) -> "TableSettings":
        """The settings `table` was created with (its password stays hashed: it is copied as `password_hash`)."""
        return cls(**{name: getattr(table, name) for name in cls._column_names()})

    def table_fields(self, creator) -> dict:
        """The Table columns these settings set for a table `creator` makes, the password aside
        (a new table hashes it, a rematch copies the hash)."""
        fields = {name: getattr(self, name) for name in self._column_names()}
        fields["fill_with_bots"] = self.fill_with_bots
        fields["rated"] = is_rated_table(self, creator)
        return fields

    @classmethod
    def _column_names(cls) -> list[str]:
        return [field.name for field in dataclass_fields(cls) if field.name != "password"]


def is_rated_table(settings: TableSettings, creator) -> bool:
    """Whether a new table is rated: as asked, except practice tables with bots and guests' tables."""
    return settings.rated and not creator.is_guest and not settings.fill_with_bots


def create_table(creator, settings: TableSettings, *, sit=True) -> Table:
    """Create a table and (by default) seat its creator at seat 0."""
    _check_may_create(creator, settings)
    with transaction.atomic():
        table = Table.objects.create(
            **settings.table_fields(creator),
            password_hash=make_password(settings.password) if settings.visibility == Visibility.PASSWORD else "",
            creator=creator,
        )
        if sit:
            _seat_creator(table, creator)
            _check_open_tables(creator, table)
        transaction.on_commit(broadcast.lobby_changed)
    return table


def _seat_creator(table: Table, creator) -> None:
    """The creator takes seat 0; practice bots take the rest, and then the match starts."""
    _seat_player(table, creator, seat_index=0)
    if table.fill_with_bots:
        _fill_with_bots(table)
    _start_if_full(table)


def seat_together(players, settings: TableSettings) -> Table:
    """Quick play's table (quickplay/services.py): a new open table created by `players[0]`,
    every one of `players` seated in order as `sit` seats them (the same checks, the
    creator's included; the stake held in the table's escrow), practice bots in the other
    chairs when the settings ask, and the match started once every chair is taken. A refusal names the player it was about in
    `params["player"]` and, inside the caller's transaction, leaves nothing behind."""
    creator = players[0]
    with transaction.atomic():
        table = Table.objects.create(**settings.table_fields(creator), creator=creator)
        for player in players:
            try:
                _check_may_sit(table, player)
                _seat_player(table, player)
            except TableError as refusal:
                refusal.params["player"] = player.pk
                raise
        if table.fill_with_bots:
            _fill_with_bots(table)
        _start_if_full(table, seated_together=True)
        transaction.on_commit(broadcast.lobby_changed)
    return table


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


def _password_lock_key(table: Table) -> str:
    return f"table-password-locked:{table.pk}"


def password_locked(table: Table) -> bool:
    """Whether the table stopped taking its password after too many wrong guesses."""
    return bool(cache.get(_password_lock_key(table)))


def _count_guess(key: str) -> int:
    """One more wrong guess under `key` (atomic in the cache); the count so far."""
    cache.add(key, 0, PASSWORD_GUESS_WINDOW_SECONDS)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, PASSWORD_GUESS_WINDOW_SECONDS)
        return 1


def check_table_password(table: Table, player, password: str, client_key: str, client_address: str = ""):
    """Constant-time check with caps on wrong guesses per player, per address and per table.

    The counts live in the cache, so a refusal (which rolls the seat's transaction back)
    keeps them. The guess that reaches the table's cap locks it: the refusal is then marked
    `locked_now`, for `sit` to tell the host once the transaction is over."""
    if password_locked(table):
        raise TableError("password_locked", _(
            "This table no longer takes its password: too many wrong passwords were tried. "
            "Ask its host for the invitation link."))
    limits = [(f"table-password:{table.pk}:{client_key}", PASSWORD_GUESSES_ALLOWED)]
    if client_address:
        limits.append((f"table-password:{table.pk}:address:{client_address}", PASSWORD_GUESSES_PER_ADDRESS))
    if any(cache.get(key, 0) >= limit for key, limit in limits):
        raise TableError("password_rate_limited", _("Too many wrong passwords. Try again in a few minutes."))
    if password and check_password(password, table.password_hash):
        return
    for key, _limit in limits:
        _count_guess(key)
    refusal = TableError("wrong_password", _("Wrong table password."))
    if _count_guess(f"table-password:{table.pk}:all") >= PASSWORD_FAILURES_BEFORE_LOCK:
        refusal.locked_now = cache.add(_password_lock_key(table), True, PASSWORD_LOCK_SECONDS)
    raise refusal


def invitation_link_token(table: Table) -> str:
    """The secret of a password table's invitation link: whoever has the link sits without the
    password. Derived from the site's secret key, the table and its password hash, so nothing
    is stored and it cannot be guessed; a rematch (another table) has another."""
    return salted_hmac("games.tables.invitation_link", f"{table.pk}:{table.password_hash}").hexdigest()[:32]


def valid_invitation_link(table: Table, token: str) -> bool:
    return (table.visibility == Visibility.PASSWORD and bool(token)
            and constant_time_compare(token, invitation_link_token(table)))


def _tell_host_of_lock(table_id: int) -> None:
    """The table stopped taking its password: its host is told (notices subscribes, games/events.py)."""
    table = Table.objects.select_related("creator").get(pk=table_id)
    if table.creator.user_id is not None:
        events.announce(events.TablePasswordLocked(table.pk, table.creator.user_id))


def sit(table_id: int, player, *, password: str = "", client_key: str = "", client_address: str = "",
        seat_index=None, invitation=None, invitation_link: str = "") -> Seat:
    """Take a free seat. Sitting again where you already sit changes nothing.

    `invitation` (an id) is a friend's one-use grant (notices/invitations.py): it is
    spent here, with the seat and its stake, and stands in for the table's password; so does
    `invitation_link`, the secret of the host's link (`invitation_link_token`).
    `client_address` is the client's address, for the per-address cap on wrong passwords."""
    try:
        return _sit(table_id, player, password=password, client_key=client_key, client_address=client_address,
                    seat_index=seat_index, invitation=invitation, invitation_link=invitation_link)
    except TableError as refusal:
        if getattr(refusal, "locked_now", False):
            _tell_host_of_lock(table_id)  # after the seat's transaction rolled back
        raise


def _sit(table_id, player, *, password, client_key, client_address, seat_index, invitation, invitation_link):
    with transaction.atomic():
        table = Table.objects.select_for_update(of=("self",)).select_related("creator__user").get(pk=table_id)
        existing = table.seats.filter(player=player, left_at__isnull=True).first()
        if existing:
            return existing
        _check_may_sit(table, player)
        if invitation is not None:
            _redeem_invitation(invitation, table, player)
        if table.rematch_of_id is not None:
            # Only the players of the match before may sit, and they need no password.
            if not _played_the_match_before(table, player):
                raise TableError("rematch_reserved", _("This rematch is kept for the players of the match before it."))
        elif (table.visibility == Visibility.PASSWORD and player.pk != table.creator_id and invitation is None
              and not valid_invitation_link(table, invitation_link)):
            check_table_password(table, player, password, client_key or f"player:{player.pk}", client_address)
        seat = _seat_player(table, player, seat_index)
        _start_if_full(table)
        _check_open_tables(player, table)
        transaction.on_commit(broadcast.lobby_changed)
        transaction.on_commit(lambda: broadcast.table_changed(table.pk))
    return seat


# Who spends a friend's invitation: notices/invitations.py's `redeem`, registered by NoticesConfig.ready()
# (the games app does not know the notices app that sits above it).
_invitation_redeemers: list = []


def redeem_invitations_with(redeem) -> None:
    """`redeem(invitation_id, table, player)` spends an invitation under the table's lock, or refuses."""
    if redeem not in _invitation_redeemers:
        _invitation_redeemers.append(redeem)


def _redeem_invitation(invitation, table: Table, player) -> None:
    if not _invitation_redeemers:
        raise TableError("no_such_invitation", _("There is no such invitation."))
    for redeem in _invitation_redeemers:
        redeem(invitation, table, player)


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
            raise TableError("not_finished", _("A rematch can be asked for once the match is over."))
        if not played_at(old.pk, player):
            raise TableError("not_a_player", _("Only the players of this match can ask for a rematch."))
        rematch = waiting_rematch(old)
        if rematch is None:
            rematch = _create_rematch(old, player)
        else:
            sit(rematch.pk, player)
        transaction.on_commit(lambda: broadcast.table_changed(old.pk))
    return rematch


def _create_rematch(old: Table, player) -> Table:
    settings = TableSettings.of(old)
    _check_may_create(player, settings)
    table = Table.objects.create(
        **settings.table_fields(player), password_hash=old.password_hash, creator=player, rematch_of=old,
    )
    _seat_creator(table, player)
    _check_open_tables(player, table)
    transaction.on_commit(broadcast.lobby_changed)
    return table


def stand(table_id: int, player) -> None:
    """Leave a table before its match starts; the stake comes back."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seat = table.seats.filter(player=player).first()
        if seat is None:
            raise TableError("not_seated", _("You are not sitting at this table."))
        if table.status != TableStatus.OPEN:
            raise TableError("already_started", _("The match has started: use Resign to leave it."))
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
        raise TableError("already_started", _("Only a table that has not started can be closed."))
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


def _check_open_tables(player, table: Table) -> None:
    """Refuse (rolling the caller's transaction back) a seat that leaves `player` waiting at more
    than OPEN_TABLES_PER_PLAYER tables that have not started. A table that started at once
    (bots, the last seat: start_match set its status) does not count. The player's row is
    locked before counting, so two requests at the same moment are counted one after the other."""
    if table.status != TableStatus.OPEN:
        return
    # NO KEY UPDATE: the seats just inserted hold KEY SHARE on the row, which this must not wait for.
    Player.objects.select_for_update(no_key=True).filter(pk=player.pk).values_list("pk", flat=True).first()
    waiting_at = Seat.objects.filter(player=player, left_at__isnull=True, table__status=TableStatus.OPEN).count()
    if waiting_at > site_settings.OPEN_TABLES_PER_PLAYER:
        raise TableError("too_many_tables", _(
            "You are already waiting at as many open tables as one player may. Leave one of them, "
            "or wait until one starts, before you open or join another."))


def _check_may_create(creator, settings: TableSettings) -> None:
    _check_may_play(creator, rated=is_rated_table(settings, creator))
    if creator.is_guest and settings.stake:
        raise _guests_play_free()
    if creator.is_guest and settings.visibility == Visibility.FRIENDS:
        raise TableError("guest_friends", _("Guests have no friends list. Sign up to make a friends-only table."))


def _guests_play_free() -> TableError:
    return TableError("guest_coins", _("Guests can only play at free tables. Sign up to play for Domino Coin."))


def _check_may_play(player, rated: bool) -> None:
    """A banned member sits nowhere; a player paused for walking out of rated matches (conduct/)
    sits at casual tables only (accounts/access.py asks the apps that decide)."""
    refusal = access.rated_play_refusal(player) if rated else access.play_refusal(player)
    if refusal is not None:
        raise TableError(refusal.code, refusal, refusal.params)  # worded when read


def _check_may_sit(table: Table, player) -> None:
    if table.status != TableStatus.OPEN:
        raise TableError("not_open", _("This table is no longer taking players."))
    _check_may_play(player, rated=table.rated)
    if player.is_guest and table.is_coin_table:
        raise _guests_play_free()
    if player.is_guest and table.rated:
        raise TableError("guest_rated",
                         _("Rated tables are for members. Sign up to play rated, or join a casual table."))
    if table.visibility == Visibility.FRIENDS:
        if player.is_guest:
            raise TableError("guest_friends", _("Friends-only tables are for the creator's friends; guests cannot join them."))
        if not can_see(table, player):
            raise TableError("friends_only", _("This table is for the creator's friends only."))


def free_seat_count(table: Table) -> int:
    return len(_free_seat_indexes(table))


def _free_seat_indexes(table: Table):
    taken = set(table.seats.values_list("index", flat=True))
    return [i for i in range(SEATS_BY_VARIANT[table.variant]) if i not in taken]


def _seat_player(table: Table, player, seat_index=None) -> Seat:
    free = _free_seat_indexes(table)
    if not free:
        raise TableError("full", _("This table is full."))
    if seat_index is None:
        seat_index = free[0]
    elif seat_index not in free:
        raise TableError("seat_taken", _("That seat is taken."))
    if table.is_coin_table:
        try:
            coins.stake(player.user, table.escrow_key, table.stake, table_id=table.pk)
        except coins.LedgerError as exc:  # InsufficientFunds keeps its own code
            raise TableError(exc.code, exc.message) from exc
    try:
        with transaction.atomic():
            return Seat.objects.create(table=table, index=seat_index, player=player)
    except IntegrityError as exc:  # the table lock makes this unreachable; keep the error honest anyway
        raise TableError("seat_taken", _("That seat is taken.")) from exc


def _fill_with_bots(table: Table) -> None:
    for index in _free_seat_indexes(table):
        Seat.objects.create(table=table, index=index, is_bot=True)


def _start_if_full(table: Table, seated_together: bool = False) -> None:
    """Start the match once every chair is taken (`seated_together`: its players sat down at
    once, as quick play seats them: nobody waited for the table to fill)."""
    if _free_seat_indexes(table):
        return
    matches.start_match(table, seated_together=seated_together)


def close_stale_table(table_id: int) -> bool:
    """The sweeper's job: a table that never filled is closed and its stakes refunded."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != TableStatus.OPEN:
            return False
        close_unstarted(table, reason=memos.TABLE_NEVER_FILLED)
        return True
