from django.db import migrations


class Migration(migrations.Migration):
    """The change log's and the reminders' fields leave the user row: catalog and teams copied
    them into tables of their own first (their migrations run before this one)."""

    dependencies = [
        ("accounts", "0008_user_session_reminders"),
    ]

    operations = [
        migrations.RemoveField(model_name="user", name="last_seen_changes_at"),
        migrations.RemoveField(model_name="user", name="session_reminders"),
    ]
