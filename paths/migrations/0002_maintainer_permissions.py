from django.contrib.auth.management import create_permissions
from django.db import migrations

MAINTAINERS = "Maintainers"
# Maintainers read the paths proposed to the catalog and adopt them as curated lists (adopting
# sets the path's `adopted_as`, a change); they read a path's sections and steps in its page.
PERMISSIONS = {
    ("paths", "path"): ["view", "change"],
    ("paths", "pathsection"): ["view"],
    ("paths", "pathstep"): ["view"],
}


def _permissions(apps):
    app_config = apps.get_app_config("paths")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0)
    Permission = apps.get_model("auth", "Permission")
    for (app_label, model), actions in PERMISSIONS.items():
        yield from Permission.objects.filter(
            content_type__app_label=app_label,
            codename__in=[f"{action}_{model}" for action in actions],
        )


def grant(apps, schema_editor):
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name=MAINTAINERS)
    group.permissions.add(*_permissions(apps))


def revoke(apps, schema_editor):
    group = apps.get_model("auth", "Group").objects.filter(name=MAINTAINERS).first()
    if group is not None:
        group.permissions.remove(*_permissions(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("paths", "0001_initial"),
        ("catalog", "0002_maintainers_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
