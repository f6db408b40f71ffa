import getpass
import os
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email

from operations.schema import migrate_if_pending


class Command(BaseCommand):
    help = "Create (or promote) a maintainer: staff access to the admin, in the Maintainers group."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email")
        parser.add_argument(
            "--password-from-env",
            metavar="VAR",
            help="Read the password from this environment variable instead of prompting.",
        )

    def handle(
        self, *args: Any, email: str, password_from_env: str | None = None, **options: Any
    ) -> None:
        try:
            validate_email(email)
        except ValidationError as exc:
            raise CommandError(f"'{email}' is not a valid email address.") from exc
        if migrate_if_pending():
            self.stdout.write("The database was not migrated: applied its migrations first.")
        User = get_user_model()
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            password = self.read_password(email, password_from_env)
            user = User(email=email)
            try:
                validate_password(password, user)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from exc
            user.set_password(password)
            created = True
        else:
            created = False
        user.is_staff = True
        user.save()
        user.groups.add(Group.objects.get(name="Maintainers"))
        verb = "Created" if created else "Promoted"
        self.stdout.write(self.style.SUCCESS(f"{verb} maintainer {user.email}."))

    def read_password(self, email: str, variable: str | None) -> str:
        """From the named environment variable, or typed twice at the prompt."""
        if variable:
            if variable not in os.environ:
                raise CommandError(f"The environment variable {variable} is not set.")
            return os.environ[variable]
        password = getpass.getpass(f"Password for {email}: ")
        if getpass.getpass("The same password again: ") != password:
            raise CommandError("The two passwords differ; nothing was changed.")
        return password
