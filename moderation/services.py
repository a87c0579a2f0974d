"""Staff actions. Each one runs in one transaction: it locks what it changes,
acts through the games and coins services (never by editing balances or
records), and writes its audit entry, so the action and its entry are
committed together or not at all.

A refusal raises `ModerationError` with a sentence for the staff member and
changes nothing.
"""

from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from accounts.sockets import close_member_sockets
from coins import memos
from coins import services as coins
from coins.models import Account, Stake
from conduct.models import Pause, WalkOut
from games import live
from games.models import Match, MatchStatus, Seat, Table, TableStatus
from games.services.tables import close_unstarted, stand
from joker_site.refusals import Refusal
from tournaments import services as tournaments

from . import audit
from .bans import active_ban
from .models import AuditAction, Ban

# What the players read in their coin history next to a refund. The staff
# member's reason stays in the audit log: it may say things meant for staff only.
CLOSED_BY_STAFF_MEMO = memos.TABLE_CLOSED_BY_STAFF
ABORTED_BY_STAFF_MEMO = memos.MATCH_ABORTED_BY_STAFF


class ModerationError(Refusal):
    """A staff action refused; `message` tells the staff member why."""

    code = "moderation_refused"


def _required(reason):
    reason = (reason or "").strip()
    if not reason:
        raise ModerationError(message=_("Give a reason."))
    return reason


def _held_stakes(table):
    """Who has coins in the table's pot now: what a refund will give back."""
    held = Stake.objects.filter(escrow__key=table.escrow_key, state=Stake.State.HELD).select_related("wallet__user")
    return [{"user_id": s.wallet.user_id, "username": s.wallet.user.get_username() if s.wallet.user else "",
             "amount": s.amount} for s in held]


def _seated_players(table):
    return [{"seat": s.index, "player_id": s.player_id, "name": s.player.display_name_text}
            for s in table.seats.select_related("player__user") if s.player_id]


# --- Tables and matches -------------------------------------------------------------

def close_table(table_id, reason, actor):
    """Close a table whose match has not started; every stake goes back."""
    reason = _required(reason)
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ModerationError(message=_("That table does not exist."))
        if table.status != TableStatus.OPEN:
            raise ModerationError(message=_("%(table)s is not waiting for players (it is %(status)s): "
                                            "only a table that has not started can be closed.")
                                          % {"table": table, "status": table.get_status_display().lower()})
        details = {"table_id": table.pk, "players": _seated_players(table), "refunds": _held_stakes(table)}
        close_unstarted(table, reason=CLOSED_BY_STAFF_MEMO)
        return audit.record(actor, AuditAction.CLOSE_TABLE, table, reason, details)


def abort_match(match_id, reason, actor):
    """Stop a running match: nobody wins, every stake goes back, the table sees it live."""
    reason = _required(reason)
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("table").filter(pk=match_id).first()
        if match is None:
            raise ModerationError(message=_("That match does not exist."))
        if match.status != MatchStatus.RUNNING:
            raise ModerationError(message=_("%(match)s is not running (it is %(status)s).")
                                          % {"match": match, "status": match.get_status_display().lower()})
        details = {"table_id": match.table_id, "version": match.version,
                   "players": _seated_players(match.table), "refunds": _held_stakes(match.table)}
        live.submit(match.pk, None, live.Abort(ABORTED_BY_STAFF_MEMO))  # the row lock above means it is still running
        return audit.record(actor, AuditAction.ABORT_MATCH, match, reason, details)


def kick_player(seat_id, reason, actor):
    """Stand a player up from a table that has not started; their stake comes back."""
    reason = _required(reason)
    with transaction.atomic():
        seat = Seat.objects.filter(pk=seat_id).first()
        if seat is None:
            raise ModerationError(message=_("That seat is empty now."))
        table = Table.objects.select_for_update().get(pk=seat.table_id)
        seat = Seat.objects.select_related("player__user").filter(pk=seat_id).first()  # again, under the lock
        if seat is None or seat.player_id is None:
            raise ModerationError(message=_("That seat is empty now."))
        if table.status != TableStatus.OPEN:
            raise ModerationError(message=_("The match at %(table)s has started: abort the match, or ban the player, "
                                            "instead of removing them.") % {"table": table})
        player = seat.player
        refund = coins.held_stake(player.user, table.escrow_key) if player.user_id and table.is_coin_table else None
        details = {"table_id": table.pk, "seat": seat.index, "refund": refund.amount if refund else 0}
        stand(table.pk, player)
        return audit.record(actor, AuditAction.KICK_PLAYER, player, reason, details,
                            label=f"{player.display_name_text} @ {table}")


# --- Bans -----------------------------------------------------------------------------

def ban_user(user_id, duration, reason, actor):
    """Ban a user for `duration` (a timedelta; None for good): no logging in, no
    seat; their sessions end, their open sockets (programs' and pages') close,
    they stand up from tables that have not started, and their running matches
    count as left (rules.md 3.6)."""
    reason = _required(reason)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise ModerationError(message=_("That user does not exist."))
        if user.is_staff or user.is_superuser or user.pk == getattr(actor, "pk", None):
            raise ModerationError(message=_("%(user)s is a staff account: a superuser must first take away "
                                            "the staff status.") % {"user": user.get_username()})
        existing = active_ban(user)
        if existing is not None:
            raise ModerationError(message=_("%(user)s is already banned %(period)s: lift that ban first.")
                                          % {"user": user.get_username(), "period": existing.period()})
        until = timezone.now() + duration if duration is not None else None
        ban = Ban.objects.create(user=user, until=until, reason=reason, created_by=actor)
        details = {"ban_id": ban.pk, "until": until.isoformat() if until else None,
                   "tables": _leave_tables(user), "sessions_ended": end_sessions(user)}
        close_member_sockets(user.pk)
        return audit.record(actor, AuditAction.BAN_USER, user, reason, details)


def lift_ban(user_id, reason, actor):
    reason = _required(reason)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise ModerationError(message=_("That user does not exist."))
        bans = list(Ban.objects.active().filter(user=user))
        if not bans:
            raise ModerationError(message=_("%(user)s is not banned.") % {"user": user.get_username()})
        Ban.objects.filter(pk__in=[b.pk for b in bans]).update(lifted_at=timezone.now(), lifted_by=actor)
        return audit.record(actor, AuditAction.LIFT_BAN, user, reason, {"ban_ids": [b.pk for b in bans]})


def _leave_tables(user):
    """Take a banned user out of every table they sit at, the way a player leaves."""
    player = Player.objects.filter(user=user).first()
    if player is None:
        return []
    left = []
    for seat in Seat.objects.filter(player=player, left_at__isnull=True).select_related("table"):
        table = seat.table
        if table.status == TableStatus.OPEN:
            stand(table.pk, player)
            left.append({"table_id": table.pk, "how": "stood_up"})
        elif table.status == TableStatus.PLAYING:
            match = Match.objects.filter(table=table, status=MatchStatus.RUNNING).first()
            if match is None:
                continue
            try:
                live.submit(match.pk, player, live.Resign())
            except live.MatchError:  # it ended meanwhile: nothing left to leave
                continue
            left.append({"table_id": table.pk, "match_id": match.pk, "how": "resigned"})
    return left


def end_sessions(user):
    """Delete every stored session the user is logged in with; returns how many.
    Sessions live in the database (Django's default engine). Whatever the
    engine, the ban-aware backends refuse the session on its next request."""
    ended = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            ended.append(session.session_key)
    Session.objects.filter(session_key__in=ended).delete()
    return len(ended)


# --- Coins ----------------------------------------------------------------------------

def adjust_wallet(wallet_id, amount, reason, actor):
    """A staff correction: a new ledger entry from the mint (positive amount) or
    back to it (negative); a balance is never edited (docs/coins.md)."""
    reason = _required(reason)
    with transaction.atomic():
        wallet = Account.objects.filter(pk=wallet_id, kind=Account.Kind.WALLET).select_related("user").first()
        if wallet is None:
            raise ModerationError(message=_("That is not a player's wallet."))
        if wallet.user is None:
            raise ModerationError(message=_("The owner of this wallet has deleted their account."))
        try:
            entry = coins.staff_adjust(wallet.user, amount, reason, actor)
        except coins.LedgerError as exc:
            raise ModerationError(message=str(exc)) from exc
        balance_after = entry.credit_balance_after if amount > 0 else entry.debit_balance_after
        details = {"user_id": wallet.user_id, "amount": amount, "entry_id": entry.pk, "balance_after": balance_after}
        return audit.record(actor, AuditAction.ADJUST_WALLET, wallet, reason, details,
                            label=_("wallet of %(user)s") % {"user": wallet.user.get_username()})


# --- Lifting a pause from rated play (conduct/) -------------------------------------------------

def lift_pause(pause_id: int, reason: str, actor):
    """End a pause in force now, forgive the walk-out that brought it, and write the audit
    entry, all in one transaction. Refuses (changing nothing) a pause that is over."""
    reason = _required(reason)
    with transaction.atomic():
        pause = Pause.objects.select_for_update(of=("self",)).select_related("player__user", "walk_out").filter(
            pk=pause_id).first()
        if pause is None:
            raise ModerationError(message=_("That pause does not exist."))
        if not pause.is_active:
            raise ModerationError(message=_("This pause is over or was lifted already."))
        now = timezone.now()
        details = {"pause_id": pause.pk, "player_id": pause.player_id, "walk_out_id": pause.walk_out_id,
                   "match_id": pause.walk_out.match_id, "kind": pause.walk_out.kind, "step": pause.walk_out.step,
                   "until": pause.ends_at.isoformat(), "lifted_at": now.isoformat()}
        pause.lifted_at, pause.lifted_by, pause.lift_reason = now, actor, reason
        pause.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        WalkOut.objects.filter(pk=pause.walk_out_id).update(forgiven=True)
        return audit.record(actor, AuditAction.LIFT_PAUSE, pause, reason, details,
                            label=_("pause of %(player)s") % {"player": pause.player.display_name_text})


# --- Tournaments (docs/tournaments.md) -----------------------------------------------------------

def tournament_saved(tournament, created: bool, changed: list, actor):
    """The audit entry of a tournament the staff created or edited in the admin (in the save's
    transaction): which fields, and their values now."""
    details = {"fields": {name: str(getattr(tournament, name)) for name in changed}, "status": tournament.status}
    action = AuditAction.CREATE_TOURNAMENT if created else AuditAction.EDIT_TOURNAMENT
    return audit.record(actor, action, tournament, "", details)


@contextmanager
def _tournament_refusals():
    """A tournament's refusal, told to the staff member as a refused staff action."""
    try:
        yield
    except tournaments.TournamentError as refusal:
        raise ModerationError(message=refusal.message) from None


def cancel_tournament(tournament_id: int, reason: str, actor):
    """Call a tournament off (tournaments.services.cancel) and write the audit entry, together."""
    reason = _required(reason)
    with transaction.atomic(), _tournament_refusals():
        tournament = tournaments.cancel(tournament_id)
        return audit.record(actor, AuditAction.CANCEL_TOURNAMENT, tournament, reason,
                            {"tournament_id": tournament.pk, "players": tournament.participants.count()})


def remove_from_tournament(participant_id: int, reason: str, actor):
    """Take a player out of a tournament (their scores stay) and write the audit entry, together."""
    reason = _required(reason)
    with transaction.atomic(), _tournament_refusals():
        participant = tournaments.remove(participant_id)
        return audit.record(actor, AuditAction.REMOVE_FROM_TOURNAMENT, participant, reason,
                            {"tournament_id": participant.tournament_id, "player_id": participant.player_id,
                             "score": participant.score, "played": participant.played},
                            label=_("%(player)s in the tournament %(tournament)s") % {
                                "player": participant.player.display_name_text,
                                "tournament": participant.tournament.name})
