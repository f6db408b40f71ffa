from django.contrib.auth.management import create_permissions
from django.db import migrations

MAINTAINERS = "Maintainers"
# Curation edits everything in the catalog; sources are retired, never deleted.
PERMISSIONS = {
    "source": ["view", "add", "change"],
    "topic": ["view", "add", "change"],
    "tier": ["view", "add", "change"],
    "readinglist": ["view", "add", "change"],
    "listsection": ["view", "add", "change", "delete"],
    "listentry": ["view", "add", "change", "delete"],
}


def create_group(apps, schema_editor):
    app_config = apps.get_app_config("catalog")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=MAINTAINERS)
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="catalog", codename__in=codenames)
    )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=MAINTAINERS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
