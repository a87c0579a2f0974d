"""Who may play now: the one place the tables, the sockets and quick play ask.

The apps that can take play away from a member register a check here from their
`AppConfig.ready()`, so that the lower apps (accounts, games) ask without knowing
them (docs/architecture.md): moderation's bans refuse every seat and every socket,
conduct's pauses refuse rated play and quick play. A check returns a `Refusal`
(worded in the active language) or None; a PLAY check takes a member's user (what a
ban is on; guests have no account to ban), a RATED_PLAY check the `Player`.

- `play_refusal(player)`: why this player may not play at all, or None;
- `member_play_refusal(user)`: the same for an account (an access token's owner);
- `rated_play_refusal(player)`: why they may not sit at a rated table or use quick
  play (which is rated), or None; every reason to refuse play refuses rated play too.
"""

from collections.abc import Callable

from joker_site.refusals import Refusal

PLAY = "play"
RATED_PLAY = "rated_play"

Check = Callable[[object], Refusal | None]
_checks: dict[str, list[Check]] = {PLAY: [], RATED_PLAY: []}


def register(kind: str, check: Check) -> None:
    """Ask `check` before every seat of that kind (PLAY or RATED_PLAY). Registering the same
    check twice (a test that calls `ready()` again) keeps one."""
    if check not in _checks[kind]:
        _checks[kind].append(check)


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
