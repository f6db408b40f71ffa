from django.db import migrations


class Migration(migrations.Migration):
    """Proposals and decisions belong to the proposals app from here on; their tables stay."""

    dependencies = [
        ("catalog", "0008_search_document_declared"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Decision"),
                migrations.DeleteModel(name="Proposal"),
            ],
            database_operations=[],
        ),
    ]
