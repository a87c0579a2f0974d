"""What ratings hears from the games app (games/events.py), connected in RatingsConfig.ready()."""

from games import events

from .services import record_finished_match


def on_match_finished(sender, event: events.MatchFinished, match, state, **kwargs) -> None:
    """Figures and, when rated, ratings: once per match, in the finishing transaction."""
    record_finished_match(match, state)


def connect() -> None:
    from games.services import shown_ratings

    from .services import cached_shown_ratings
    from .services import shown_ratings as fresh_shown_ratings

    events.match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
    shown_ratings.read_with(fresh=fresh_shown_ratings, cached=cached_shown_ratings)  # beside names at tables
