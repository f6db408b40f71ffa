from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from operations import liveness

# A recompute takes seconds and a burst of changes costs one, so a task that waited this long
# means no worker is taking tasks (stopped, or stuck on one).
WORKER_LATE_SECONDS = 600


class Command(BaseCommand):
    help = (
        "Exit 0 when a background process is healthy, 1 (with the reason) when it is not: the "
        "worker and cron containers' health checks."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--job", choices=["worker", "cron"], required=True)

    def handle(self, *args: Any, job: str, **options: Any) -> None:
        found = liveness.problem("cron") if job == "cron" else worker_problem()
        if found:
            raise CommandError(found, returncode=1)
        self.stdout.write(f"{job}: healthy")


def worker_problem() -> str | None:
    """A task waiting longer than WORKER_LATE_SECONDS, or None. A database that does not answer
    is not the worker's to fix, and restarting it would not help: that counts as healthy."""
    try:
        ready = list(
            DBTaskResult.objects.ready()
            .order_by("enqueued_at")
            .values_list("enqueued_at", "run_after")[:100]
        )
    except DatabaseError:
        return None
    if not ready:
        return None
    # A task told to run later is due from then, not from when it was queued.
    never = get_date_max()
    due = min(enqueued if run_after == never else run_after for enqueued, run_after in ready)
    waited = (timezone.now() - due).total_seconds()
    if waited > WORKER_LATE_SECONDS:
        return f"worker: a task has waited {waited:.0f} s to run (is the worker stuck?)"
    return None
