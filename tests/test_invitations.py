"""Inviting a friend to the table you sit at: a one-use, per-person grant spent when the
friend sits down through the table's own seating (games/services/tables.sit): no
password asked, the stake escrowed exactly once, and every bad invitation refused
clearly, changing nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from coins import services as coins
from games.models import Seat, Table
from games.services import tables as table_service
from games.services.tables import TableSettings
from notices import invitations
from notices.invitations import InvitationRefused
from notices.models import Invitation, Notice, NoticeKind
from tests.coins_helpers import set_balance
from tests.factories import make_friends, make_player
from tests.social_support import client_of, english  # noqa: F401

pytestmark = pytest.mark.django_db




def password_table(host, **settings):
    return table_service.create_table(host, TableSettings(variant="japanese", visibility="password",
                                                          password="kvevri", rated=False, **settings))


def seated(table, player):
    return Seat.objects.filter(table=table, player=player, left_at__isnull=True).exists()


def refused(code, call, *args, **kwargs):
    with pytest.raises(InvitationRefused) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def test_an_invitation_seats_the_friend_at_a_password_table_without_the_password():
    host, friend = make_player("host"), make_player("friend")
    make_friends(host, friend)
    table = password_table(host)
    with pytest.raises(table_service.TableError):
        table_service.sit(table.pk, friend)  # without the grant the password is asked
    answer = client_of(host).post(f"/en/tables/{table.pk}/invite/", {"user": friend.user_id},
                                  HTTP_HX_REQUEST="true").content.decode()
    assert "friend is invited. They get a notice at once." in answer
    invitation = Invitation.objects.get()
    notice = Notice.objects.get(user=friend.user, kind=NoticeKind.INVITATION)
    assert (notice.kind, notice.invitation_id, notice.actor_id) == (NoticeKind.INVITATION, invitation.pk, host.user_id)

    client = client_of(friend)
    page = client.get("/en/lobby/").content.decode()
    assert "host invites you to their table: Japanese Joker." in page
    assert f"/en/invitations/{invitation.pk}/accept/" in page
    response = client.post(f"/en/invitations/{invitation.pk}/accept/")
    assert response.status_code == 302 and response["Location"] == f"/en/tables/{table.pk}/"
    assert seated(table, friend)
    invitation.refresh_from_db()
    assert invitation.used_at is not None
    assert Notice.objects.get(user=friend.user, kind=NoticeKind.INVITATION).read_at is not None, "read once used"
    assert Table.objects.get(pk=table.pk).status == "playing"


def test_a_stake_table_invitation_takes_the_stake_exactly_once():
    host, friend = make_player("host"), make_player("friend")
    make_friends(host, friend)
    set_balance(host.user, 500)
    set_balance(friend.user, 300)
    table = table_service.create_table(host, TableSettings(variant="classic", stake=100, visibility="password",
                                                           password="kvevri"))
    invitation, new = invitations.invite(table.pk, host, friend.user)
    assert new
    client = client_of(friend)
    for _press in range(3):  # a double (triple) click
        client.post(f"/en/invitations/{invitation.pk}/accept/", HTTP_HX_REQUEST="true")
    assert coins.balance_of(friend.user) == 200
    assert coins.held_stake(friend.user, table.escrow_key).amount == 100
    assert Seat.objects.filter(table=table, player=friend).count() == 1
    table_service.stand(table.pk, friend)
    assert coins.balance_of(friend.user) == 300
    message = client.post(f"/en/invitations/{invitation.pk}/accept/", HTTP_HX_REQUEST="true").content.decode()
    assert message == "This invitation was already used."
    assert coins.balance_of(friend.user) == 300 and not seated(table, friend)


def test_too_few_coins_refuses_the_seat_and_leaves_the_invitation_unused():
    host, friend = make_player("host"), make_player("friend")
    make_friends(host, friend)
    set_balance(host.user, 500)
    set_balance(friend.user, 10)
    table = table_service.create_table(host, TableSettings(variant="japanese", stake=50))
    invitation, _new = invitations.invite(table.pk, host, friend.user)
    message = client_of(friend).post(f"/en/invitations/{invitation.pk}/accept/",
                                     HTTP_HX_REQUEST="true").content.decode()
    assert message.strip(), "the refusal is said"
    invitation.refresh_from_db()
    assert invitation.used_at is None and not seated(table, friend)
    assert coins.balance_of(friend.user) == 10
    set_balance(friend.user, 60)
    table_service.sit(table.pk, friend, invitation=invitation.pk)
    assert seated(table, friend) and coins.balance_of(friend.user) == 10


def test_inviting_again_changes_nothing_and_only_one_notice_is_made():
    host, friend = make_player("host"), make_player("friend")
    make_friends(host, friend)
    table = password_table(host)
    first, new = invitations.invite(table.pk, host, friend.user)
    again, new_again = invitations.invite(table.pk, host, friend.user)
    assert new and not new_again and first.pk == again.pk
    assert Notice.objects.filter(kind=NoticeKind.INVITATION).count() == 1


def test_who_may_invite_whom_is_refused_clearly():
    host, friend, stranger, _third = (make_player(n) for n in ("host", "friend", "stranger", "third"))
    make_friends(host, friend)
    make_friends(stranger, friend)
    table = table_service.create_table(host, TableSettings(variant="classic", rated=False))
    assert "friends" in refused("not_friends", invitations.invite, table.pk, host, stranger.user)
    refused("not_seated", invitations.invite, table.pk, stranger, friend.user)
    refused("self", invitations.invite, table.pk, host, host.user)
    refused("no_such_player", invitations.invite, table.pk, host, None)
    refused("no_such_table", invitations.invite, 987654, host, friend.user)
    from tests.factories import make_guest

    refused("members_only", invitations.invite, table.pk, make_guest(), friend.user)
    table_service.sit(table.pk, friend)
    refused("already_seated", invitations.invite, table.pk, host, friend.user)
    assert not Invitation.objects.exists() and not Notice.objects.filter(kind=NoticeKind.INVITATION).exists()


def test_a_friends_only_table_takes_only_the_creator_friends():
    host, mate, mates_friend = make_player("host"), make_player("mate"), make_player("matesfriend")
    make_friends(host, mate)
    make_friends(mate, mates_friend)
    table = table_service.create_table(host, TableSettings(variant="classic", visibility="friends", rated=False))
    table_service.sit(table.pk, mate)
    refused("friends_only", invitations.invite, table.pk, mate, mates_friend.user)


def test_expired_withdrawn_someone_else_and_left_inviter_are_refused():
    host, friend, other = make_player("host"), make_player("friend"), make_player("other")
    make_friends(host, friend)
    make_friends(host, other)
    table = password_table(host)
    invitation, _new = invitations.invite(table.pk, host, friend.user)

    # Someone else's invitation
    assert "not yours" in refused("no_such_invitation", table_service.sit, table.pk, other, invitation=invitation.pk)
    answer = client_of(other).post(f"/en/invitations/{invitation.pk}/accept/", HTTP_HX_REQUEST="true")
    assert answer.content.decode() == "This invitation is not yours."
    # Malformed or unknown ids
    refused("no_such_invitation", table_service.sit, table.pk, friend, invitation="x")
    assert client_of(friend).post("/en/invitations/99999/accept/", HTTP_HX_REQUEST="true").content.decode() == (
        "This invitation is not yours.")
    # Expired
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert "expired" in refused("expired", table_service.sit, table.pk, friend, invitation=invitation.pk)
    # A new invitation replaces the expired one; withdrawn it is refused
    fresh, new = invitations.invite(table.pk, host, friend.user)
    assert new and fresh.pk != invitation.pk
    refused("no_such_invitation", invitations.withdraw, fresh.pk, other)
    invitations.withdraw(fresh.pk, host)
    assert "taken back" in refused("withdrawn", table_service.sit, table.pk, friend, invitation=fresh.pk)
    # The inviter stood up
    last, _new = invitations.invite(table.pk, host, friend.user)
    table_service.stand(table.pk, host)
    with pytest.raises(table_service.TableError):  # the table closed with its last player
        table_service.sit(table.pk, friend, invitation=last.pk)
    assert not seated(table, friend)
    assert Invitation.objects.filter(used_at__isnull=False).count() == 0


def test_an_inviter_who_left_an_open_table_makes_the_invitation_refused():
    host, inviter, friend = make_player("host"), make_player("inviter"), make_player("friend")
    make_friends(inviter, friend)
    table = table_service.create_table(host, TableSettings(variant="classic", rated=False))
    table_service.sit(table.pk, inviter)
    invitation, _new = invitations.invite(table.pk, inviter, friend.user)
    table_service.stand(table.pk, inviter)
    assert "left" in refused("inviter_left", table_service.sit, table.pk, friend, invitation=invitation.pk)


def test_a_full_or_started_table_takes_no_invitation():
    a, b, friend = make_player("a"), make_player("b"), make_player("friend")
    make_friends(a, friend)
    table = table_service.create_table(a, TableSettings(variant="japanese", rated=False))
    invitation, _new = invitations.invite(table.pk, a, friend.user)
    table_service.sit(table.pk, b)  # the table filled: the match started
    refused("no_free_seat", invitations.invite, table.pk, a, friend.user)
    with pytest.raises(table_service.TableError) as caught:
        table_service.sit(table.pk, friend, invitation=invitation.pk)
    assert caught.value.code == "not_open"


def test_the_waiting_page_offers_the_seated_member_to_invite_friends():
    host, friend, lonely = make_player("host"), make_player("friend"), make_player("lonely")
    make_friends(host, friend)
    table = password_table(host)
    page = client_of(host).get(f"/en/tables/{table.pk}/").content.decode()
    panel = page.split('id="invite-panel"')[1].split("</section>")[0]
    assert "Invite a friend" in panel and ">friend<" in panel and f"/en/tables/{table.pk}/invite/" in panel
    invitations.invite(table.pk, host, friend.user)
    page = client_of(host).get(f"/en/tables/{table.pk}/").content.decode()
    assert "Take back" in page.split('id="invite-panel"')[1]
    assert 'id="invite-panel"' not in client_of(lonely).get(f"/en/tables/{table.pk}/").content.decode(), (
        "not seated: nothing to invite to")
    answer = client_of(host).post(f"/en/tables/{table.pk}/invite/", {"user": "nobody"}, HTTP_HX_REQUEST="true")
    assert "There is no such player." in answer.content.decode()
    withdraw = client_of(host).post(f"/en/tables/{table.pk}/invite/withdraw/",
                                    {"invitation": Invitation.objects.get().pk}, HTTP_HX_REQUEST="true")
    assert "The invitation to friend is taken back." in withdraw.content.decode()
    assert client_of(host).get(f"/en/tables/{table.pk}/invite/").status_code == 405
