"""The price of walking out of a rated match (docs/conduct.md).

- `walked_out` is called from the one place a player leaves a running match
  (games/services/matches.py `_player_gone`), inside that transaction and
  under the match row's lock. In a rated match it records the walk-out once and
  climbs the ladder: a warning first, then a pause from rated play and quick
  play. A disconnect that came back within the grace time never gets there.
- `refuse_if_paused` is what rated tables (games/services/tables.py) and quick
  play ask before letting someone in: it raises `Paused`, a `Refusal` whose
  message and params carry the pause's end.
- `reliability` is the profile's figure: of the player's last 50 rated matches
  (ratings' RatingChange rows: one per rated match and player), how many they
  finished.
- `lift_pause` is the staff action (moderation's admin): it ends a pause,
  forgives the walk-out that brought it and writes the audit entry, in one
  transaction.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from accounts.models import Player
from games.models import Seat
from joker_site.refusals import Refusal
from ratings.models import RatingChange
from ratings.services import is_rated

from .models import Pause, WalkOut, WalkOutKind

# Step n of the ladder is the n-th walk-out counted in the window: the first is a warning
# (no pause), then 10 minutes, an hour, and a day for the fourth and every one after it.
LADDER = (None, timedelta(minutes=10), timedelta(hours=1), timedelta(days=1))
# Walk-outs older than this are forgotten by the ladder (the reliability figure keeps them).
WINDOW = timedelta(days=7)
# The reliability figure looks at this many of the player's latest rated matches.
RELIABILITY_MATCHES = 50


class Paused(Refusal):
    """A paused player asked for a rated table or quick play. `params["until"]` is the
    pause's end (ISO 8601, UTC offset included); the message says it in the reader's
    language and the site's time zone, worded when read."""

    code = "paused"

    def __init__(self, until, walk_outs: int):
        super().__init__(params={"until": until.isoformat(), "walk_outs": walk_outs})
        self.until = until
        self.walk_outs = walk_outs

    @property
    def message(self) -> str:
        return paused_sentence(self.until)


def paused_sentence(until) -> str:
    # The time last, in 24-hour digits, as a ban is told (moderation/bans.py).
    until = timezone.localtime(until)
    return gettext("You walked out of rated matches too often, so rated play and quick play are paused for you "
                   "until %(date)s, %(time)s. Casual tables are open to you.") % {
        "date": date_format(until, "DATE_FORMAT"), "time": date_format(until, "H:i")}


# --- A walk-out ----------------------------------------------------------------------------------

def kind_of(reason: str, seat) -> str | None:
    """How the player left: `reason` is `_player_gone`'s ("resign" or "forfeit"). A resignation
    (Japanese "Resign", classic "Leave the table") is no walk-out: the player ended their part
    openly and the match went on or ended at once. A forfeit after the clock moved for the seat
    TIMEOUTS_BEFORE_GONE times running is the clock's, any other forfeit is a disconnect whose
    grace time ran out."""
    from games.services.matches import TIMEOUTS_BEFORE_GONE

    if reason == "forfeit":
        return WalkOutKind.TIMEOUTS if seat.timeouts_in_row >= TIMEOUTS_BEFORE_GONE else WalkOutKind.DISCONNECTED
    return None


def walked_out(match, seat, reason: str, now=None) -> WalkOut | None:
    """Record that the player of `seat` walked out of the running `match` (the caller holds
    the match's lock, inside its transaction). Only rated matches count, only once per
    player and match, and a resignation never (a ban resigns the member's matches: not
    counted either). Returns the new walk-out, or None when nothing was counted."""
    kind = kind_of(reason, seat)
    if kind is None or seat.player_id is None:
        return None
    seats = list(Seat.objects.filter(table_id=match.table_id).select_related("player"))
    if not is_rated(match.table, seats):
        return None
    # The player's row serialises their walk-outs from two matches at once: each counts the other.
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=seat.player_id)
    if WalkOut.objects.filter(player=player, match_id=match.pk).exists():
        return None
    now = now or timezone.now()
    step = min(_counted_since(player, now - WINDOW) + 1, len(LADDER))
    walk_out = WalkOut.objects.create(player=player, match_id=match.pk, kind=kind, step=step, created_at=now)
    duration = LADDER[step - 1]
    if duration is not None:
        # A pause already in force is served first: the new one adds its time after it.
        current = active_pause(player, now)
        start_from = max(now, current.ends_at) if current else now
        Pause.objects.create(player=player, walk_out=walk_out, starts_at=now, ends_at=start_from + duration)
    return walk_out


def _counted(player):
    """The player's walk-outs that count: not forgiven by staff, and not a resignation (rows of
    kind `resigned` were written before resigning stopped being a walk-out)."""
    return WalkOut.objects.filter(player=player, forgiven=False).exclude(kind=WalkOutKind.RESIGNED)


def _counted_since(player, since) -> int:
    return _counted(player).filter(created_at__gt=since).count()


# --- Pauses --------------------------------------------------------------------------------------

def active_pause(player, now=None) -> Pause | None:
    """The pause in force for `player` that ends last, or None (guests are never paused)."""
    if player is None or player.pk is None or player.is_guest:
        return None
    return Pause.objects.active(now).filter(player=player).order_by("-ends_at").first()


def pause_refusal(player, now=None) -> Paused | None:
    """accounts/access.py's RATED_PLAY check: `Paused` when `player` may not play rated or quick play now."""
    try:
        refuse_if_paused(player, now)
    except Paused as paused:
        return paused
    return None


def refuse_if_paused(player, now=None) -> None:
    """Raise `Paused` when `player` may not play rated or quick play now."""
    pause = active_pause(player, now)
    if pause is not None:
        raise Paused(pause.ends_at, _counted_since(player, (now or timezone.now()) - WINDOW))


@dataclass(frozen=True)
class Standing:
    """Where a player stands on the ladder now: what the pages tell them."""

    pause: Pause | None
    walk_outs: int  # counted in the window
    next_step: int  # the step their next walk-out would reach

    @property
    def next_pause(self) -> timedelta | None:
        return LADDER[self.next_step - 1]

    @property
    def next_pause_words(self) -> str:
        return duration_words(self.next_pause)

    @property
    def pause_sentence(self) -> str:
        return paused_sentence(self.pause.ends_at) if self.pause else ""


def standing(player, now=None) -> Standing:
    now = now or timezone.now()
    if player is None or player.pk is None or player.is_guest:
        return Standing(None, 0, 1)
    counted = _counted_since(player, now - WINDOW)
    return Standing(active_pause(player, now), counted, min(counted + 1, len(LADDER)))


def duration_words(duration: timedelta | None) -> str:
    if duration is None:
        return gettext("a warning")
    minutes = int(duration.total_seconds() // 60)
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


# --- The reliability figure ----------------------------------------------------------------------

@dataclass(frozen=True)
class Reliability:
    matches: int  # rated matches looked at (at most RELIABILITY_MATCHES)
    walked_out: int

    @property
    def finished(self) -> int:
        return self.matches - self.walked_out

    @property
    def percent(self) -> int | None:
        """Rounded down: one walk-out never shows as 100%."""
        return 100 * self.finished // self.matches if self.matches else None


def reliability(player) -> Reliability:
    """Of the player's latest RELIABILITY_MATCHES finished rated matches, how many they walked
    out of (forgiven walk-outs aside). Two queries, whatever the player's history."""
    if player is None or player.pk is None:
        return Reliability(0, 0)
    latest = list(RatingChange.objects.filter(player=player).order_by("-created_at", "-id")
                  .values_list("match_id", flat=True)[:RELIABILITY_MATCHES])
    walked = _counted(player).filter(match_id__in=latest).count() if latest else 0
    return Reliability(len(latest), walked)
