"""Bookmark and Note now belong to the library and notes apps. Their tables stay as they are:
this removes the models from the accounts app's state only, and library.0001 and notes.0001
take them over under the same table names."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_user_time_zone"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Bookmark"),
                migrations.DeleteModel(name="Note"),
            ],
            database_operations=[],
        ),
    ]
