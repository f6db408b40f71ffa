"""Migration operations for schema only one database vendor understands."""

from django.db import migrations


class PostgreSQLOnlySQL(migrations.RunSQL):
    """RunSQL that does nothing on other databases, so SQLite migrations stay valid.

    The search schema (catalog/search/triggers.py) is installed through it.
    """

    def database_forwards(self, app_label, schema_editor, from_state, to_state) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)
