from typing import Any

from django.core.management.base import BaseCommand, CommandError

from teams.domains import verify_pending_domains


class Command(BaseCommand):
    # Run hourly by the project's schedule (readinglist/schedule.py).
    periodic = True
    help = (
        "Look up the DNS TXT record of every team email domain still waiting for its proof, and "
        "let readers there join once the record is found. The project's schedule runs it hourly. "
        "When no lookup is answered at all (no network), it says so and exits with an error."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = verify_pending_domains()
        if report.offline:
            # A non-zero exit, so cron and monitoring notice a run that could check nothing.
            raise CommandError(report.offline)
        for label in report.verified:
            self.stdout.write(f"Verified {label}: its readers now join by themselves.")
        for label in report.waiting:
            self.stdout.write(f"Still waiting for the TXT record of {label}.")
        self.stdout.write(
            f"{len(report.verified)} domain(s) verified, {len(report.waiting)} still waiting."
        )
