"""What a Swiss's page shows (tournaments/templates/tournaments/swiss.html): the round being
played, every round's pairings (each match to watch, or its replay once over), who sat out,
and the standings with the tie-breaks. The live part is fetched again on every change
(the arena's socket: tournaments/consumers.py)."""

from . import services, swiss, swiss_services
from .models import ParticipantStatus, Status, Tournament


def swiss_context(tournament: Tournament, player) -> dict:
    table = services.standings(tournament)
    mine = next((p for p in table if player is not None and p.player_id == player.pk), None)
    rounds = swiss_services.rounds_of(tournament)
    return {
        "tournament": tournament,
        "standings": table,
        "mine": mine,
        "rounds": rounds,
        "round_now": rounds[0] if rounds and tournament.status == Status.RUNNING else None,
        "earlier_rounds": rounds[1:] if tournament.status == Status.RUNNING else rounds,
        "podium": table[:3] if tournament.status == Status.FINISHED else [],
        "bye_points": swiss.bye_points(tournament.variant),
        "late_join_rounds": tournament.rounds // 2,
        "joined": mine is not None and mine.status == ParticipantStatus.ACTIVE,
        "paused": mine is not None and mine.status == ParticipantStatus.PAUSED,
        "removed": mine is not None and mine.status == ParticipantStatus.REMOVED,
        "may_join_late": tournament.status == Status.UPCOMING or (
            tournament.status == Status.RUNNING and swiss.late_join_open(tournament.current_round, tournament.rounds)),
    }
