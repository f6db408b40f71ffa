from datetime import timedelta

from django.contrib import admin
from django.utils import timezone

from readinglist.admin import ReadOnlyAdminMixin
from readinglist.schedule import job_named

from .heartbeats import JobAge, job_age
from .models import JobHeartbeat


@admin.register(JobHeartbeat)
class JobHeartbeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Each scheduled job's last runs, against its cadence: the admin's view of what /readyz
    reports. The schedule runner writes the rows."""

    list_display = ["name", "cadence", "last_succeeded", "age", "late", "last_failed"]
    readonly_fields = [
        "name",
        "cadence",
        "known_since",
        "last_started",
        "last_succeeded",
        "last_failed",
        "last_error",
    ]

    def _age(self, row: JobHeartbeat) -> JobAge | None:
        job = job_named(row.name)
        if job is None:
            return None
        return job_age(
            job, known_since=row.known_since, last_succeeded=row.last_succeeded, now=timezone.now()
        )

    @admin.display(description="cadence")
    def cadence(self, row: JobHeartbeat) -> str:
        job = job_named(row.name)
        return job.cadence if job else "no longer scheduled"

    @admin.display(description="since last success")
    def age(self, row: JobHeartbeat) -> str:
        found = self._age(row)
        if found is None:
            return "-"
        rounded = timedelta(minutes=round(found.age.total_seconds() / 60))
        return str(rounded) if found.succeeded_once else f"{rounded} (never succeeded)"

    @admin.display(description="late?", boolean=True)
    def late(self, row: JobHeartbeat) -> bool | None:
        found = self._age(row)
        return None if found is None else found.late
