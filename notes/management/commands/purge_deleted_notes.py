from typing import Any

from django.core.management.base import BaseCommand

from notes.services import purge_deleted_notes


class Command(BaseCommand):
    # Run by the one schedule, readinglist/schedule.py.
    periodic = True
    help = (
        "Delete for good the notes readers deleted more than a minute ago. Writes purge them "
        "too; run this from cron when the site is quiet for long stretches."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = purge_deleted_notes()
        self.stdout.write(f"Purged {count} deleted note{'s' if count != 1 else ''}.")
