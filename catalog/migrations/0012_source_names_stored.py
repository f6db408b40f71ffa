# Each source's normalised names (search/names.py) stored in a generated column with its
# own GIN index, so looking a query's names up reads them instead of computing them per source.
# Nothing runs on SQLite, which computes the names in Python.
from django.db import migrations

from catalog.migration_operations import PostgreSQLOnlySQL
from search.names import STORE_NAMES_SQL, UNSTORE_NAMES_SQL


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0011_source_neighbours"),
    ]

    operations = [
        PostgreSQLOnlySQL(STORE_NAMES_SQL, UNSTORE_NAMES_SQL),
    ]
