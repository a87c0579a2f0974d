"""Who may play now: the one place the tables, the sockets and quick play ask.

The apps that can take play away from a member register a check here from their
`AppConfig.ready()`, so that the lower apps (accounts, games) ask without knowing
them (docs/architecture.md): moderation's bans refuse every seat and every socket,
conduct's pauses refuse rated play and quick play, moderation's mutes refuse
the table chat. A check returns a `Refusal` (worded in the active language) or
None; a PLAY check takes a member's user (what a ban is on; guests have no account
to ban), a RATED_PLAY or CHAT check the `Player`. A PLAY check may come with a
check of many at once (`many`), for a whole queue in one query.

- `play_refusal(player)`: why this player may not play at all, or None;
- `member_play_refusal(user)`: the same for an account (an access token's owner);
- `rated_play_refusal(player)`: why they may not sit at a rated table or use quick
  play (which is rated), or None; every reason to refuse play refuses rated play too;
- `members_refused_play(user_ids)`: which of these accounts may not play now;
- `chat_refusal(player)`: why they may not write in a table chat now, or None.

A chat can also belong to a place other than a table (a tournament's chat, docs/chat.md):
the app that owns the place registers who may write there (`register_chat_place`), and the
chat asks `chat_place_refusal` (chat and that app sit on one level and do not know each other).
"""

from collections.abc import Callable

from joker_site.refusals import Refusal

PLAY = "play"
RATED_PLAY = "rated_play"
CHAT = "chat"

Check = Callable[[object], Refusal | None]
_checks: dict[str, list[Check]] = {PLAY: [], RATED_PLAY: [], CHAT: []}
_many_checks: list[Callable] = []  # PLAY checks of many accounts: user ids -> the refused ones


def register(kind: str, check: Check, *, many: Callable | None = None) -> None:
    """Ask `check` before everything of that kind (PLAY, RATED_PLAY or CHAT); `many(user_ids)`
    answers a PLAY check for many accounts at once. Registering the same check twice (a test
    that calls `ready()` again) keeps one."""
    if check not in _checks[kind]:
        _checks[kind].append(check)
    if many is not None and many not in _many_checks:
        _many_checks.append(many)


def members_refused_play(user_ids) -> set:
    """The ids among `user_ids` of the accounts that may not play now (one query per check)."""
    user_ids = [user_id for user_id in user_ids if user_id is not None]
    refused = set()
    for many in _many_checks:
        refused |= set(many(user_ids)) if user_ids else set()
    return refused


def chat_refusal(player) -> Refusal | None:
    if player is None:
        return None
    return _first_refusal(CHAT, player)


def play_refusal(player) -> Refusal | None:
    if player is None or player.user_id is None:
        return None
    return member_play_refusal(player.user)


def member_play_refusal(user) -> Refusal | None:
    return _first_refusal(PLAY, user)


def rated_play_refusal(player) -> Refusal | None:
    if player is None:
        return None
    return play_refusal(player) or _first_refusal(RATED_PLAY, player)


def _first_refusal(kind: str, who) -> Refusal | None:
    for check in _checks[kind]:
        refusal = check(who)
        if refusal is not None:
            return refusal
    return None


PlaceCheck = Callable[[int, object], Refusal | None]
_chat_places: dict[str, PlaceCheck] = {}


def register_chat_place(kind: str, may_write: PlaceCheck) -> None:
    """Chats of places of `kind` (e.g. "tournament"): `may_write(place id, player)` returns why
    that player may not write there (a Refusal: also when there is no such place), or None."""
    _chat_places[kind] = may_write


def chat_place_kinds() -> set[str]:
    return set(_chat_places)


def chat_place_refusal(kind: str, place_id: int, player) -> Refusal | None:
    """Why `player` may not write in the chat of that place now (the place's own rule), or None."""
    return _chat_places[kind](place_id, player)
