"""Staff actions on tables, matches, seats and wallets, driven through the
admin by a moderator (staff, in the Moderators group, not a superuser)."""

import pytest

from coins.models import Entry, EntryKind, Stake
from games.models import Match, MatchStatus, Seat, Table, TableStatus
from moderation.models import AuditAction, AuditEntry, Wallet
from tests.factories import make_player
from tests.moderation_support import (
    action_url,
    audit_entries,
    balance,
    confirm,
    moderator_client,
    running_match,
    seated_table,
)

pytestmark = pytest.mark.django_db


# --- Closing a table that has not started ---------------------------------------------------

def test_the_table_menu_action_leads_to_a_confirmation_page_with_a_reason_field():
    table, _players = seated_table(["tamar"], variant="classic", stake=25)
    client, _moderator = moderator_client()
    response = client.post("/admin/games/table/", {"action": "close_table", "_selected_action": [table.pk]})
    assert response.status_code == 302
    assert response["Location"] == action_url("games", "table", "close_table", table.pk)
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="reason"' in html and str(table) in html
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN  # asking changes nothing


def test_closing_an_unstarted_coin_table_refunds_every_stake_and_writes_the_audit_entry():
    table, (tamar, levan) = seated_table(["tamar", "levan"], variant="classic", stake=100)
    assert balance(tamar) == balance(levan) == 900
    client, moderator = moderator_client()

    response = confirm(client, "games", "table", "close_table", [table.pk], reason="Players asked to stop.")

    assert response.status_code == 302 and response["Location"] == f"/admin/games/table/{table.pk}/change/"
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED and not table.seats.exists()
    assert balance(tamar) == balance(levan) == 1000
    assert not Stake.objects.filter(escrow__key=table.escrow_key, state=Stake.State.HELD).exists()
    [entry] = audit_entries(AuditAction.CLOSE_TABLE)
    assert (entry.actor, entry.target_id, entry.reason) == (moderator, str(table.pk), "Players asked to stop.")
    assert sorted(r["amount"] for r in entry.details["refunds"]) == [100, 100]
    # Shown on the table's admin page, with the refund in the ledger.
    page = client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "Players asked to stop." in page
    assert Entry.objects.filter(kind=EntryKind.ABORT_REFUND, table_id=table.pk).count() == 2


def test_closing_needs_a_reason_and_without_one_changes_nothing():
    table, (tamar,) = seated_table(["tamar"], stake=50)
    client, _moderator = moderator_client()
    response = confirm(client, "games", "table", "close_table", [table.pk], reason="   ")
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN
    assert balance(tamar) == 950 and audit_entries() == []


def test_a_started_table_cannot_be_closed_and_several_tables_close_all_or_none():
    waiting, (tamar,) = seated_table(["tamar"], stake=50)
    match, _players = running_match(("nino", "giorgi"))
    client, _moderator = moderator_client()
    page = client.get(action_url("games", "table", "close_table", waiting.pk, match.table_id)).content.decode()
    assert "Not waiting for players" in page and 'name="reason"' not in page
    response = confirm(client, "games", "table", "close_table", [waiting.pk, match.table_id], reason="spam")
    assert response.status_code == 200
    assert Table.objects.get(pk=waiting.pk).status == TableStatus.OPEN and balance(tamar) == 950
    assert Match.objects.get(pk=match.pk).status == MatchStatus.RUNNING and audit_entries() == []


def test_two_unstarted_tables_close_together_with_an_entry_each():
    first, (tamar,) = seated_table(["tamar"], stake=25)
    second, (levan,) = seated_table(["levan"], stake=250)
    client, _moderator = moderator_client()
    response = confirm(client, "games", "table", "close_table", [first.pk, second.pk], reason="test tables")
    assert response.status_code == 302 and response["Location"] == "/admin/games/table/"
    assert set(Table.objects.values_list("status", flat=True)) == {TableStatus.CLOSED}
    assert balance(tamar) == balance(levan) == 1000
    assert len(audit_entries(AuditAction.CLOSE_TABLE)) == 2


# --- Aborting a running match ------------------------------------------------------------------

def test_aborting_a_running_match_refunds_both_stakes_and_nobody_wins():
    match, (tamar, levan) = running_match(stake=250)
    assert balance(tamar) == balance(levan) == 750
    client, moderator = moderator_client()

    page = client.get(action_url("games", "match", "abort_match", match.pk))
    assert page.status_code == 200 and 'name="reason"' in page.content.decode()
    response = confirm(client, "games", "match", "abort_match", [match.pk], reason="Server trouble at table.")

    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and match.winners == [] and match.end_reason == "abort"
    assert Table.objects.get(pk=match.table_id).status == TableStatus.FINISHED
    assert balance(tamar) == balance(levan) == 1000
    [entry] = audit_entries(AuditAction.ABORT_MATCH)
    assert entry.actor == moderator and entry.target_id == str(match.pk)
    assert entry.details["table_id"] == match.table_id and len(entry.details["refunds"]) == 2
    # The player-facing memo does not carry the staff member's words.
    memos = set(Entry.objects.filter(match_id=match.pk, kind=EntryKind.ABORT_REFUND).values_list("memo", flat=True))
    assert memos == {"match_aborted_by_staff"}  # a key, translated on the coins page (coins/memos.py)
    # Both the match's and the table's admin pages show the entry.
    for url in (f"/admin/games/match/{match.pk}/change/", f"/admin/games/table/{match.table_id}/change/"):
        assert "Server trouble at table." in client.get(url).content.decode()


def test_a_finished_match_cannot_be_aborted():
    match, (tamar, _levan) = running_match()
    from games.services.matches import resign

    resign(match.pk, tamar)
    client, _moderator = moderator_client()
    response = confirm(client, "games", "match", "abort_match", [match.pk], reason="too late")
    assert response.status_code == 200 and "Not running" in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED and audit_entries() == []


def test_the_table_page_offers_abort_for_its_running_match():
    match, _players = running_match()
    client, _moderator = moderator_client()
    page = client.get(f"/admin/games/table/{match.table_id}/change/").content.decode()
    assert action_url("games", "match", "abort_match", match.pk) in page


# --- Removing a player before the start ---------------------------------------------------------

def test_kicking_a_player_before_the_start_frees_the_seat_and_refunds_the_stake():
    table, (tamar, levan) = seated_table(["tamar", "levan"], variant="classic", stake=50)
    seat = Seat.objects.get(table=table, player=levan)
    client, moderator = moderator_client()
    table_page = client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert action_url("games", "seat", "kick_player", seat.pk) in table_page

    response = confirm(client, "games", "seat", "kick_player", [seat.pk], reason="Rude name.")

    assert response.status_code == 302
    assert not Seat.objects.filter(pk=seat.pk).exists()
    assert list(table.seats.values_list("player", flat=True)) == [tamar.pk]
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN
    assert balance(levan) == 1000 and balance(tamar) == 950
    [entry] = audit_entries(AuditAction.KICK_PLAYER)
    assert entry.actor == moderator and entry.target_id == str(levan.pk)
    assert entry.details == {"table_id": table.pk, "seat": seat.index, "refund": 50}
    assert "Rude name." in client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "Rude name." in client.get(f"/admin/auth/user/{levan.user_id}/change/").content.decode()


def test_the_seat_list_action_kicks_and_a_started_match_refuses_it():
    match, (tamar, _levan) = running_match()
    seat = Seat.objects.get(table=match.table, player=tamar)
    client, _moderator = moderator_client()
    response = client.post("/admin/games/seat/", {"action": "kick_player", "_selected_action": [seat.pk]})
    assert response["Location"] == action_url("games", "seat", "kick_player", seat.pk)
    response = confirm(client, "games", "seat", "kick_player", [seat.pk], reason="x")
    assert response.status_code == 200 and "Not waiting for players" in response.content.decode()
    assert Seat.objects.filter(pk=seat.pk, left_at__isnull=True).exists() and audit_entries() == []


def test_kicking_the_last_player_closes_the_table():
    table, (tamar,) = seated_table(["tamar"], stake=25)
    seat = Seat.objects.get(table=table)
    client, _moderator = moderator_client()
    confirm(client, "games", "seat", "kick_player", [seat.pk], reason="idle")
    assert Table.objects.get(pk=table.pk).status == TableStatus.CLOSED and balance(tamar) == 1000


# --- Adjusting a wallet --------------------------------------------------------------------------

def test_adjusting_a_wallet_posts_a_ledger_entry_from_the_mint_and_an_audit_entry():
    nino = make_player("nino")
    wallet = Wallet.objects.get(user=nino.user)
    client, moderator = moderator_client()
    user_page = client.get(f"/admin/auth/user/{nino.user_id}/change/").content.decode()
    assert action_url("moderation", "wallet", "adjust_wallet", wallet.pk) in user_page

    response = confirm(client, "moderation", "wallet", "adjust_wallet", [wallet.pk],
                       amount="250", reason="Lost coins in the outage of 3 May.")

    assert response.status_code == 302
    assert balance(nino) == 1250
    entry = Entry.objects.get(kind=EntryKind.STAFF_ADJUSTMENT)
    assert (entry.debit.key, entry.credit_id, entry.amount) == ("mint", wallet.pk, 250)
    assert entry.staff_user == moderator and entry.memo == "Lost coins in the outage of 3 May."
    [audit] = audit_entries(AuditAction.ADJUST_WALLET)
    assert audit.target_id == str(wallet.pk)
    assert audit.details == {"user_id": nino.user_id, "amount": 250, "entry_id": entry.pk, "balance_after": 1250}
    for url in (f"/admin/moderation/wallet/{wallet.pk}/change/", f"/admin/auth/user/{nino.user_id}/change/"):
        assert "Lost coins in the outage of 3 May." in client.get(url).content.decode()


def test_taking_coins_back_cannot_take_a_wallet_below_zero():
    nino = make_player("nino")
    wallet = Wallet.objects.get(user=nino.user)
    client, _moderator = moderator_client()
    response = confirm(client, "moderation", "wallet", "adjust_wallet", [wallet.pk], amount="-1001",
                       reason="Duplicate grant.")
    assert response.status_code == 200
    assert "have only 1000" in response.content.decode()
    assert balance(nino) == 1000 and audit_entries() == []
    assert not Entry.objects.filter(kind=EntryKind.STAFF_ADJUSTMENT).exists()

    confirm(client, "moderation", "wallet", "adjust_wallet", [wallet.pk], amount="-300", reason="Duplicate grant.")
    assert balance(nino) == 700
    assert Entry.objects.get(kind=EntryKind.STAFF_ADJUSTMENT).credit.key == "mint"


@pytest.mark.parametrize("amount", ["0", "", "12.5", "ten", "2000000"])
def test_a_wallet_adjustment_needs_a_whole_number_of_coins_other_than_zero(amount):
    nino = make_player("nino")
    wallet = Wallet.objects.get(user=nino.user)
    client, _moderator = moderator_client()
    response = confirm(client, "moderation", "wallet", "adjust_wallet", [wallet.pk], amount=amount, reason="x")
    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    assert balance(nino) == 1000 and audit_entries() == []


def test_the_wallet_page_lists_its_latest_ledger_entries():
    _table, (tamar,) = seated_table(["tamar"], stake=25)
    client, _moderator = moderator_client()
    wallet = Wallet.objects.get(user=tamar.user)
    page = client.get(f"/admin/moderation/wallet/{wallet.pk}/change/").content.decode()
    assert "Welcome grant" in page and "Stake" in page and "-25" in page


def test_every_audit_entry_says_who_what_when_and_why():
    table, _players = seated_table(["tamar"], stake=25)
    client, moderator = moderator_client()
    confirm(client, "games", "table", "close_table", [table.pk], reason="why not")
    entry = AuditEntry.objects.get()
    assert entry.actor_label == moderator.username and entry.action == AuditAction.CLOSE_TABLE
    assert entry.created_at is not None and entry.reason == "why not" and entry.target_label == str(table)
