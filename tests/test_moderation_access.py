"""Who may do what in the admin: the Moderators group has exactly what the
staff actions need, moderators can read every page the issue lists and act,
nobody edits matches, ledger entries or audit entries, and people who are not
staff get no access at all."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from accounts.tokens import create_token
from coins.models import Entry
from games.models import Match, Seat, Table, TableStatus
from moderation.models import AuditEntry, Ban, ImmutableAuditError, Wallet
from tests.factories import PASSWORD, make_friends, make_guest, make_player, make_user
from tests.moderation_support import (
    action_url,
    client_for,
    confirm,
    make_moderator,
    moderator_client,
    moderators_group,
    running_match,
    seated_table,
)

pytestmark = pytest.mark.django_db

MODERATOR_PERMISSIONS = {
    "auth.view_user",
    "accounts.view_player",
    "accounts.view_friendship",
    "accounts.view_block",
    "accounts.view_accesstoken",
    "games.view_table",
    "games.view_seat",
    "games.view_match",
    "coins.view_entry",
    "moderation.view_guest",
    "moderation.view_wallet",
    "moderation.view_ban",
    "moderation.view_auditentry",
    "moderation.close_table",
    "moderation.abort_match",
    "moderation.kick_player",
    "moderation.ban_user",
    "moderation.adjust_wallet",
    "conduct.view_walkout",
    "conduct.view_pause",
    "conduct.lift_pause",
    # Table chat (chat/migrations/0002_moderators_may_handle_chat.py).
    "chat.view_chatmessage",
    "chat.view_chatreport",
    "moderation.view_mute",
    "moderation.mute_player",
    "moderation.handle_chat_report",
}


def test_the_moderators_group_has_exactly_the_permissions_the_actions_need():
    group = moderators_group()
    granted = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.select_related("content_type")}
    assert granted == MODERATOR_PERMISSIONS
    moderator = make_moderator()
    assert not moderator.is_superuser
    assert moderator.get_all_permissions() == MODERATOR_PERMISSIONS


def test_nobody_can_be_given_permission_to_add_change_or_delete_audit_entries_or_bans():
    codenames = set(Permission.objects.filter(content_type__app_label="moderation").values_list("codename", flat=True))
    assert not {c for c in codenames if c.split("_")[0] in {"add", "change", "delete"}}


@pytest.fixture
def everything():
    """One of each thing the admin lists."""
    tamar, levan = make_player("tamar"), make_player("levan")
    make_friends(tamar, levan)
    from accounts.friends import block_user

    nino = make_player("nino")
    block_user(nino.user, levan.user)
    create_token(tamar.user, "my bot")
    make_guest()
    match, _players = running_match(("giorgi", "ana"))
    seated_table(["eka"], variant="classic", stake=25)
    return {"match": match, "tamar": tamar, "nino": nino}


LIST_PAGES = [
    "/admin/games/table/?q=giorgi&status__exact=playing&variant__exact=japanese&stake=50",
    "/admin/games/table/?q=1&created_at__year=2026",
    "/admin/games/match/?q=ana&status__exact=running&table__variant__exact=japanese&table__stake=50",
    "/admin/games/seat/?q=eka&is_bot__exact=0&table__status__exact=open",
    "/admin/auth/user/?q=tamar&banned=no",
    "/admin/accounts/player/?q=levan&is_guest__exact=0",
    "/admin/moderation/guest/",
    "/admin/accounts/friendship/?q=tamar&status__exact=accepted",
    "/admin/accounts/block/?q=nino",
    "/admin/accounts/accesstoken/?q=tamar",
    "/admin/coins/entry/?q=tamar&kind__exact=welcome_grant",
    "/admin/moderation/wallet/?q=levan",
    "/admin/moderation/ban/?in_force=yes",
    "/admin/moderation/auditentry/?action__exact=ban_user",
]


@pytest.mark.parametrize("url", LIST_PAGES)
def test_a_moderator_can_list_search_and_filter_every_page_the_issue_names(everything, url):
    client, _moderator = moderator_client()
    response = client.get(url)
    assert response.status_code == 200, url
    assert "?e=1" not in response.get("Location", "")  # an unknown filter would redirect with ?e=1


def test_searches_find_by_user_and_the_filters_narrow(everything):
    client, _moderator = moderator_client()
    page = client.get("/admin/games/match/?q=ana").content.decode()
    assert f"/admin/games/match/{everything['match'].pk}/change/" in page
    page = client.get("/admin/games/match/?q=nobody-by-this-name").content.decode()
    assert f"/admin/games/match/{everything['match'].pk}/change/" not in page
    page = client.get("/admin/games/table/?status__exact=open").content.decode()
    assert f"/admin/games/table/{everything['match'].table_id}/change/" not in page


def test_every_object_page_opens_for_a_moderator(everything):
    client, _moderator = moderator_client()
    match = everything["match"]
    tamar = everything["tamar"]
    urls = [
        f"/admin/games/table/{match.table_id}/change/",
        f"/admin/games/match/{match.pk}/change/",
        f"/admin/games/seat/{Seat.objects.filter(table=match.table).first().pk}/change/",
        f"/admin/auth/user/{tamar.user_id}/change/",
        f"/admin/accounts/player/{tamar.pk}/change/",
        f"/admin/moderation/wallet/{Wallet.objects.get(user=tamar.user).pk}/change/",
        f"/admin/coins/entry/{Entry.objects.first().pk}/change/",
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_the_record_of_a_running_match_is_hidden_and_shown_once_it_is_over():
    match, (tamar, _levan) = running_match()
    client, _moderator = moderator_client()
    page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "Hidden while the match is running" in page and "joker-record/1" not in page
    assert f"<div class=\"readonly\">{match.version}</div>" in page
    from games.services.matches import resign

    resign(match.pk, tamar)
    page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "joker-record/1" in page and "&quot;format&quot;: &quot;joker-record/1&quot;" in page


def test_a_moderator_cannot_edit_or_delete_a_match():
    match, _players = running_match()
    client, _moderator = moderator_client()
    page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert 'name="_save"' not in page
    response = client.post(f"/admin/games/match/{match.pk}/change/", {"version": "99", "status": "aborted"})
    assert response.status_code == 403
    assert client.post(f"/admin/games/match/{match.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get("/admin/games/match/add/").status_code == 403
    fresh = Match.objects.get(pk=match.pk)
    assert (fresh.version, fresh.status, fresh.record) == (match.version, match.status, match.record)


def test_a_moderator_cannot_edit_or_delete_a_ledger_entry():
    make_player("tamar")
    entry = Entry.objects.get(kind="welcome_grant")
    client, _moderator = moderator_client()
    assert 'name="_save"' not in client.get(f"/admin/coins/entry/{entry.pk}/change/").content.decode()
    assert client.post(f"/admin/coins/entry/{entry.pk}/change/", {"amount": "5000"}).status_code == 403
    assert client.post(f"/admin/coins/entry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Entry.objects.get(pk=entry.pk).amount == entry.amount


def test_a_moderator_cannot_edit_users_tables_or_wallets_nor_open_what_the_issue_does_not_name():
    tamar = make_player("tamar")
    table, _players = seated_table(["levan"], stake=25)
    wallet = Wallet.objects.get(user=tamar.user)
    client, moderator = moderator_client()
    assert client.post(f"/admin/auth/user/{tamar.user_id}/change/",
                       {"username": "renamed", "is_staff": "on"}).status_code == 403
    assert client.post(f"/admin/games/table/{table.pk}/change/", {"status": "closed"}).status_code == 403
    assert client.post(f"/admin/moderation/wallet/{wallet.pk}/change/", {"balance": "9999"}).status_code == 403
    for url in ("/admin/auth/group/", "/admin/coins/account/", "/admin/coins/stake/", "/admin/auth/user/add/",
                f"/admin/auth/user/{moderator.pk}/password/"):
        assert client.get(url).status_code == 403, url
    tamar.user.refresh_from_db()
    wallet.refresh_from_db()
    assert tamar.user.username == "tamar" and not tamar.user.is_staff and wallet.balance == 1000
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN


def test_audit_entries_cannot_be_changed_or_deleted_in_the_admin_not_even_by_a_superuser():
    table, _players = seated_table(["tamar"], stake=25)
    client, _moderator = moderator_client()
    confirm(client, "games", "table", "close_table", [table.pk], reason="original reason")
    entry = AuditEntry.objects.get()
    superuser = get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    for who in (client, client_for(superuser)):
        page = who.get(f"/admin/moderation/auditentry/{entry.pk}/change/")
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        assert who.post(f"/admin/moderation/auditentry/{entry.pk}/change/",
                        {"reason": "rewritten"}).status_code == 403
        assert who.post(f"/admin/moderation/auditentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
        assert who.get("/admin/moderation/auditentry/add/").status_code == 403
        listing = who.post("/admin/moderation/auditentry/",
                           {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
        assert listing.status_code in (200, 302)
    assert AuditEntry.objects.get().reason == "original reason"


def test_audit_entries_refuse_to_be_saved_again_or_deleted_in_code():
    table, _players = seated_table(["tamar"], stake=25)
    client, _moderator = moderator_client()
    confirm(client, "games", "table", "close_table", [table.pk], reason="why")
    entry = AuditEntry.objects.get()
    entry.reason = "changed"
    with pytest.raises(ImmutableAuditError):
        entry.save()
    with pytest.raises(ImmutableAuditError):
        entry.delete()
    assert AuditEntry.objects.get().reason == "why"


def test_bans_are_made_only_by_the_audited_action():
    tamar = make_player("tamar")
    superuser = get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    client = client_for(superuser)
    assert client.get("/admin/moderation/ban/add/").status_code == 403
    confirm(client, "auth", "user", "ban_user", [tamar.user_id], duration="1d", reason="by the superuser")
    ban = Ban.objects.get()
    assert client.post(f"/admin/moderation/ban/{ban.pk}/change/", {"reason": "other"}).status_code == 403
    assert client.post(f"/admin/moderation/ban/{ban.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.get().actor == superuser


def _every_action_url(match, table, seat, user, wallet):
    return [
        action_url("games", "table", "close_table", table.pk),
        action_url("games", "match", "abort_match", match.pk),
        action_url("games", "seat", "kick_player", seat.pk),
        action_url("auth", "user", "ban_user", user.pk),
        action_url("auth", "user", "lift_ban", user.pk),
        action_url("moderation", "wallet", "adjust_wallet", wallet.pk),
    ]


@pytest.fixture
def targets():
    match, _players = running_match()
    table, (eka,) = seated_table(["eka"], stake=25)
    return {"match": match, "table": table, "seat": Seat.objects.get(table=table), "user": eka.user,
            "wallet": Wallet.objects.get(user=eka.user)}


def test_people_who_are_not_staff_are_sent_to_the_admin_login_and_nothing_changes(client, targets):
    visitor = client
    member = client_for(make_user("member"))
    for browser in (visitor, member):
        for url in ["/admin/", "/admin/games/table/", f"/admin/games/match/{targets['match'].pk}/change/",
                    "/admin/moderation/auditentry/", *_every_action_url(**targets)]:
            response = browser.get(url)
            assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), url
        for url in _every_action_url(**targets):
            response = browser.post(url.split("?")[0], {"ids": url.split("=")[1], "reason": "x", "amount": "5",
                                                       "duration": "forever"})
            assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert AuditEntry.objects.count() == 0 and Ban.objects.count() == 0
    assert Table.objects.get(pk=targets["table"].pk).status == TableStatus.OPEN
    assert Match.objects.get(pk=targets["match"].pk).status == "running"


def test_staff_outside_the_moderators_group_cannot_act(targets):
    staff = make_user("helpdesk")
    staff.is_staff = True
    staff.save()
    browser = client_for(staff)
    for url in _every_action_url(**targets):
        assert browser.get(url).status_code == 403, url
        assert browser.post(url.split("?")[0], {"ids": url.split("=")[1], "reason": "x", "amount": "5",
                                                "duration": "forever"}).status_code == 403
    assert AuditEntry.objects.count() == 0 and Ban.objects.count() == 0


def test_a_moderator_with_one_permission_taken_away_loses_just_that_action(targets):
    moderator = make_moderator()
    moderator.user_permissions.clear()
    group = moderators_group()
    group.permissions.remove(Permission.objects.get(codename="abort_match"))
    browser = client_for(moderator)
    assert browser.get(action_url("games", "match", "abort_match", targets["match"].pk)).status_code == 403
    page = browser.get(f"/admin/games/table/{targets['match'].table_id}/change/").content.decode()
    assert "moderate/abort_match" not in page
    assert browser.get(action_url("games", "table", "close_table", targets["table"].pk)).status_code == 200


def test_the_action_menu_offers_only_the_staff_actions_never_delete(targets):
    client, _moderator = moderator_client()
    page = client.get("/admin/games/table/").content.decode()
    assert 'value="close_table"' in page and 'value="delete_selected"' not in page


def test_a_bad_or_missing_choice_goes_back_to_the_list_with_a_message(targets):
    client, _moderator = moderator_client()
    for query in ("", "?ids=", "?ids=abc", "?ids=-4", "?ids=999999"):
        response = client.get(f"/admin/games/table/moderate/close_table/{query}")
        assert response.status_code == 302 and response["Location"] == "/admin/games/table/", query
    assert AuditEntry.objects.count() == 0


def test_the_admin_speaks_georgian_and_russian_to_moderators(targets):
    for language, title in (("ka", "მაგიდის დახურვა და ფსონების დაბრუნება"),
                            ("ru", "Закрыть стол и вернуть ставки")):
        client, _moderator = moderator_client(f"moderator_{language}", language=language)
        page = client.get(action_url("games", "table", "close_table", targets["table"].pk)).content.decode()
        assert title in page, language
