"""Table passwords cannot be guessed without end (issue 36, item 4): guesses are capped per
address and per table as well as per player, a table stops taking its password after too many
wrong ones and its host is told, and the host's invitation link seats without the password."""

import re

import pytest
from django.test import Client

from games.models import Seat, Visibility
from games.services import tables as table_service
from games.services.tables import TableError, TableSettings, invitation_link_token
from notices.models import Notice, NoticeKind
from tests.factories import make_player

pytestmark = pytest.mark.django_db

TABLE_PASSWORD = "secret-77"


@pytest.fixture
def password_table():
    host = make_player("tamar")
    table = table_service.create_table(
        host,
        TableSettings(
            variant="japanese", visibility=Visibility.PASSWORD, password=TABLE_PASSWORD, rated=False
        ),
    )
    return table, host


def guess_as_a_fresh_cookieless_visitor(table, password, address="198.51.100.7"):
    """Each request without cookies is a new guest: only the address ties them together."""
    client = Client(REMOTE_ADDR=address)
    return client.post(f"/en/tables/{table.pk}/sit/", {"password": password}, follow=True)


def seated(table):
    return Seat.objects.filter(table=table, left_at__isnull=True).count()


def test_fresh_guests_from_one_address_cannot_go_on_guessing(password_table):
    table, _host = password_table
    for _ in range(table_service.PASSWORD_GUESSES_PER_ADDRESS):
        response = guess_as_a_fresh_cookieless_visitor(table, "wrong")
        assert "Wrong table password." in response.content.decode()
    response = guess_as_a_fresh_cookieless_visitor(table, TABLE_PASSWORD)
    assert "Too many wrong passwords." in response.content.decode()
    assert seated(table) == 1  # the host alone
    # Another address is not held back by this one's guesses.
    response = guess_as_a_fresh_cookieless_visitor(table, TABLE_PASSWORD, address="203.0.113.9")
    assert seated(table) == 2


def test_a_table_guessed_at_from_many_addresses_stops_taking_its_password_and_tells_its_host(password_table):
    table, host = password_table
    for attempt in range(table_service.PASSWORD_FAILURES_BEFORE_LOCK):
        guess_as_a_fresh_cookieless_visitor(table, "wrong", address=f"203.0.113.{attempt + 1}")
    assert table_service.password_locked(table)
    response = guess_as_a_fresh_cookieless_visitor(table, TABLE_PASSWORD, address="192.0.2.200")
    assert "no longer takes its password" in response.content.decode()
    assert seated(table) == 1
    notices = Notice.objects.filter(user=host.user, kind=NoticeKind.TABLE_LOCKED, table=table)
    assert notices.count() == 1  # told once, though later guesses keep coming
    host_client = Client()
    host_client.force_login(host.user)
    for language, words in (("ka", "ძალიან ბევრი არასწორი პაროლი"), ("ru", "слишком много неверных паролей")):
        page = host_client.get(f"/{language}/tables/{table.pk}/").content.decode()
        assert words in page.lower(), language


def test_a_locked_table_refuses_its_password_to_programs_too(password_table):
    table, _host = password_table
    for attempt in range(table_service.PASSWORD_FAILURES_BEFORE_LOCK):
        with pytest.raises(TableError):
            table_service.sit(table.pk, make_player(f"guesser{attempt}"), password="wrong")
    with pytest.raises(TableError) as refusal:
        table_service.sit(table.pk, make_player("late"), password=TABLE_PASSWORD)
    assert refusal.value.code == "password_locked"


def test_the_host_sees_the_invitation_link_and_it_seats_without_the_password(password_table):
    table, host = password_table
    host_client = Client()
    host_client.force_login(host.user)
    page = host_client.get(f"/en/tables/{table.pk}/").content.decode()
    link = re.search(r'<code id="invitation-link-url"[^>]*>([^<]+)</code>', page).group(1)
    token = invitation_link_token(table)
    assert link.endswith(f"/en/tables/{table.pk}/?invite={token}") and len(token) == 32

    friend = Client(REMOTE_ADDR="198.51.100.50")
    page = friend.get(link).content.decode()
    assert "no password is needed" in page and 'name="password"' not in page
    friend.post(f"/en/tables/{table.pk}/sit/", {"invite": token})
    assert seated(table) == 2


def test_the_invitation_link_still_seats_at_a_locked_table(password_table):
    table, _host = password_table
    for attempt in range(table_service.PASSWORD_FAILURES_BEFORE_LOCK):
        guess_as_a_fresh_cookieless_visitor(table, "wrong", address=f"203.0.113.{attempt + 1}")
    Client().post(f"/en/tables/{table.pk}/sit/", {"invite": invitation_link_token(table)})
    assert seated(table) == 2


def test_a_wrong_or_foreign_invitation_link_seats_nobody(password_table):
    table, _host = password_table
    other = table_service.create_table(
        make_player("levan"),
        TableSettings(variant="japanese", visibility=Visibility.PASSWORD, password="x-other", rated=False),
    )
    for token in ("0" * 32, invitation_link_token(other), ""):
        response = Client().post(f"/en/tables/{table.pk}/sit/", {"invite": token}, follow=True)
        assert "Wrong table password." in response.content.decode()
    assert seated(table) == 1
    # Only the host sees the link.
    page = Client().get(f"/en/tables/{table.pk}/").content.decode()
    assert invitation_link_token(table) not in page and "invitation-link-url" not in page
    assert invitation_link_token(table) != invitation_link_token(other)
