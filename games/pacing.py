"""How a version's cards are laid on the match page, and the time that takes.

The server makes the bots' moves at once, so one version may hold several cards: the
mover's, then the bots' up to the next person to act. A page lays them one by one at a
person's pace (`BOT_PACE_SECONDS` apart), holds a finished trick on the table with its
taker marked and then sends it to them, and only then shows the new position, with its
cue and its buttons. This module is the one home of that schedule:

- `laying(entries, seat_count, trick_after, pace_ms)` makes it from the version's log
  entries (games/services/match_log.py): which seat laid a card when, and when a trick was
  taken. It names no card at all: the page takes each card from the seat's place in the
  new position it was sent (the trick, or the trick just taken), which the seat's view
  decides (games/services/presenter.py). It travels with the version's notice, and every
  page follows it as it is (static/js/match.js);
- `laying_ms(schedule)` is how long it takes: the move clock of the seat to act starts
  that much later (games/services/matches.py, `_store`), so the time a page spends laying
  cards is not taken from the player who is to act next, and the clock the page shows
  when its cue appears is the table's whole move time.

With no pace (`BOT_PACE_SECONDS = 0`: the browser tests, and programs never wait) there
is no schedule: every position is shown at once.
"""

TRICK_HOLD_MS = 1200  # a finished trick stays on the table at least this long, its taker marked
TRICK_LEAVE_MS = 450  # then it slides to its taker


def laying(entries: list[dict], seat_count: int, trick_after: int, pace_ms: int) -> list[dict]:
    """The steps a page takes to show a version, each at `at` ms after the version arrives:
    `{"seat", "in"}` lays the card that seat played (`in`: "taken" when its trick is finished
    in this version, else "trick"), `{"taken": True}` shows the trick just finished with its
    taker, `{"leaves": True}` sends it to them, and the last, `{"end": True}`, swaps in the new
    position. `trick_after`: the cards on the table once the version is made (a trick is
    finished by the card that makes it `seat_count` long). Empty without a pace or a card."""
    plays = [action for entry in entries for action in entry.get("actions", ()) if "play" in action]
    if pace_ms <= 0 or not plays:
        return []
    # Where the first card of the version fell in its trick: the cards played in finished
    # tricks are those not on the table now.
    on_table_before = (seat_count - (len(plays) - trick_after) % seat_count) % seat_count
    finished = len(plays) - trick_after  # the first cards, whose trick is taken in this version
    steps, at = [], 0
    for index, action in enumerate(plays):
        if index and steps[-1].get("leaves"):
            at += TRICK_LEAVE_MS
        elif index:
            at += pace_ms
        steps.append({"at": at, "seat": action["seat"], "in": "taken" if index < finished else "trick"})
        if (on_table_before + index + 1) % seat_count == 0:
            steps.append({"at": at, "taken": True})
            at += max(TRICK_HOLD_MS, pace_ms)
            steps.append({"at": at, "leaves": True})
    if steps[-1].get("leaves"):
        at += TRICK_LEAVE_MS
    steps.append({"at": at, "end": True})
    return steps


def laying_ms(schedule: list[dict]) -> int:
    """How long a page takes to lay a version's cards (0 without a schedule)."""
    return schedule[-1]["at"] if schedule else 0
