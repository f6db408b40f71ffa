# The normalised names of every source (title, short title, aliases, acronym, version bases) and
# their GIN expression index, which navigational search looks queries up in
# (search/names.py). Nothing runs on SQLite, which computes the names in Python.
from django.db import migrations

from catalog.migration_operations import PostgreSQLOnlySQL
from search.names import INSTALL_NAMES_SQL, REMOVE_NAMES_SQL


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0009_proposals_move_out"),
    ]

    operations = [
        PostgreSQLOnlySQL(INSTALL_NAMES_SQL, REMOVE_NAMES_SQL),
    ]
