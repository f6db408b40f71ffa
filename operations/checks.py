"""System checks for what a deployment gets wrong in the operator's room (`manage.py check`;
docs/operations.md lists them). Each names the setting or command that fixes it."""

import os
import secrets
import tempfile
from collections.abc import Sequence
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.cache import caches
from django.core.checks import CheckMessage, Tags, Warning, register
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
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


# Long enough for a cache across a network, short enough that `check --deploy` never hangs on
# one that does not answer (the Redis backends' own socket timeouts are shorter still).
CACHE_PROBE_SECONDS = 10


@register(Tags.caches, deploy=True)
def caches_answer(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """Each cache keeps what it is given. The Redis caches fail open (a read of a cache that
    does not answer is a miss), so an unreachable one would otherwise go unnoticed while
    sign-in rate limits and page-cache versions quietly stop holding."""
    return _probe_caches(database=False)


@register(Tags.caches, Tags.database, deploy=True)
def database_caches_answer(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[CheckMessage]:
    """The same of the caches kept in database tables, which only `--database` asks: their
    reachability is the database's."""
    return _probe_caches(database=True)


def _probe_caches(*, database: bool) -> list[CheckMessage]:
    found: list[CheckMessage] = []
    for alias, options in settings.CACHES.items():
        backend = options["BACKEND"]
        if backend.endswith("DatabaseCache") != database or backend.endswith("DummyCache"):
            continue
        probe, token = f"operations:check:{secrets.token_hex(8)}", secrets.token_hex(8)
        try:
            cache = caches[alias]
            cache.set(probe, token, timeout=CACHE_PROBE_SECONDS)
            kept = cache.get(probe) == token
            cache.delete(probe)
        except Exception as error:  # whatever the backend raises, the answer is "no"
            kept, reason = False, f"{type(error).__name__}: {error}"
        else:
            reason = "a value written was not read back"
        if not kept:
            found.append(
                Warning(
                    f"The {alias!r} cache does not answer ({reason}).",
                    hint="Check REDIS_URL (or CACHE_URL) and that the server is up; database "
                    "caches need `python manage.py migrate`.",
                    id="operations.W005",
                )
            )
    return found


@register(deploy=True)
def storage_writable(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """Where the site writes files while serving: uploads too big for memory (a library or path
    import) go to the upload folder, and teams' own files to the default storage."""
    found: list[CheckMessage] = []
    upload_dir = settings.FILE_UPLOAD_TEMP_DIR or tempfile.gettempdir()
    try:
        with tempfile.NamedTemporaryFile(dir=upload_dir):
            pass
    except OSError as error:
        found.append(
            _unwritable(f"the upload folder {upload_dir!r}", error, "FILE_UPLOAD_TEMP_DIR")
        )
    try:
        name = default_storage.save(
            f"operations-check-{secrets.token_hex(8)}.txt", ContentFile(b"probe")
        )
        default_storage.delete(name)
    except Exception as error:  # a storage backend's own errors are not all OSErrors
        found.append(_unwritable(f"MEDIA_ROOT {settings.MEDIA_ROOT!r}", error, "MEDIA_ROOT"))
    return found


def _unwritable(place: str, error: Exception, setting: str) -> Warning:
    return Warning(
        f"The site cannot write files to {place} ({error}).",
        hint=f"Make it writable by the app's user, or set {setting} to a folder that is.",
        id="operations.W006",
    )


# Domains no receiving server accepts mail from.
UNDELIVERABLE_SENDER_DOMAINS = {"localhost", "localhost.localdomain", "example.com"}


@register(deploy=True)
def mail_settings(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """A production mailer that sends from a domain nobody owns, or signs in without
    encryption: the first is refused or filed as spam by the readers' providers, the second
    gives the SMTP password to the network."""
    if settings.DEBUG:
        return []
    found: list[CheckMessage] = []
    _, sender = parseaddr(settings.DEFAULT_FROM_EMAIL)
    domain = sender.rpartition("@")[2].lower()
    if domain in UNDELIVERABLE_SENDER_DOMAINS or "." not in domain:
        found.append(
            Warning(
                f"Emails are sent from {sender!r}, an address no mail provider accepts mail from.",
                hint="Set DEFAULT_FROM_EMAIL to an address at your own domain, e.g. "
                "readinglist <noreply@readinglist.example.org>.",
                id="operations.W007",
            )
        )
    options = settings.MAILERS.get("default", {}).get("OPTIONS", {})
    if options.get("username") and not (options.get("use_tls") or options.get("use_ssl")):
        found.append(
            Warning(
                "The SMTP server is signed in to without TLS: its password crosses the network "
                "in clear.",
                hint="Use smtp+tls:// (port 587) or smtp+ssl:// (port 465) in EMAIL_URL.",
                id="operations.W008",
            )
        )
    return found


@register(deploy=True)
def outbound_limits(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """The outbound policy's limits (readinglist/http.py) must each allow a fetch and bound it:
    a deadline or body cap of zero fails every fetch. (A cap on fetches in flight below one
    counts as one.)"""
    limits = {
        "OUTBOUND_DEADLINE_SECONDS": settings.OUTBOUND_DEADLINE_SECONDS,
        "OUTBOUND_MAX_BYTES": settings.OUTBOUND_MAX_BYTES,
    }
    return [
        Warning(
            f"{name} is {value}: every outbound fetch (proposal autofill, link checks, "
            "feeds) fails.",
            hint=f"Set {name} to a positive number, or leave it out for the default.",
            id="operations.W009",
        )
        for name, value in limits.items()
        if not value > 0
    ]
