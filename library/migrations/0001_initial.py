"""Bookmark, taken over from the accounts app with its table (accounts_bookmark) and its rows.

The table already exists, so the model is created in the migration state only. Its content type
moves to this app, so admin log entries and permissions that point at it stay valid.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def move_content_type(from_app, to_app, model):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        types = ContentType.objects.using(db)
        if not types.filter(app_label=to_app, model=model).exists():
            types.filter(app_label=from_app, model=model).update(app_label=to_app)

    return move


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0006_bookmark_note_move_out"),
        ("catalog", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Bookmark",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("to_read", "To read"),
                                    ("reading", "Reading"),
                                    ("read", "Read"),
                                ],
                                default="to_read",
                                max_length=10,
                            ),
                        ),
                        ("saved_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("updated", models.DateTimeField(auto_now=True)),
                        (
                            "source",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="bookmarks",
                                to="catalog.source",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="bookmarks",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "accounts_bookmark",
                        "ordering": ["-saved_at", "-pk"],
                        "indexes": [
                            models.Index(fields=["user", "status"], name="bookmark_user_status")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "source"), name="bookmark_unique_user_source"
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("status__in", ["to_read", "reading", "read"])),
                                name="bookmark_status_valid",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            move_content_type("accounts", "library", "bookmark"),
            move_content_type("library", "accounts", "bookmark"),
        ),
    ]
