"""Note, taken over from the accounts app with its table (accounts_note) and its rows.

The table already exists, so the model is created in the migration state only. Its content type
moves to this app, so admin log entries and permissions that point at it stay valid.
"""

import django.db.models.deletion
import django.db.models.functions.text
import django.db.models.lookups
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
                    name='Note',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('body', models.TextField(help_text='Markdown.', max_length=20000)),
                        ('body_html', models.TextField(editable=False)),
                        ('quote', models.TextField(blank=True, max_length=2000)),
                        ('locator', models.CharField(blank=True, help_text='Page, section or figure.', max_length=200)),
                        ('visibility', models.CharField(choices=[('private', 'Private (only you)'), ('team', 'Team (every signed-in member, with your name)')], default='private', max_length=10)),
                        ('created', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                        ('edited', models.DateTimeField(blank=True, editable=False, null=True)),
                        ('deleted_at', models.DateTimeField(blank=True, editable=False, null=True)),
                        ('source', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='notes', to='catalog.source')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notes', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'accounts_note',
                        'ordering': ['-created', '-pk'],
                        'indexes': [models.Index(fields=['source', 'visibility', '-created'], name='note_source_vis_created'), models.Index(fields=['user', '-created'], name='note_user_created'), models.Index(condition=models.Q(('deleted_at__isnull', False)), fields=['deleted_at'], name='note_deleted_at')],
                        'constraints': [models.CheckConstraint(condition=models.Q(('body', ''), _negated=True), name='note_body_not_empty'), models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('body'), 20000), name='note_body_max_length'), models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('quote'), 2000), name='note_quote_max_length'), models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('locator'), 200), name='note_locator_max_length'), models.CheckConstraint(condition=models.Q(('visibility__in', ['private', 'team'])), name='note_visibility_valid'), models.CheckConstraint(condition=models.Q(('edited__isnull', True), ('edited__gte', models.F('created')), _connector='OR'), name='note_edited_after_created')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            move_content_type("accounts", "notes", "note"),
            move_content_type("notes", "accounts", "note"),
        ),
    ]
