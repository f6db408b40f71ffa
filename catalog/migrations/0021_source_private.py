# Private sources: a status the default manager leaves out, URLs that private sources may
# share, and the search triggers installed again so a private source's words never enter the
# vocabulary (its entry was already skipped: entries are for published sources only).
import django.db.models.manager
from django.db import migrations, models

from catalog.migration_operations import PostgreSQLOnlySQL
from search.triggers import install_sql


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0020_citation_preference'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='source',
            options={'base_manager_name': 'all_objects', 'ordering': ['title']},
        ),
        migrations.AlterModelManagers(
            name='source',
            managers=[
                ('objects', django.db.models.manager.Manager()),
                ('all_objects', django.db.models.manager.Manager()),
            ],
        ),
        migrations.RemoveConstraint(
            model_name='source',
            name='source_unique_url',
        ),
        migrations.AlterField(
            model_name='source',
            name='status',
            field=models.CharField(choices=[('published', 'Published'), ('retired', 'Retired'), ('private', 'Private')], default='published', max_length=10),
        ),
        migrations.AddConstraint(
            model_name='source',
            constraint=models.UniqueConstraint(condition=models.Q(models.Q(('url', ''), _negated=True), models.Q(('status', 'private'), _negated=True)), fields=('url',), name='source_unique_url'),
        ),
        PostgreSQLOnlySQL(install_sql(), migrations.RunSQL.noop),
    ]
