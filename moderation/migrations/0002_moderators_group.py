"""The "Moderators" group: every staff action in the admin, and reading the
pages those actions need; no adding, changing or deleting anything directly."""

from django.db import migrations

MODERATORS = "Moderators"

# (app label, codename). View: the admin pages staff moderate from. The rest:
# the staff actions (moderation/admin/actions.py checks them).
PERMISSIONS = [
    ("auth", "view_user"),
    ("accounts", "view_player"),
    ("accounts", "view_friendship"),
    ("accounts", "view_block"),
    ("accounts", "view_accesstoken"),
    ("games", "view_table"),
    ("games", "view_seat"),
    ("games", "view_match"),
    ("coins", "view_entry"),
    ("moderation", "view_guest"),
    ("moderation", "view_wallet"),
    ("moderation", "view_ban"),
    ("moderation", "view_auditentry"),
    ("moderation", "close_table"),
    ("moderation", "abort_match"),
    ("moderation", "kick_player"),
    ("moderation", "ban_user"),
    ("moderation", "adjust_wallet"),
]


def create_moderators(apps, schema_editor):
    from django.contrib.auth.management import create_permissions
    from django.contrib.contenttypes.management import create_contenttypes

    # Permissions are normally made after all migrations ran; this group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_contenttypes(app_config, verbosity=0, apps=apps)
        create_permissions(app_config, verbosity=0, apps=apps)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permissions = []
    for app_label, codename in PERMISSIONS:
        permissions.append(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.set(permissions)


def remove_moderators(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MODERATORS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0001_initial"),
        ("games", "0001_initial"),
        ("coins", "0003_house_and_mint_accounts"),
    ]

    operations = [migrations.RunPython(create_moderators, remove_moderators)]
