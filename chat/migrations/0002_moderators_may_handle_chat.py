"""The "Moderators" group also handles table chat: reads the messages, the reports and
the mutes, mutes and lifts mutes, and handles reports."""

from django.db import migrations

MODERATORS = "Moderators"

PERMISSIONS = [
    ("chat", "view_chatmessage"),
    ("chat", "view_chatreport"),
    ("moderation", "view_mute"),
    ("moderation", "mute_player"),
    ("moderation", "handle_chat_report"),
]


def add_permissions(apps, schema_editor):
    from django.contrib.auth.management import create_permissions
    from django.contrib.contenttypes.management import create_contenttypes

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_contenttypes(app_config, verbosity=0, apps=apps)
        create_permissions(app_config, verbosity=0, apps=apps)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


def remove_permissions(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=MODERATORS).first()
    if group is not None:
        for app_label, codename in PERMISSIONS:
            group.permissions.remove(*Permission.objects.filter(content_type__app_label=app_label, codename=codename))


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0001_chat"),
        ("moderation", "0004_chat_mutes"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
