# The search triggers and functions, installed from their declaration in search/
# (document.py and triggers.py) instead of SQL written by hand, and every entry rebuilt from it.
# A change to the declaration is installed by a new migration with this same operation;
# tests/search/test_schema.py fails until the database matches the declaration.
# Nothing runs on SQLite.
from django.db import migrations

from catalog.migration_operations import PostgreSQLOnlySQL
from search.document import without
from search.triggers import install_sql


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0007_search_entry_lists"),
    ]

    operations = [
        # Reversing leaves the set installed: the earlier schema uses the same names and behaviour.
        # Without the columns later migrations add: a SQL function's body is checked against
        # the table as it is here.
        PostgreSQLOnlySQL(install_sql(without("keywords")), migrations.RunSQL.noop),
    ]
