from django.conf import settings
from django.core.management.base import BaseCommand

from teams.sessions import send_due_reminders


class Command(BaseCommand):
    # Run by the one schedule, readinglist/schedule.py.
    periodic = True
    help = (
        "Email each team's members about sessions starting within TEAMS_REMINDER_DAYS. "
        "Run it from cron; a session is reminded about once, however often this runs."
    )

    def handle(self, *args, **options):
        count = send_due_reminders()
        days = settings.TEAMS_REMINDER_DAYS
        self.stdout.write(f"Sent reminders for {count} session(s) starting within {days} day(s).")
