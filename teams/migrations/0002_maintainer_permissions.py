from django.contrib.auth.management import create_permissions
from django.db import migrations

MAINTAINERS = "Maintainers"
# Maintainers manage teams and readers; readers' passwords stay out of reach (accounts/admin.py).
PERMISSIONS = {
    ("accounts", "user"): ["view", "change"],
    ("teams", "team"): ["view", "add", "change", "delete"],
    ("teams", "membership"): ["view", "add", "change", "delete"],
    ("teams", "session"): ["view", "change", "delete"],
    ("teams", "invitation"): ["view", "change"],
    ("teams", "joinlink"): ["view", "change"],
}


def _permissions(apps):
    for label in ("accounts", "teams"):
        app_config = apps.get_app_config(label)
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
        ("teams", "0001_initial"),
        ("accounts", "0005_user_time_zone"),
        ("catalog", "0002_maintainers_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
