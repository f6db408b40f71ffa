from django.contrib.auth.management import create_permissions
from django.db import migrations

MAINTAINERS = "Maintainers"
# Maintainers see teams' own sources and delete one a team should not keep, like the rest of
# teams (teams 0002); a team edits its sources on its own pages.
CODENAMES = ["view_teamsource", "delete_teamsource"]


def _permissions(apps):
    app_config = apps.get_app_config("teamsources")
    app_config.models_module = True
    create_permissions(app_config, verbosity=0)
    Permission = apps.get_model("auth", "Permission")
    return Permission.objects.filter(
        content_type__app_label="teamsources", codename__in=CODENAMES
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
        ("teamsources", "0001_initial"),
        ("teams", "0002_maintainer_permissions"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
