from typing import Any

from django.core.management.base import BaseCommand

from discussions.emails import send_due


class Command(BaseCommand):
    # Run by the one schedule, readinglist/schedule.py.
    periodic = True
    help = (
        "Email readers their replies and mentions: the daily digest when due (from "
        "DIGEST_SEND_HOUR in the reader's time zone), and what readers who chose mail at once "
        "still have waiting. Meant to run hourly; a notification is mailed once."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = send_due()
        self.stdout.write(
            f"Sent {len(report.sent)} notification mail(s); {report.not_due} reader(s) not due yet."
        )
        if report.failed:
            self.stderr.write(
                f"{len(report.failed)} mail(s) could not be sent, to be tried again next run: "
                + ", ".join(report.failed)
            )
