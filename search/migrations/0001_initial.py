"""Search entries move from the catalog app into search, keeping their table.

The model is unmanaged (PostgreSQL's triggers write the table, and SQLite has none), so only
Django's idea of which app owns it changes: the table `catalog_search_entry`, its rows, indexes
and the triggers that name it stay as they are. Its content type is relabelled rather than
recreated, so whatever points at it keeps pointing at it.
"""

import django.contrib.postgres.fields
import django.contrib.postgres.search
import django.db.models.deletion
from django.db import migrations, models

MOVED_MODELS = ["searchentry"]


def _relabel(apps, old_label, new_label):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED_MODELS:
        if ContentType.objects.filter(app_label=new_label, model=model).exists():
            continue
        ContentType.objects.filter(app_label=old_label, model=model).update(app_label=new_label)


def move_content_types(apps, schema_editor):
    _relabel(apps, "catalog", "search")


def restore_content_types(apps, schema_editor):
    _relabel(apps, "search", "catalog")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("catalog", "0018_search_entry_moves_to_search"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="SearchEntry",
                    fields=[
                        (
                            "source",
                            models.OneToOneField(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                primary_key=True,
                                related_name="search_entry",
                                serialize=False,
                                to="catalog.source",
                            ),
                        ),
                        ("document", django.contrib.postgres.search.SearchVectorField()),
                        ("title", models.CharField(max_length=300)),
                        (
                            "tier",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                to="catalog.tier",
                            ),
                        ),
                        ("kind", models.CharField(max_length=20)),
                        ("year", models.PositiveSmallIntegerField(null=True)),
                        ("is_primary", models.BooleanField()),
                        (
                            "topic_ids",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.BigIntegerField(), size=None
                            ),
                        ),
                        ("created", models.DateTimeField()),
                        (
                            "list_ids",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.BigIntegerField(), default=list, size=None
                            ),
                        ),
                        ("first_list", models.IntegerField(null=True)),
                        ("first_section", models.IntegerField(null=True)),
                        ("first_position", models.IntegerField(null=True)),
                        ("topic_key", models.TextField(editable=False)),
                        ("list_key", models.TextField(editable=False)),
                    ],
                    options={
                        "db_table": "catalog_search_entry",
                        "managed": False,
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
