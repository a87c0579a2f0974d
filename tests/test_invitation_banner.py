"""An invitation shows as a banner with Accept and Decline on any page the invited member
opens, and in the fragments the site-wide socket pushes; Decline (the notice read) takes it
away and changes nothing else; Accept seats the member as the notice's "Sit down" does."""

import pytest

from games.models import Seat
from games.services import tables as table_service
from games.services.tables import TableSettings
from notices import invitations
from notices.models import Invitation, Notice
from notices.rendering import notices_fragment
from tests.factories import make_friends, make_player
from tests.social_support import client_of

pytestmark = pytest.mark.django_db



def invited_friend():
    host, friend = make_player("host"), make_player("friend")
    make_friends(host, friend)
    table = table_service.create_table(host, TableSettings(variant="japanese", rated=False))
    invitations.invite(table.pk, host, friend.user)
    return table, friend, Invitation.objects.get()


def banner_of(html):
    start = html.index('id="invitation-banner"')
    return html[start:html.index("</section>", start)] if "</section>" in html[start:start + 4000] else ""


@pytest.mark.parametrize("path", ["/en/", "/en/rules/", "/en/coins/"])
def test_an_open_invitation_is_a_banner_with_accept_and_decline_on_any_page(path):
    _table, friend, invitation = invited_friend()
    page = client_of(friend).get(path).content.decode()
    banner = banner_of(page)
    assert "host invites you to their table: Japanese Joker." in banner
    assert f'hx-post="/en/invitations/{invitation.pk}/accept/"' in banner
    assert ">Accept</button>" in banner and ">Decline</button>" in banner


def test_the_socket_pushes_the_banner_with_the_notices_and_takes_it_away_once_declined():
    table, friend, invitation = invited_friend()
    pushed, _count = notices_fragment(friend.user_id, "ru", None)
    assert 'id="invitation-banner" class="invitation-banner" hx-swap-oob="true"' in pushed
    assert ">Принять</button>" in pushed and ">Отклонить</button>" in pushed

    notice = Notice.objects.get(invitation=invitation)
    client_of(friend).post("/en/notices/read/", {"notice": notice.pk}, HTTP_HX_REQUEST="true")
    pushed, _count = notices_fragment(friend.user_id, "ru", None)
    assert 'id="invitation-banner"' in pushed and ">Принять</button>" not in pushed  # swapped in empty
    assert not Seat.objects.filter(table=table, player=friend).exists()  # declining seats nobody
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_accept_in_the_banner_seats_the_friend_and_the_banner_goes():
    table, friend, invitation = invited_friend()
    client = client_of(friend)
    response = client.post(f"/en/invitations/{invitation.pk}/accept/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == f"/en/tables/{table.pk}/"
    assert Seat.objects.filter(table=table, player=friend, left_at__isnull=True).exists()
    assert ">Accept</button>" not in client.get("/en/rules/").content.decode()


def test_a_visitor_sees_no_banner():
    invited_friend()
    from django.test import Client

    assert "invitation-banner" not in Client().get("/en/").content.decode()
