from django.db import models


class JobHeartbeat(models.Model):
    """When a scheduled job (readinglist/schedule.py) last started, succeeded and failed, written
    by the schedule runner around each run, so a job that stopped running can be noticed."""

    name = models.CharField(max_length=100, unique=True)
    # When the runner first knew the job: a job that never succeeded is late this long after.
    known_since = models.DateTimeField(auto_now_add=True)
    last_started = models.DateTimeField(null=True, blank=True)
    last_succeeded = models.DateTimeField(null=True, blank=True)
    last_failed = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
