"""Hints and deal reviews at a casual table (docs/bot.md, "Advice"; the frames: docs/protocol.md).

A hint is the advice level's move for the seat to act and one short reason
(games/engine/advice.py), decided from that seat's view alone. A review is a finished
classic deal replayed for one seat from the match's record (games/engine/review.py):
every card of a classic deal is played, so its hands are public once it is over.

Both are asked for, never pushed; both read the match and change nothing. They are
refused at a rated table, to someone without a seat, a hint when it is not the seat's
move. What was worked out is kept in the cache (a hint per match, version and seat; a
review per match, deal and seat): asking again costs nothing, and a redraw of the table
shows it again (`shown_hint`, `shown_review`). A hint is the asking player's own: the
others' pages never show it.
"""

from dataclasses import asdict

from django.core.cache import cache
from django.utils.translation import gettext as _

from joker_site.refusals import Refusal

from ..bot_thinker import advice_for, think
from ..engine.review import review_deal
from ..models import Match, MatchStatus
from .matches import held_seat, load_state

HINT_SECONDS = 10 * 60  # how long a worked-out hint is kept: a position rarely waits longer
REVIEW_SECONDS = 2 * 60 * 60


def _hint_key(match_id, version, seat) -> str:
    return f"hint:{match_id}:{version}:{seat}"


def _review_key(match_id, deal, seat) -> str:
    return f"review:{match_id}:{deal}:{seat}"


def _reason(reason):
    return None if reason is None else reason.to_dict()


def _match_and_seat(match_id, player):
    """The match and the seat `player` holds there, or the refusal of advice at this table."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None:
        raise Refusal("no_such_match", _("There is no such match."))
    if match.table.rated:
        raise Refusal("advice_rated", _("Hints and reviews are for casual tables: a rated match is played alone."))
    seat = held_seat(match.table.seats.all(), player)
    if seat is None:
        raise Refusal("advice_not_seated", _("Only a player at this table may ask for a hint or a review."))
    return match, seat


def hint(match_id, player) -> dict:
    """The hint for `player`'s seat at the match's current position (worked out once per version):
    {"version", "action" (as the record writes it), "situation", "reason"}. Refused at a rated
    table, without a seat, after the match, and when it is not the seat's move."""
    match, seat = _match_and_seat(match_id, player)
    if match.status != MatchStatus.RUNNING:
        raise Refusal("game_over", _("This match is over."), {"version": match.version})
    key = _hint_key(match.pk, match.version, seat)
    kept = cache.get(key)
    if kept is not None:
        return kept
    state = load_state(match)
    if state.to_act != seat:
        raise Refusal("not_your_turn", _("A hint is for your own move: wait for your turn."),
                      {"version": match.version})
    advice = advice_for(state.view(seat))
    worked_out = {**advice, "version": match.version, "action": _without_seat(advice["action"])}
    cache.set(key, worked_out, HINT_SECONDS)
    return worked_out


def shown_hint(match_id, version, seat) -> dict | None:
    """The hint this seat asked for at this version, if it did (what a redraw shows again)."""
    if seat is None:
        return None
    return cache.get(_hint_key(match_id, version, seat))


def review(match_id, player, deal) -> dict:
    """The review of finished deal `deal` (0-based) for `player`'s seat (worked out once):
    {"deal", "seat", "bids", "tricks", "made", "decisions", "differed", "moment"}. Refused at a rated table, without
    a seat, in Japanese (its face-down cards stay hidden), for a deal not finished."""
    match, seat = _match_and_seat(match_id, player)
    if match.table.variant != "classic":
        raise Refusal("review_classic_only",
                      _("Only a classic deal is reviewed: in Japanese Joker some cards stay face down."))
    if type(deal) is not int or deal < 0 or deal >= _finished_deals(match):
        raise Refusal("no_such_deal", _("That deal is not over yet."))
    key = _review_key(match.pk, deal, seat)
    kept = cache.get(key)
    if kept is not None:
        return kept
    worked_out = review_kept(think(review_deal, match.record, deal, seat))
    cache.set(key, worked_out, REVIEW_SECONDS)
    return worked_out


def shown_review(match_id, deal, seat) -> dict | None:
    if seat is None:
        return None
    return cache.get(_review_key(match_id, deal, seat))


def _finished_deals(match) -> int:
    return len(load_state(match).score_sheet()["deals"])


def review_kept(result) -> dict:
    """A review (games/engine/review.py's DealReview) as it is kept and sent: plain JSON."""
    return {"deal": result.deal, "seat": result.seat, "bids": result.bids, "tricks": result.tricks,
            "made": result.made, "decisions": result.decisions, "differed": result.differed,
            "moment": _moment(result.moment)}


def _moment(moment) -> dict | None:
    if moment is None:
        return None
    shown = asdict(moment)
    for name in ("played", "advised"):
        shown[name] = _without_seat(getattr(moment, name).to_record())
    for name in ("situation", "reason", "fate"):
        shown[name] = _reason(getattr(moment, name))
    return shown


def _without_seat(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "seat"}
