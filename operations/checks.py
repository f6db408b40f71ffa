"""System checks for what a deployment gets wrong in the operator's room (`manage.py check`;
docs/operations.md lists them). Each names the setting or command that fixes it."""

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Warning, register
from django.db import DatabaseError, connections


@register()
def heartbeats_table(
    app_configs: Sequence[AppConfig] | None, databases: Sequence[str] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    """The schedule's jobs need their heartbeat table: an upgrade that was not migrated. Only
    asked of the databases Django names to database checks, and quiet on a database nothing
    was ever migrated into (a fresh one is migrate's to set up, not a mistake)."""
    from .models import JobHeartbeat

    table = JobHeartbeat._meta.db_table
    found: list[CheckMessage] = []
    for alias in databases or ():
        try:
            with connections[alias].cursor() as cursor:
                tables = connections[alias].introspection.table_names(cursor)
        except DatabaseError:
            continue  # an unreachable database is the database checks' to report
        if "django_migrations" in tables and table not in tables:
            found.append(
                Warning(
                    f"The scheduled jobs cannot record their heartbeats: the table {table} "
                    f"does not exist in the {alias!r} database, so /readyz and the admin "
                    "cannot tell a job that stopped.",
                    hint="Run `python manage.py migrate`.",
                    id="operations.W001",
                )
            )
    return found


@register()
def backup_dir(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """In production `manage.py backup` without --output writes into BACKUP_DIR: say so before
    the first backup fails."""
    if settings.DEBUG:
        return []
    folder = Path(settings.BACKUP_DIR)
    if not folder.is_dir():
        problem = "does not exist (or is not a folder)"
    elif not os.access(folder, os.W_OK | os.X_OK):
        problem = "is not writable by this user"
    else:
        return []
    return [
        Warning(
            f"BACKUP_DIR {str(folder)!r} {problem}: `manage.py backup` without --output "
            "would fail.",
            hint="Create the folder (the compose stack mounts the backups volume at /backups) "
            "or set BACKUP_DIR to a writable one.",
            id="operations.W002",
        )
    ]


@register(deploy=True)
def mail_transport(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """A production site whose mailer prints instead of sending loses every confirmation,
    password reset, invitation and digest without an error anywhere."""
    backend = settings.MAILERS.get("default", {}).get("BACKEND", "")
    if settings.DEBUG or not backend.endswith("ConsoleEmailBackend"):
        return []
    return [
        Warning(
            "Emails are printed to the log, not sent (EMAIL_URL is consolemail://): sign-up "
            "confirmations, password resets, invitations and digests reach nobody.",
            hint="Set EMAIL_URL to your SMTP server, e.g. smtp+tls://user:password@host:587.",
            id="operations.W003",
        )
    ]


@register(deploy=True)
def outbound_policy(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """Hosts exempt from the outbound guard may be private addresses: in production that
    reopens the server-side request forgery the guard closes."""
    exempt = list(getattr(settings, "METADATA_ALLOWED_HOSTS", []))
    if settings.DEBUG or not exempt:
        return []
    return [
        Warning(
            f"METADATA_ALLOWED_HOSTS exempts {', '.join(exempt)} from the outbound address "
            "check: a reader's link to one of them reaches it even on a private address.",
            hint="Leave METADATA_ALLOWED_HOSTS empty in production (it is for tests and a "
            "local mirror).",
            id="operations.W004",
        )
    ]
