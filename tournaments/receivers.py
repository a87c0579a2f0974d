"""What tournaments hears from the games app (games/events.py), connected in TournamentsConfig.ready()."""

from games import events

from . import services, swiss_services


def on_match_finished(sender, event: events.MatchFinished, match, state, **kwargs) -> None:
    """A tournament match is scored once, in its finishing transaction (a Swiss's by its rules,
    an arena's by the arena's); its players are paired after the commit."""
    if swiss_services.match_finished(event.table_id, event.reason, match, state) is None:
        services.match_finished(event.table_id, event.reason, match, state)


def on_player_left(sender, event: events.PlayerLeft, **kwargs) -> None:
    """Losing a tournament match by absence pauses the player (no seat for someone who is not there)."""
    if event.reason == "forfeit":
        services.player_forfeited(event.table_id, event.player_id)


def on_seat_berserked(sender, event: events.SeatBerserked, **kwargs) -> None:
    """A player halved their bank at an arena table: the standings show it."""
    services.seat_berserked(event.table_id)


def connect() -> None:
    events.match_finished.connect(on_match_finished, dispatch_uid="tournaments.on_match_finished")
    events.player_left.connect(on_player_left, dispatch_uid="tournaments.on_player_left")
    events.seat_berserked.connect(on_seat_berserked, dispatch_uid="tournaments.on_seat_berserked")
