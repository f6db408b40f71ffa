from typing import Any

from django.core.management.base import BaseCommand

from proposals.alerts import send_daily_alerts


class Command(BaseCommand):
    # Run by the one schedule, readinglist/schedule.py.
    periodic = True
    help = "Email maintainers who opted in about proposals submitted since their last email."

    def handle(self, *args: Any, **options: Any) -> None:
        sent = send_daily_alerts()
        self.stdout.write(f"Sent {sent} email{'s' if sent != 1 else ''}.")
