# Keywords: a reader's words for what a source is about, searched beside the summary. The search
# document is installed again from the declaration, which now has them, and every entry rebuilt.
# Nothing but the column is added on SQLite.
from django.db import migrations, models

from catalog.migration_operations import PostgreSQLOnlySQL
from search.document import without
from search.triggers import install_sql


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0016_search_document_camel_case_authors_last"),
    ]

    operations = [
        migrations.AddField(
            model_name="source",
            name="keywords",
            field=models.TextField(
                blank=True,
                help_text=(
                    "Phrases a reader might search with that the title and summary do not use: "
                    "the problem it solves, plain words for its ideas. Separated by semicolons."
                ),
            ),
        ),
        # Reversed, the document without them is installed before the column goes.
        PostgreSQLOnlySQL(install_sql(), install_sql(without("keywords"))),
    ]
