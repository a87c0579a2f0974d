"""The Moderators group (moderation/migrations/0002) may read walk-outs and pauses and lift a pause."""

from django.db import migrations

MODERATORS = "Moderators"
PERMISSIONS = [("conduct", "view_walkout"), ("conduct", "view_pause"), ("conduct", "lift_pause")]


def give_moderators(apps, schema_editor):
    from django.contrib.auth.management import create_permissions
    from django.contrib.contenttypes.management import create_contenttypes

    # Permissions are normally made after all migrations ran; the group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_contenttypes(app_config, verbosity=0, apps=apps)
        create_permissions(app_config, verbosity=0, apps=apps)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(*[Permission.objects.get(content_type__app_label=app, codename=codename)
                            for app, codename in PERMISSIONS])


def take_back(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=MODERATORS).first()
    if group is not None:
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="conduct"))


class Migration(migrations.Migration):
    dependencies = [
        ("conduct", "0001_walk_outs_and_pauses"),
        ("moderation", "0002_moderators_group"),
    ]

    operations = [migrations.RunPython(give_moderators, take_back)]
