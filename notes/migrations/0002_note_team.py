"""Notes can be shared with one team; the next migration moves today's team notes to one."""

import notes.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notes', '0001_initial'),
        ('teams', '0002_maintainer_permissions'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='note',
            name='team',
            field=models.ForeignKey(blank=True, null=True, on_delete=notes.models.unshare_with_deleted_team, related_name='notes', to='teams.team'),
        ),
        migrations.AlterField(
            model_name='note',
            name='visibility',
            field=models.CharField(choices=[('private', 'Private (only you)'), ('team', "Team (the team's members, with your name)")], default='private', max_length=10),
        ),
        migrations.AddIndex(
            model_name='note',
            index=models.Index(condition=models.Q(('team__isnull', False)), fields=['team', '-created'], name='note_team_created'),
        ),
    ]
