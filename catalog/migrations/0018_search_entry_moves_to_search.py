from django.db import migrations


class Migration(migrations.Migration):
    """Search entries belong to the search app from here on; their table and triggers stay."""

    dependencies = [
        ("catalog", "0017_source_keywords"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="SearchEntry")],
            database_operations=[],
        ),
    ]
