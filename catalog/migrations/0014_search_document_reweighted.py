# The search document re-declared: each acronym plural ("GPUs") also indexed as its singular, so
# that "gpu" finds it (the stemmer keeps 'gpus' whole). Installed from the declaration like
# 0008, which rebuilds every entry; ranking weights and priors need no migration.
# Nothing runs on SQLite.
from django.db import migrations

from catalog.migration_operations import PostgreSQLOnlySQL
from search.document import without
from search.triggers import install_sql


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0013_search_entry_set_keys"),
    ]

    operations = [
        # Reversing leaves the set installed: the earlier schema uses the same names and behaviour.
        # Without the columns later migrations add: a SQL function's body is checked against
        # the table as it is here.
        PostgreSQLOnlySQL(install_sql(without("keywords")), migrations.RunSQL.noop),
    ]
