from django.contrib.auth.management import create_permissions
from django.db import migrations

MAINTAINERS = "Maintainers"
# Maintainers triage the inbox: they read candidates and change their status (dismiss, snooze),
# mark upstream releases re-verified, and read each feed's last outcome.
PERMISSIONS = {
    ("candidates", "candidate"): ["view", "change"],
    ("candidates", "upstreamrelease"): ["view", "change"],
    ("candidates", "feedstate"): ["view"],
}


def _permissions(apps):
    app_config = apps.get_app_config("candidates")
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
        ("candidates", "0001_inbox"),
        ("catalog", "0002_maintainers_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
