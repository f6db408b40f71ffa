"""Team notes move to a team every existing reader joins, so nobody loses what they could read.

Before teams, a "team" note reached every signed-in reader and team activity counted every
reader. One team, "Everyone", stands for that: every reader existing now joins it, the earliest
staff member (or, without one, the earliest reader) as its owner, and every team note is shared
with it. It lists no auto-join domains, so readers who sign up later do not join it by
themselves. No cached page needs dropping: each reader sees what they saw before, and pages
showing team data are keyed by team versions from now on, so older copies are never found.
"""

from django.db import migrations
from django.db.models import Q

TEAM_NAME = "Everyone"
TEAM_SLUG = "everyone"
DESCRIPTION = "Every reader who had an account when the site gained teams."


def _free_slug(Team, db):
    slug, counter = TEAM_SLUG, 2
    while Team.objects.using(db).filter(slug=slug).exists():
        slug, counter = f"{TEAM_SLUG}-{counter}", counter + 1
    return slug


def _first_owner(User, db):
    readers = User.objects.using(db).order_by("date_joined", "pk")
    staff = readers.filter(
        Q(is_superuser=True) | Q(is_staff=True) | Q(groups__name="Maintainers")
    ).distinct()
    return staff.first() or readers.first()


def move_team_notes(apps, schema_editor):
    db = schema_editor.connection.alias
    User = apps.get_model("accounts", "User")
    Team = apps.get_model("teams", "Team")
    Membership = apps.get_model("teams", "Membership")
    Note = apps.get_model("notes", "Note")
    owner = _first_owner(User, db)
    if owner is None:
        return  # a new site: nobody could read anything yet
    team = Team.objects.using(db).create(
        name=TEAM_NAME, slug=_free_slug(Team, db), description=DESCRIPTION
    )
    Membership.objects.using(db).bulk_create(
        [
            Membership(team=team, user_id=pk, role="owner" if pk == owner.pk else "member")
            for pk in User.objects.using(db).order_by("pk").values_list("pk", flat=True)
        ]
    )
    Note.objects.using(db).filter(visibility="team").update(team=team)


def unshare_from_teams(apps, schema_editor):
    """Back to team notes that reach every reader; the team and its members stay."""
    Note = apps.get_model("notes", "Note")
    Note.objects.using(schema_editor.connection.alias).filter(team__isnull=False).update(team=None)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("notes", "0002_note_team"),
        ("teams", "0002_maintainer_permissions"),
    ]

    operations = [
        migrations.RunPython(move_team_notes, unshare_from_teams),
    ]
