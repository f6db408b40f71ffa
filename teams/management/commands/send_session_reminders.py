from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from teams.sessions import send_due_reminders


class Command(BaseCommand):
    # Run by the one schedule, readinglist/schedule.py.
    periodic = True
    help = (
        "Email each team's members about sessions starting within TEAMS_REMINDER_DAYS. "
        "Run it from cron; a session is reminded about once, however often this runs. "
        "A mail that cannot be sent is reported and the others still go out."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = send_due_reminders()
        days = settings.TEAMS_REMINDER_DAYS
        self.stdout.write(
            f"Sent {report.sent} reminder(s) for {report.sessions} session(s) starting within "
            f"{days} day(s)."
        )
        for title, address in report.failed:
            self.stderr.write(f"Could not send the reminder for “{title}” to {address}.")
        if report.failed:
            self.stderr.write(f"{len(report.failed)} reminder(s) not sent; see the log.")
