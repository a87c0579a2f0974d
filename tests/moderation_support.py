"""Helpers for the moderation tests (not a test module): a moderator as the
issue describes one (staff, in the Moderators group, not a superuser), their
admin client, and tables built through the real table services."""

import importlib

from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from coins import services as coins
from games.models import Match
from games.services import tables as table_service
from games.services.tables import TableSettings
from moderation.models import AuditEntry
from tests.factories import PASSWORD, make_player

moderators_migration = importlib.import_module("moderation.migrations.0002_moderators_group")
conduct_moderators_migration = importlib.import_module("conduct.migrations.0002_moderators_may_lift_pauses")
chat_moderators_migration = importlib.import_module("chat.migrations.0002_moderators_may_handle_chat")


def moderators_group():
    """The group as the migration makes it. Tests that run with a flushed
    database (transactional tests elsewhere in the suite) lose the migration's
    rows, so make it again the same way when it is missing."""
    group = Group.objects.filter(name=moderators_migration.MODERATORS).first()
    if group is None or not group.permissions.exists():
        moderators_migration.create_moderators(django_apps, None)
        conduct_moderators_migration.give_moderators(django_apps, None)
        chat_moderators_migration.add_permissions(django_apps, None)
        group = Group.objects.get(name=moderators_migration.MODERATORS)
    return group


def make_moderator(username="moderator"):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD, is_staff=True)
    user.groups.add(moderators_group())
    return user


def client_for(user, language="en", reauthenticated=True):
    """A logged-in browser; the admin has no language prefix, so it asks in Accept-Language.

    Staff also confirm their password on allauth's re-authentication page, as a staff member
    does before an action that bans or moves coins (docs/moderation.md).
    """
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    if reauthenticated and user.is_staff:
        reauthenticate(client)
    return client


def reauthenticate(client, password=PASSWORD):
    response = client.post("/en/accounts/reauthenticate/", {"password": password})
    assert response.status_code == 302, response.content.decode()[:2000]
    return response


def moderator_client(username="moderator", language="en"):
    moderator = make_moderator(username)
    return client_for(moderator, language), moderator


def seated_table(names, variant="japanese", stake=50, **options):
    """A table created by the first name, the others sitting down; returns (table, players).
    Filling every seat starts the match."""
    players = [make_player(name) for name in names]
    table = table_service.create_table(players[0], TableSettings(variant=variant, stake=stake, **options))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    table.refresh_from_db()
    return table, players


def running_match(names=("tamar", "levan"), variant="japanese", stake=50):
    table, players = seated_table(names, variant=variant, stake=stake)
    return Match.objects.select_related("table").get(table=table), players


def balance(player):
    return coins.balance_of(player.user)


def action_url(app_label, model_name, action, *ids):
    url = f"/admin/{app_label}/{model_name}/moderate/{action}/"
    return f"{url}?ids={','.join(str(i) for i in ids)}" if ids else url


def confirm(client, app_label, model_name, action, ids, **fields):
    """POST the confirmation page the way the browser's form does."""
    data = {"ids": ",".join(str(i) for i in ids), **fields}
    return client.post(action_url(app_label, model_name, action), data)


def audit_entries(action=None):
    entries = AuditEntry.objects.all()
    return list(entries.filter(action=action) if action else entries)
