from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """The operator's room: backups and restores, the schedule runner and its jobs' heartbeats,
    maintainer creation, and the start-up hooks that concern the whole project rather than one
    app."""

    name = "operations"
    verbose_name = "Operations"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate
        from django_tasks_db.models import DBTaskResult

        from readinglist import health, pagecache
        from readinglist.cache_tables import create_cache_tables

        from . import checks  # noqa: F401  # registers the system checks
        from .heartbeats import readiness_report
        from .metrics import register_job_ages
        from .models import JobHeartbeat
        from .site_record import sync_site_record

        pagecache.exempt(
            DBTaskResult,
            reason="background tasks' bookkeeping shows on no page; what a task writes goes "
            "through registered models",
        )
        pagecache.exempt(
            JobHeartbeat,
            reason="the scheduler's bookkeeping shows only in the admin and /readyz, which are "
            "never cached",
        )
        health.add_report(readiness_report())
        register_job_ages()
        post_migrate.connect(sync_site_record, dispatch_uid="operations.sync_site_record")
        post_migrate.connect(create_cache_tables, dispatch_uid="readinglist.create_cache_tables")
