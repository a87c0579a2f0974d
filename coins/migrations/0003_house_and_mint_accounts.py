"""The two system accounts exist from the start, so that the first sign-ups on
a fresh site do not queue behind one another creating the mint. The services
still create them on demand (a test database emptied by TRUNCATE has neither)."""

from django.db import migrations


def create_system_accounts(apps, schema_editor):
    Account = apps.get_model("coins", "Account")
    for key in ("house", "mint"):
        Account.objects.get_or_create(key=key, defaults={"kind": key})


class Migration(migrations.Migration):
    dependencies = [("coins", "0002_entries_are_immutable")]

    operations = [migrations.RunPython(create_system_accounts, migrations.RunPython.noop)]
