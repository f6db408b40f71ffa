# Search entries keep their topic and list sets as text keys too, generated from the arrays, so
# the topic and list facets group matches by one string instead of by an array of ids
# (search/set_keys.py). The model is unmanaged: its fields change state only. Nothing
# runs on SQLite, which has no search entries.
from django.db import migrations, models

from catalog.migration_operations import PostgreSQLOnlySQL
from search.set_keys import STORE_KEYS_SQL, UNSTORE_KEYS_SQL


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0012_source_names_stored"),
    ]

    operations = [
        PostgreSQLOnlySQL(STORE_KEYS_SQL, UNSTORE_KEYS_SQL),
        migrations.AddField(
            model_name="searchentry",
            name="topic_key",
            field=models.TextField(editable=False),
        ),
        migrations.AddField(
            model_name="searchentry",
            name="list_key",
            field=models.TextField(editable=False),
        ),
    ]
