import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

BATCH = 2_000


def copy_from_users(apps, schema_editor):
    """Every reader keeps their choice, on or off."""
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    ReminderSettings = apps.get_model("teams", "ReminderSettings")
    choices = User.objects.order_by("pk").values_list("pk", "session_reminders")
    rows = (
        ReminderSettings(user_id=pk, session_reminders=wanted)
        for pk, wanted in choices.iterator()
    )
    ReminderSettings.objects.bulk_create(rows, batch_size=BATCH)


def copy_to_users(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    ReminderSettings = apps.get_model("teams", "ReminderSettings")
    off = ReminderSettings.objects.filter(session_reminders=False).values("user_id")
    User.objects.filter(pk__in=off).update(session_reminders=False)


class Migration(migrations.Migration):
    """A reader's choice of reminders before sessions moves from the user row to teams, which
    sends them."""

    dependencies = [
        ("accounts", "0008_user_session_reminders"),
        ("teams", "0007_team_departures"),
    ]
    # The user row's field is copied here before accounts drops it.
    run_before = [("accounts", "0009_user_fields_move_out")]

    operations = [
        migrations.CreateModel(
            name="ReminderSettings",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="reminder_settings",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "session_reminders",
                    models.BooleanField(
                        default=True,
                        verbose_name="email me before my teams' reading-group sessions",
                    ),
                ),
            ],
            options={
                "verbose_name": "reminder settings",
                "verbose_name_plural": "reminder settings",
            },
        ),
        migrations.RunPython(copy_from_users, copy_to_users, elidable=False),
    ]
