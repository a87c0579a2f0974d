"""What conduct hears from the games app (games/events.py), connected in ConductConfig.ready()."""

from games import events

from .services import walked_out


def on_player_left(sender, event: events.PlayerLeft, match, seat, **kwargs) -> None:
    """A rated walk-out is counted once, in the leaving transaction, under the match's lock."""
    walked_out(match, seat, event.reason)


def connect() -> None:
    events.player_left.connect(on_player_left, dispatch_uid="conduct.on_player_left")
