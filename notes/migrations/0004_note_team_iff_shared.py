"""A note has a team exactly when it is shared.

Its own migration: PostgreSQL refuses to alter a table in the transaction that just updated its
rows (the foreign keys' deferred checks are still pending).
"""

from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    dependencies = [("notes", "0003_team_notes_to_everyone")]

    operations = [
        migrations.AddConstraint(
            model_name="note",
            constraint=models.CheckConstraint(
                condition=Q(visibility="team", team__isnull=False)
                | Q(visibility="private", team__isnull=True),
                name="note_team_iff_shared",
            ),
        ),
    ]
