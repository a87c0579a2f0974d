"""Tournaments in the staff's admin (moderation/admin/tournaments.py): creating and editing are
audited; cancelling and removing a player are audited staff actions with a reason, refused
(changing nothing) without one or when they no longer apply; a removed player keeps the
scores and cannot join again; a cancelled arena pairs nobody."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from moderation.models import AuditAction, AuditEntry
from tests.factories import make_player
from tests.moderation_support import client_for, confirm, make_moderator
from tournaments import services
from tournaments.models import Participant, ParticipantStatus, Status, Tournament
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db


def tournament_staff():
    staff = make_moderator("organiser")
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="tournaments"))
    return client_for(staff), staff


def test_staff_create_and_edit_a_tournament_in_the_admin_and_each_save_is_audited():
    client, staff = tournament_staff()
    form = {"name": "Friday arena", "kind": "arena", "rounds": 0, "variant": "japanese", "starts_at_0": "2026-12-11",
            "starts_at_1": "20:00:00", "minutes": 60, "clock_seconds": 30, "bank_seconds": 150, "game_type": "standard",
            "target": 21, "rated": "on",
            "entry_fee": 0}
    assert client.post("/admin/tournaments/tournament/add/", form).status_code == 302
    tournament = Tournament.objects.get(name="Friday arena")
    assert tournament.status == Status.UPCOMING and tournament.minutes == 60 and tournament.bank_seconds == 150
    client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", {**form, "minutes": 90})
    tournament.refresh_from_db()
    assert tournament.minutes == 90
    created, edited = AuditEntry.objects.order_by("pk")
    assert (created.action, created.actor, created.target_id) == (AuditAction.CREATE_TOURNAMENT, staff,
                                                                   str(tournament.pk))
    assert edited.action == AuditAction.EDIT_TOURNAMENT and edited.details["fields"] == {"minutes": "90"}


def test_staff_create_a_swiss_audited_and_a_swiss_without_rounds_or_with_bots_is_refused_saying_why():
    client, staff = tournament_staff()
    form = {"name": "Cup", "kind": "swiss", "variant": "classic", "starts_at_0": "2026-12-12",
            "starts_at_1": "19:00:00", "minutes": 60, "rounds": 0, "clock_seconds": 30, "bank_seconds": 60, "game_type": "standard",
            "target": 21, "entry_fee": 25}
    refused = client.post("/admin/tournaments/tournament/add/", form)
    assert refused.status_code == 200 and "A Swiss has from 1 to 15 rounds." in refused.content.decode()
    with_bots = client.post("/admin/tournaments/tournament/add/", {**form, "rounds": 4, "fill_with_bots": "on"})
    assert "A Swiss is played without bots." in with_bots.content.decode()
    assert not Tournament.objects.exists() and not AuditEntry.objects.exists()
    assert client.post("/admin/tournaments/tournament/add/", {**form, "rounds": 4}).status_code == 302
    cup = Tournament.objects.get(name="Cup")
    assert (cup.kind, cup.rounds, cup.current_round, cup.status) == ("swiss", 4, 0, Status.UPCOMING)
    (created,) = AuditEntry.objects.all()
    assert (created.action, created.actor) == (AuditAction.CREATE_TOURNAMENT, staff)
    assert created.details["fields"]["kind"] == "swiss"


def test_staff_cancel_an_arena_with_a_reason_and_it_pairs_nobody_after():
    client, staff = tournament_staff()
    tournament = Tournament.objects.create(name="Arena", variant="japanese", rated=False, status=Status.RUNNING,
                                           starts_at=timezone.now() - timedelta(minutes=1))
    tamar, levan = make_player("tamar"), make_player("levan")
    services.join(tamar, tournament)
    confirm(client, "tournaments", "tournament", "cancel_tournament", [tournament.pk], reason="  ")
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING and not AuditEntry.objects.exists()
    answer = confirm(client, "tournaments", "tournament", "cancel_tournament", [tournament.pk],
                     reason="the server moves tonight")
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Status.CANCELLED
    (entry,) = AuditEntry.objects.all()
    assert (entry.action, entry.actor, entry.reason) == (AuditAction.CANCEL_TOURNAMENT, staff,
                                                         "the server moves tonight")
    with pytest.raises(TournamentError):
        services.join(levan, tournament)
    assert services.pair_arena(tournament.pk) == []
    confirm(client, "tournaments", "tournament", "cancel_tournament", [tournament.pk], reason="again")
    assert AuditEntry.objects.count() == 1  # refused: it is cancelled already


def test_staff_cancel_a_running_swiss_in_the_admin_audited_its_fees_come_back_and_no_round_follows(
        django_capture_on_commit_callbacks):
    from coins import services as coins
    from games import live
    from games.models import Match
    from tournaments import swiss_services
    from tournaments.models import ArenaGame, Kind

    client, staff = tournament_staff()
    swiss = Tournament.objects.create(name="Cup", kind=Kind.SWISS, rounds=3, variant="japanese", rated=False,
                                      entry_fee=25, starts_at=timezone.now())
    tamar, levan = make_player("tamar"), make_player("levan")
    for player in (tamar, levan):
        services.join(player, swiss)
    swiss_services.tick()
    answer = confirm(client, "tournaments", "tournament", "cancel_tournament", [swiss.pk], reason="a storm")
    assert answer.status_code == 302
    swiss.refresh_from_db()
    assert swiss.status == Status.CANCELLED
    (entry,) = AuditEntry.objects.all()
    assert (entry.action, entry.actor, entry.reason) == (AuditAction.CANCEL_TOURNAMENT, staff, "a storm")
    assert coins.balance_of(tamar.user) == coins.balance_of(levan.user) == 1000
    game = ArenaGame.objects.get(tournament=swiss)
    with django_capture_on_commit_callbacks(execute=True):  # the match being played is played out
        live.submit(Match.objects.get(table_id=game.table_id).pk, levan, live.Resign())
    swiss_services.tick()
    assert ArenaGame.objects.filter(tournament=swiss).count() == 1 and swiss.participants.filter(score__gt=0).count() == 0


def test_staff_remove_a_player_the_scores_stay_and_the_player_cannot_come_back():
    client, _staff = tournament_staff()
    tournament = Tournament.objects.create(name="Arena", variant="japanese", rated=False, status=Status.RUNNING,
                                           starts_at=timezone.now() - timedelta(minutes=1))
    cheat = make_player("cheat")
    services.join(cheat, tournament)
    Participant.objects.filter(player=cheat).update(score=12, played=5)
    participant = Participant.objects.get(player=cheat)
    answer = confirm(client, "tournaments", "participant", "remove_from_tournament", [participant.pk],
                     reason="played with a second account")
    assert answer.status_code == 302
    participant.refresh_from_db()
    assert participant.status == ParticipantStatus.REMOVED and participant.score == 12
    (entry,) = AuditEntry.objects.all()
    assert entry.action == AuditAction.REMOVE_FROM_TOURNAMENT and entry.details["score"] == 12
    with pytest.raises(TournamentError) as refused:
        services.join(cheat, tournament)
    assert refused.value.code == "removed"


def test_a_moderator_without_the_tournament_permissions_cannot_cancel():
    moderator = make_moderator("moderator")
    tournament = Tournament.objects.create(name="Arena", variant="japanese", starts_at=timezone.now())
    response = confirm(client_for(moderator), "tournaments", "tournament", "cancel_tournament", [tournament.pk],
                       reason="why not")
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == Status.UPCOMING and not AuditEntry.objects.exists()
