# The search document re-declared: the parts of each camel-case name are indexed too
# ("FlashAttention" also as "flash attention"), and authors weigh least (D) and come after the
# summary. Installed from the declaration like 0008, which rebuilds every entry. Nothing runs on
# SQLite.
from django.db import migrations

from catalog.migration_operations import PostgreSQLOnlySQL
from search.document import without
from search.triggers import install_sql


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0015_source_identifiers_full_records"),
    ]

    operations = [
        # Reversing leaves the set installed: the earlier schema uses the same names and behaviour.
        # Without the columns later migrations add: a SQL function's body is checked against
        # the table as it is here.
        PostgreSQLOnlySQL(install_sql(without("keywords")), migrations.RunSQL.noop),
    ]
