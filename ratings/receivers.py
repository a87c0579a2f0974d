"""What ratings hears from the games app (games/events.py), connected in RatingsConfig.ready()."""

from games import events

from .services import record_finished_match


def on_match_finished(sender, event: events.MatchFinished, match, state, **kwargs) -> None:
    """Figures and, when rated, ratings: once per match, in the finishing transaction."""
    record_finished_match(match, state)


def connect() -> None:
    events.match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
