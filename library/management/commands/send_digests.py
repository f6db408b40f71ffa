from typing import Any

from django.core.management.base import BaseCommand

from library.digests import send_digests


class Command(BaseCommand):
    # Run by the one schedule, readinglist/schedule.py.
    periodic = True
    help = (
        "Email each reader the digest of what they follow, when it is due (daily or weekly, from "
        "DIGEST_SEND_HOUR in the reader's time zone). Meant to run hourly. Safe to run more than "
        "once: a reader gets one digest per period."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = send_digests()
        self.stdout.write(
            f"Sent {len(report.sent)} digest(s); {report.already_sent} already sent this period, "
            f"{report.not_yet_due} not due yet, {report.nothing_new} with nothing new, "
            f"{report.skipped_unverified} skipped (address not verified)."
        )
        if report.failed:
            self.stderr.write(
                f"{len(report.failed)} digest(s) could not be sent, to be tried again next run: "
                + ", ".join(report.failed)
            )
