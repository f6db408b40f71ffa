import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

BATCH = 2_000


def copy_from_users(apps, schema_editor):
    """Every reader who saw the change log keeps the moment they saw it."""
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    ChangeLogSeen = apps.get_model("catalog", "ChangeLogSeen")
    seen = User.objects.filter(last_seen_changes_at__isnull=False).order_by("pk")
    rows = (
        ChangeLogSeen(user_id=pk, seen_at=moment)
        for pk, moment in seen.values_list("pk", "last_seen_changes_at").iterator()
    )
    ChangeLogSeen.objects.bulk_create(rows, batch_size=BATCH)


def copy_to_users(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    ChangeLogSeen = apps.get_model("catalog", "ChangeLogSeen")
    for pk, moment in ChangeLogSeen.objects.values_list("user_id", "seen_at").iterator():
        User.objects.filter(pk=pk).update(last_seen_changes_at=moment)


class Migration(migrations.Migration):
    """When each reader last saw the change log moves from the user row to catalog, which keeps
    the change log."""

    dependencies = [
        ("accounts", "0008_user_session_reminders"),
        ("catalog", "0018_search_entry_moves_to_search"),
    ]
    # The user row's field is copied here before accounts drops it.
    run_before = [("accounts", "0009_user_fields_move_out")]

    operations = [
        migrations.CreateModel(
            name="ChangeLogSeen",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="changelog_seen",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("seen_at", models.DateTimeField()),
            ],
            options={
                "verbose_name": "change log seen",
                "verbose_name_plural": "change log seen",
            },
        ),
        migrations.RunPython(copy_from_users, copy_to_users, elidable=False),
    ]
