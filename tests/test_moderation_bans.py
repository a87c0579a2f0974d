"""Bans through the admin: for a time and for good. A banned user cannot log
in or sit down, their sessions end, and their running matches count as left."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.tokens import create_token
from games.models import MatchStatus, Seat, Table
from games.services import tables as table_service
from games.services.tables import TableError, TableSettings
from moderation.models import AuditAction, Ban
from tests.factories import PASSWORD, make_player
from tests.moderation_support import (
    audit_entries,
    balance,
    client_for,
    confirm,
    make_moderator,
    moderator_client,
    running_match,
    seated_table,
)

pytestmark = pytest.mark.django_db


def _log_in(username, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(f"/{language}/accounts/login/", {"login": username, "password": PASSWORD})
    return client, response


def _sessions_of(user):
    return [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user.pk)]


def test_a_ban_for_a_day_ends_sessions_resigns_running_matches_and_stands_up_from_waiting_tables():
    match, (tamar, levan) = running_match(("tamar", "levan"), stake=50)
    waiting, _creator = seated_table(["nino"], variant="classic", stake=25)
    table_service.sit(waiting.pk, levan)
    assert balance(levan) == 1000 - 50 - 25
    levan_browser = client_for(levan.user)
    assert levan_browser.get("/en/accounts/profile/").status_code == 200
    assert _sessions_of(levan.user)
    client, moderator = moderator_client()

    response = confirm(client, "auth", "user", "ban_user", [levan.user_id], duration="1d",
                       reason="Insulted players at three tables.")

    assert response.status_code == 302
    ban = Ban.objects.get(user=levan.user)
    assert ban.created_by == moderator and ban.reason == "Insulted players at three tables."
    assert timedelta(hours=23, minutes=59) < ban.until - timezone.now() <= timedelta(days=1)
    # The running Japanese match is lost by resignation: the opponent wins the pot.
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.end_reason == "resign"
    assert match.winners == [Seat.objects.get(table=match.table, player=tamar).index]
    assert balance(tamar) == 1050
    # The waiting table: the seat is given up and the stake comes back.
    assert not Seat.objects.filter(table=waiting, player=levan).exists()
    assert balance(levan) == 950
    # Logged out everywhere.
    assert _sessions_of(levan.user) == []
    assert levan_browser.get("/en/accounts/profile/").status_code == 302
    [entry] = audit_entries(AuditAction.BAN_USER)
    assert entry.actor == moderator and entry.target_id == str(levan.user_id)
    assert entry.details["sessions_ended"] == 1
    assert {(t["table_id"], t["how"]) for t in entry.details["tables"]} == {
        (match.table_id, "resigned"), (waiting.pk, "stood_up")}
    assert "Insulted players at three tables." in client.get(
        f"/admin/auth/user/{levan.user_id}/change/").content.decode()


def test_a_banned_user_cannot_log_in_and_is_told_until_when():
    nino = make_player("nino")
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="7d", reason="Cheating.")

    browser, response = _log_in("nino")
    assert response.status_code == 403
    html = response.content.decode()
    assert "The site staff have banned your account until" in html
    assert "Cheating." not in html  # the staff's reason stays in the audit log
    assert "_auth_user_id" not in browser.session
    assert browser.get("/en/accounts/profile/").status_code == 302


def test_the_ban_page_speaks_the_visitors_language():
    nino = make_player("nino")
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="forever", reason="x")
    _browser, response = _log_in("nino", language="ka")
    assert "საიტის ადმინისტრაციამ თქვენი ანგარიში სამუდამოდ დაბლოკა." in response.content.decode()
    _browser, response = _log_in("nino", language="ru")
    assert "Администрация сайта заблокировала вашу учётную запись навсегда." in response.content.decode()


def test_a_banned_user_cannot_sit_down_or_open_a_table():
    nino = make_player("nino")
    table, _players = seated_table(["tamar"], stake=0)
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="1h", reason="Spam.")

    with pytest.raises(TableError) as refused:
        table_service.sit(table.pk, nino)
    assert refused.value.code == "banned" and "banned your account until" in refused.value.message
    with pytest.raises(TableError) as refused:
        table_service.create_table(nino, TableSettings(variant="japanese"))
    assert refused.value.code == "banned"
    assert table.seats.count() == 1 and Table.objects.count() == 1


def test_a_banned_users_access_token_stops_working():
    nino = make_player("nino")
    _token, raw = create_token(nino.user, "bot")
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="1d", reason="Bot abuse.")
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401


def test_a_ban_for_a_time_ends_by_itself():
    nino = make_player("nino")
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="1h", reason="Cool down.")
    assert _log_in("nino")[1].status_code == 403
    Ban.objects.filter(user=nino.user).update(until=timezone.now() - timedelta(seconds=1))
    browser, response = _log_in("nino")
    assert response.status_code == 302 and browser.session["_auth_user_id"] == str(nino.user_id)
    table_service.create_table(nino, TableSettings(variant="japanese"))


def test_a_ban_for_good_has_no_end_and_lifting_it_lets_the_user_back():
    nino = make_player("nino")
    client, moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="forever", reason="Repeated cheating.")
    ban = Ban.objects.get(user=nino.user)
    assert ban.until is None and ban.is_active
    assert "banned your account for good" in _log_in("nino")[1].content.decode()

    response = confirm(client, "auth", "user", "lift_ban", [nino.user_id], reason="Appeal accepted.")
    assert response.status_code == 302
    ban.refresh_from_db()
    assert ban.lifted_at is not None and ban.lifted_by == moderator and not ban.is_active
    assert _log_in("nino")[1].status_code == 302
    [entry] = audit_entries(AuditAction.LIFT_BAN)
    assert entry.reason == "Appeal accepted." and entry.details == {"ban_ids": [ban.pk]}


def test_a_ban_can_be_lifted_from_the_list_of_bans():
    nino = make_player("nino")
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="30d", reason="x")
    ban = Ban.objects.get()
    response = client.post("/admin/moderation/ban/", {"action": "lift_ban", "_selected_action": [ban.pk]})
    assert response["Location"] == f"/admin/moderation/ban/moderate/lift_ban/?ids={ban.pk}"
    confirm(client, "moderation", "ban", "lift_ban", [ban.pk], reason="Mistake.")
    assert not Ban.objects.active().exists()


def test_a_ban_needs_a_duration_and_a_reason():
    nino = make_player("nino")
    client, _moderator = moderator_client()
    for data in ({"duration": "1d", "reason": ""}, {"duration": "", "reason": "x"},
                 {"duration": "1000y", "reason": "x"}):
        response = confirm(client, "auth", "user", "ban_user", [nino.user_id], **data)
        assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    assert not Ban.objects.exists() and audit_entries() == []


def test_staff_accounts_and_users_already_banned_are_refused():
    colleague = make_moderator("colleague")
    nino = make_player("nino")
    client, _moderator = moderator_client()
    response = confirm(client, "auth", "user", "ban_user", [colleague.pk], duration="1d", reason="x")
    assert response.status_code == 200 and "A staff account." in response.content.decode()
    confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="1d", reason="first")
    response = confirm(client, "auth", "user", "ban_user", [nino.user_id], duration="forever", reason="again")
    assert "Already banned." in response.content.decode()
    assert list(Ban.objects.values_list("user", flat=True)) == [nino.user_id]


def test_a_banned_classic_player_is_replaced_by_a_bot_and_the_match_goes_on():
    match, players = running_match(("a1", "b2", "c3", "d4"), variant="classic", stake=25)
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [players[2].user_id], duration="1d", reason="Abuse.")
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING
    assert Seat.objects.get(table=match.table, player=players[2]).left_at is not None


def test_the_user_list_shows_and_filters_bans():
    make_player("nino")
    tamar = make_player("tamar")
    client, _moderator = moderator_client()
    confirm(client, "auth", "user", "ban_user", [tamar.user_id], duration="forever", reason="x")
    page = client.get("/admin/auth/user/?banned=yes").content.decode()
    assert "tamar" in page and "nino" not in page and "banned for good" in page
    page = client.get("/admin/auth/user/?banned=no").content.decode()
    assert "nino" in page and ">tamar<" not in page
