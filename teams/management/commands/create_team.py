from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.validators import is_single_line
from teams import services
from teams.emails import site_url


class Command(BaseCommand):
    help = "Create a team owned by an existing reader; print its page and a join link."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--owner", required=True, metavar="EMAIL")

    def handle(self, *args: Any, name: str, owner: str, **options: Any) -> None:
        user = get_user_model().objects.filter(email__iexact=owner).first()
        if user is None:
            raise CommandError(f"No reader has the address {owner}. They sign up first.")
        if not name.strip():
            raise CommandError("A team needs a name.")
        if not is_single_line(name):
            raise CommandError(
                "NAME: a team name is one line, without line breaks, tabs or other control "
                "characters (it goes into email subjects)."
            )
        with transaction.atomic():
            team = services.create_team(name=name, owner=user, by_operator=True)
            link = services.create_join_link(team=team, by=user)
        self.stdout.write(f"Created team {team.name} owned by {user.email}.")
        self.stdout.write(f"Team page: {site_url(team.get_absolute_url())}")
        self.stdout.write(f"Join link: {site_url(link.get_absolute_url())}")
