"""Quick play: one tap puts a player in a queue; the pairing seats near ratings together.

The queue is the `QueueEntry` table, so it is the same for every web process and the
Celery worker. Joining and leaving change one row; the pairing (`pair_queue`) is the one
function that takes players out of the queue onto a table. It locks the queue's waiting
rows (`select_for_update`, in id order), so two pairings of the same queue run one after
the other and the second finds the first one's players gone: nobody is seated twice.
The table is made by `games.services.tables.seat_together`, which seats each player as
`sit` does, holding each stake in the table's escrow with the coin ledger; a stake is
therefore taken once, by the seat, and never while waiting. See docs/quickplay.md.

Who may queue is decided in one place, `may_queue`.
"""

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import access
from coins import services as coins
from games import options
from games.models import SEATS_BY_VARIANT, BotLevel, Seat, TableStatus, Variant
from games.services import broadcast
from games.services import tables as table_service
from games.services.tables import TableError, TableSettings
from joker_site.refusals import Refusal
from push import notify as push_notify
from ratings.services import shown_ratings

from .models import EntryStatus, QueueEntry

QUICK_VARIANTS = (Variant.JAPANESE, Variant.CLASSIC)
QUICK_STAKES = (0,) + options.STAKES
QUEUE_GROUP = "quickplay"  # every socket following a queue: "the queue changed"
_shuffle = random.SystemRandom().shuffle


class QuickPlayError(Refusal):
    """A refused quick play request (joining or leaving the queue); nothing changed."""


def player_group(player_id: int) -> str:
    """The channel group of one player's quick play sockets: "you were paired", "you were taken out"."""
    return f"quickplay-{player_id}"


@dataclass(frozen=True)
class Queue:
    """Players wait for a game of one variant at one stake; members' queues are rated, guests'
    casual. Only players of the same queue are paired."""

    variant: str
    stake: int
    rated: bool

    @classmethod
    def of(cls, entry: QueueEntry) -> "Queue":
        return cls(entry.variant, entry.stake, entry.rated)

    def as_key(self) -> list:
        return [self.variant, self.stake, self.rated]


# --- Who may queue ---------------------------------------------------------------------------

def may_queue(player, variant, stake) -> None:
    """Raise QuickPlayError when `player` may not wait for a quick game of `variant` at `stake`.

    The one place that decides it: the page, the protocol and the pairing (which asks again
    for every player it is about to seat) all call it."""
    if variant not in QUICK_VARIANTS:
        raise QuickPlayError("invalid_variant", _("Choose Japanese Joker or classic Joker."))
    if type(stake) is not int or stake not in QUICK_STAKES:
        raise QuickPlayError("invalid_stake", _("Choose a free game or one of the stakes offered."),
                             {"stakes": list(QUICK_STAKES)})
    refusal = access.rated_play_refusal(player)  # a ban; walking out of rated matches pauses quick play too
    if refusal is not None:
        raise QuickPlayError(refusal.code, refusal.message, refusal.params)
    if player.is_guest and stake:
        raise QuickPlayError("guest_coins",
                             _("Guests can only play at free tables. Sign up to play for Domino Coin."))
    if is_at_a_table(player):
        raise QuickPlayError("already_seated",
                             _("You are already at a table. Finish that game or leave its table first."))
    if stake:
        try:
            coins.refuse_unless_verified(player.user)
        except coins.EmailNotVerified as refusal:
            raise QuickPlayError(refusal.code, refusal.message) from None
        available = coins.balance_of(player.user)
        if available < stake:
            refusal = coins.InsufficientFunds(stake, available)
            raise QuickPlayError(refusal.code, refusal.message, refusal.params)


def is_at_a_table(player) -> bool:
    """Sitting at a table that waits for players or plays its match."""
    return Seat.objects.filter(player=player, left_at__isnull=True,
                               table__status__in=(TableStatus.OPEN, TableStatus.PLAYING)).exists()


def _check_bots(bots) -> None:
    if not isinstance(bots, bool):
        raise QuickPlayError("bad_message", _("Say yes or no to bots."))


# --- Joining and leaving ---------------------------------------------------------------------

def waiting_entry(player) -> QueueEntry | None:
    return QueueEntry.objects.filter(player=player, status=EntryStatus.WAITING).first()


def join(player, variant, stake, bots=False) -> QueueEntry:
    """Put the player in the queue, then pair at once if someone near is waiting.

    `bots`: a game with bots is welcome when no person comes (offered after
    QUICKPLAY_BOT_OFFER_SECONDS, taken by itself after QUICKPLAY_BOTS_AFTER_SECONDS; the home
    page's buttons ask for it unless the player ticked "people only", a program asks for it
    explicitly); False waits for people only. Returns the player's entry as it is after that pairing (`paired`,
    with its table, when it was). Asking again while waiting (a double click, a second tab)
    is refused."""
    _check_bots(bots)
    if waiting_entry(player) is not None:
        raise _already_waiting()
    may_queue(player, variant, stake)
    rating = shown_ratings([(player.pk, variant)])[(player.pk, variant)].value
    try:
        with transaction.atomic():
            entry = QueueEntry.objects.create(player=player, variant=variant, stake=stake, bots=bots,
                                              rated=not player.is_guest, rating=rating)
            transaction.on_commit(lambda: _queue_changed(Queue.of(entry)))
    except IntegrityError:  # a second request of the same player won the race
        raise _already_waiting() from None
    pair_queue(Queue.of(entry))
    entry.refresh_from_db()
    return entry


def bots_now(player, bot_level: str | None = None) -> QueueEntry:
    """The waiting player takes the game with bots now (the offer's one tap): seated at once with
    bots at `bot_level` (the table's bot_level; the club's when none is named), and with whoever
    else of the queue near their rating also welcomes bots. Refused when the level is not one of
    BotLevel, when they are not waiting (`already_paired` names the table when the pairing just
    seated them) or chose people only. Returns the entry as it is after (paired, with its table)."""
    bot_level = bot_level or BotLevel.CLUB
    if bot_level not in BotLevel.values:
        raise QuickPlayError("bad_message", _("Choose the bots' level."))
    entry = waiting_entry(player)
    if entry is None:
        raise _not_waiting(player)
    if not entry.bots:
        raise QuickPlayError("people_only", _("You chose to wait for people only."))
    pair_queue(Queue.of(entry), bots_for=entry.pk, bot_level=bot_level)
    entry.refresh_from_db()
    if entry.status == EntryStatus.WAITING:  # the pairing refused the seat and kept them: say so
        raise QuickPlayError("not_seated", _("The table with bots could not be made. Try again."))
    return entry


def people_only(player) -> QueueEntry:
    """The waiting player declines bots: they wait for people only, and nothing comes by itself."""
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(player=player, status=EntryStatus.WAITING).first()
        if entry is None:
            raise _not_waiting(player)
        if entry.bots:
            entry.bots = False
            entry.save(update_fields=["bots"])
            transaction.on_commit(lambda: _queue_changed(Queue.of(entry)))
    return entry


def still_here(player) -> bool:
    """A page or program of the player follows the queue: the player has not gone (one UPDATE)."""
    return still_here_all([player.pk]) > 0


def still_here_all(player_ids) -> int:
    """`still_here` for every player whose page or program in this process follows the queue (one
    UPDATE, on the process's heartbeat: quickplay/consumers.py). Returns how many entries it kept."""
    return QueueEntry.objects.filter(player_id__in=list(player_ids), status=EntryStatus.WAITING).update(
        seen_at=timezone.now())


def _already_waiting() -> QuickPlayError:
    return QuickPlayError("already_waiting", _("You are already waiting for a game."))


def leave(player) -> QueueEntry:
    """Take the player out of the queue. Refused when they are not waiting (a double click on
    "Leave", or the pairing seated them a moment before: then `params` name the table)."""
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(player=player, status=EntryStatus.WAITING).first()
        if entry is None:
            raise _not_waiting(player)
        entry.status, entry.ended_at = EntryStatus.LEFT, timezone.now()
        entry.save(update_fields=["status", "ended_at"])
        transaction.on_commit(lambda: _queue_changed(Queue.of(entry)))
    return entry


def _not_waiting(player) -> QuickPlayError:
    paired = recently_paired(player) if player is not None else None
    if paired is not None:
        return QuickPlayError("already_paired", _("Your game has already started."),
                              {"table": paired.table_id, "match": _match_of(paired.table_id)})
    return QuickPlayError("not_waiting", not_waiting_sentence())


def not_waiting_sentence() -> str:
    return _("You are not waiting for a game.")


RECENT_PAIRING = timedelta(minutes=2)


def recently_paired(player) -> QueueEntry | None:
    """The player's entry paired in the last two minutes whose match is still being played."""
    return (QueueEntry.objects.filter(player=player, status=EntryStatus.PAIRED,
                                      ended_at__gte=timezone.now() - RECENT_PAIRING,
                                      table__status=TableStatus.PLAYING)
            .order_by("-ended_at").first())


def _match_of(table_id) -> int | None:
    from games.models import Match

    return Match.objects.filter(table_id=table_id).values_list("pk", flat=True).first()


# --- What a waiting player sees ---------------------------------------------------------------

def waited_seconds(entry: QueueEntry, now: datetime | None = None) -> int:
    return max(0, int(((now or timezone.now()) - entry.joined_at).total_seconds()))


def looking_count(queue: Queue) -> int:
    """How many wait in this queue now (the asking player included)."""
    return QueueEntry.objects.filter(status=EntryStatus.WAITING, variant=queue.variant, stake=queue.stake,
                                     rated=queue.rated).count()


def rating_range(entry: QueueEntry, now: datetime | None = None) -> int:
    """How far from the player's rating an opponent may be now: it widens as they wait."""
    return settings.QUICKPLAY_RANGE_START + int(settings.QUICKPLAY_RANGE_PER_SECOND * waited_seconds(entry, now))


def status_of(entry: QueueEntry, now: datetime | None = None) -> dict:
    """The protocol's `quick_play` answer for an entry (docs/protocol.md)."""
    data = {"type": "quick_play", "status": entry.status, "variant": entry.variant, "stake": entry.stake,
            "rated": entry.rated, "bots": entry.bots}
    if entry.status == EntryStatus.WAITING:
        spread = rating_range(entry, now)
        data.update(waited=waited_seconds(entry, now), looking=looking_count(Queue.of(entry)),
                    rating=entry.rating, range=[entry.rating - spread, entry.rating + spread])
        if entry.bots:
            data["bots_after"] = max(0, settings.QUICKPLAY_BOTS_AFTER_SECONDS - data["waited"])
    elif entry.status == EntryStatus.PAIRED:
        data.update(table=entry.table_id, match=_match_of(entry.table_id))
    elif entry.status == EntryStatus.DROPPED:
        data.update(code=entry.reason)
    return data


# --- The pairing ------------------------------------------------------------------------------

def pair_all(now: datetime | None = None) -> int:
    """Pair every queue that has players waiting (the periodic task, quickplay/tasks.py);
    returns the number of tables made."""
    queues = (QueueEntry.objects.filter(status=EntryStatus.WAITING)
              .values_list("variant", "stake", "rated").distinct())
    return sum(len(pair_queue(Queue(*queue), now)) for queue in list(queues))


def pair_queue(queue: Queue, now: datetime | None = None, bots_for: int | None = None,
               bot_level: str = BotLevel.CLUB) -> list:
    """Seat as many groups of this queue's waiting players as can be seated now; the tables made.

    Under the lock of every waiting row of the queue. A player who may no longer play (sat
    down elsewhere, was banned, spent the coins for the stake) is taken out of the queue
    with the reason and told; the others of that group wait on. `bots_for`: the entry whose
    player took the bots' offer, seated with bots at `bot_level` now if no table of people can
    be made (bots that come by themselves after the wait play at the club level)."""
    now = now or timezone.now()
    made = []
    with transaction.atomic():
        entries = list(QueueEntry.objects.select_for_update(of=("self",))
                       .filter(status=EntryStatus.WAITING, variant=queue.variant, stake=queue.stake,
                               rated=queue.rated)
                       .select_related("player__user").order_by("pk"))
        locked = entries
        entries = _without_players_who_may_not_play(entries, now)
        while True:
            group, bots = _next_group(entries, queue, now, bots_for)
            if not group:
                break
            level = bot_level if any(entry.pk == bots_for for entry in group) else BotLevel.CLUB
            table = _seat_group(group, queue, bots, now, level)
            if table is not None:
                made.append(table)
                entries = [entry for entry in entries if entry not in group]
            else:
                entries = [entry for entry in entries if entry.status == EntryStatus.WAITING]
        if any(entry.status != EntryStatus.WAITING for entry in locked):
            transaction.on_commit(lambda: _queue_changed(queue))
    return made


def _without_players_who_may_not_play(entries, now):
    """Take out at once (two queries for the whole queue) whoever closed the page (nobody has
    seen them for QUICKPLAY_ABSENT_SECONDS), sits at a table now or was banned, so that they
    are neither seated nor counted as looking; the rest of `may_queue` is asked per group."""
    seated = set(Seat.objects.filter(player_id__in=[entry.player_id for entry in entries], left_at__isnull=True,
                                     table__status__in=(TableStatus.OPEN, TableStatus.PLAYING))
                 .values_list("player_id", flat=True))
    banned = access.members_refused_play(entry.player.user_id for entry in entries)
    gone_before = now - timedelta(seconds=settings.QUICKPLAY_ABSENT_SECONDS)
    kept = []
    for entry in entries:
        if entry.seen_at < gone_before:
            _drop(entry, "gone", now)
        elif entry.player_id in seated:
            _drop(entry, "already_seated", now)
        elif entry.player.user_id in banned:
            _drop(entry, "banned", now)
        else:
            kept.append(entry)
    return kept


def _near(a: QueueEntry, b: QueueEntry, now) -> bool:
    """Both players accept each other: the gap fits within the narrower of their two ranges."""
    return abs(a.rating - b.rating) <= min(rating_range(a, now), rating_range(b, now))


def _next_group(entries, queue: Queue, now, bots_for=None) -> tuple[list, bool]:
    """The next players to seat together, and whether bots fill the other chairs.

    The longest waiting player goes first, with the nearest ratings that every one of the
    group accepts. Failing a full table, a player who welcomes bots and has waited
    QUICKPLAY_BOTS_AFTER_SECONDS (or took the offer: `bots_for`) is seated with bots, and in
    classic with the other waiting players near their rating who welcome them too."""
    need = SEATS_BY_VARIANT[queue.variant]
    by_wait = sorted(entries, key=lambda entry: (entry.joined_at, entry.pk))
    for anchor in by_wait:
        group = [anchor]
        for other in sorted(by_wait, key=lambda entry: abs(entry.rating - anchor.rating)):
            if other is not anchor and all(_near(other, chosen, now) for chosen in group):
                group.append(other)
                if len(group) == need:
                    return group, False
    for anchor in by_wait:
        if anchor.bots and (anchor.pk == bots_for
                            or waited_seconds(anchor, now) >= settings.QUICKPLAY_BOTS_AFTER_SECONDS):
            others = sorted((entry for entry in by_wait
                             if entry.bots and entry is not anchor and _near(entry, anchor, now)),
                            key=lambda entry: abs(entry.rating - anchor.rating))
            return [anchor, *others][:need - 1], True
    return [], False


def _seat_group(group, queue: Queue, bots: bool, now, bot_level: str = BotLevel.CLUB):
    """The group's table with its match started, or None when one of them was refused a seat
    (that player is taken out of the queue; nothing else of the attempt remains)."""
    players = [entry.player for entry in group]
    _shuffle(players)  # who sits first (and deals or leads first) is luck, not queue order
    for entry in group:
        try:
            may_queue(entry.player, entry.variant, 0 if bots else entry.stake)
        except QuickPlayError as refusal:
            _drop(entry, refusal.code, now)
            return None
    # A table with bots is a practice table: free and casual, whatever the queue's stake.
    table_settings = TableSettings(variant=queue.variant, stake=0 if bots else queue.stake,
                                   rated=queue.rated and not bots, fill_with_bots=bots, bot_level=bot_level,
                                   clock_seconds=settings.QUICKPLAY_CLOCK_SECONDS)
    try:
        with transaction.atomic():
            table = table_service.seat_together(players, table_settings)
    except TableError as refusal:
        refused = next((entry for entry in group if entry.player_id == refusal.params.get("player")), group[0])
        _drop(refused, refusal.code, now)
        return None
    match_id = _match_of(table.pk)
    for entry in group:
        entry.status, entry.ended_at, entry.table = EntryStatus.PAIRED, now, table
        entry.save(update_fields=["status", "ended_at", "table"])
        _tell_after_commit(entry, {"type": "quickplay.paired", "table": table.pk, "match": match_id,
                                   "entry": entry.pk})
        if entry.player.user_id is not None:  # a member's devices too, once this commits (docs/push.md)
            push_notify.quickplay_found(entry.player.user_id, table.pk)
    return table


def _tell_after_commit(entry: QueueEntry, notice: dict) -> None:
    """Tell the entry's player's sockets (the home page's, a program's) once this commits."""
    group = player_group(entry.player_id)
    transaction.on_commit(lambda: broadcast.group_send(group, notice))


def _drop(entry: QueueEntry, code: str, now) -> None:
    entry.status, entry.ended_at, entry.reason = EntryStatus.DROPPED, now, code
    entry.save(update_fields=["status", "ended_at", "reason"])
    _tell_after_commit(entry, {"type": "quickplay.dropped", "code": code, "entry": entry.pk})


def dropped_sentence(code: str) -> str:
    """What a player taken out of the queue is told, in the active language."""
    sentences = {
        "already_seated": _("You sat down at a table, so you left the queue."),
        "gone": _("You closed the page, so you left the queue."),
        "banned": _("The site staff have banned your account, so you left the queue."),
        "insufficient_funds": _("You no longer have enough Domino Coin for this stake, so you left the queue."),
    }
    return sentences.get(code, _("You were taken out of the queue. Try again."))


def _queue_changed(queue: Queue) -> None:
    broadcast.group_send(QUEUE_GROUP, {"type": "quickplay.changed", "queue": queue.as_key()})
