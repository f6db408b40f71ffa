"""Each scheduled job's age for Prometheus, read from the heartbeats at every scrape: the same
figures /readyz gives, so an alert can fire on `readinglist_job_late == 1`."""

import logging
from collections.abc import Iterator

from django.db import DatabaseError
from django.utils import timezone
from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from .heartbeats import ages
from .models import JobHeartbeat

logger = logging.getLogger(__name__)


def _families() -> tuple[GaugeMetricFamily, GaugeMetricFamily]:
    age = GaugeMetricFamily(
        "readinglist_job_age_seconds",
        "Seconds since the scheduled job last succeeded (or was first known to the runner).",
        labels=["job"],
    )
    late = GaugeMetricFamily(
        "readinglist_job_late",
        "1 when the job is more than twice its period late, else 0.",
        labels=["job"],
    )
    return age, late


class JobAgeCollector(Collector):
    def describe(self) -> Iterator[GaugeMetricFamily]:
        # Without describe(), registering would call collect() and read the database while
        # the apps are still loading.
        yield from _families()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        age, late = _families()
        try:
            rows = list(JobHeartbeat.objects.values_list("name", "known_since", "last_succeeded"))
        except DatabaseError as error:
            # A scrape during a database outage still answers, without the jobs.
            logger.warning("job ages not read for the metrics: %s", error)
            rows = []
        for job in ages(rows, timezone.now()):
            age.add_metric([job.name], job.age.total_seconds())
            late.add_metric([job.name], 1.0 if job.late else 0.0)
        yield age
        yield late


_registered: list[JobAgeCollector] = []


def register_job_ages() -> None:
    """Add the job ages to the metrics once per process."""
    if not _registered:
        _registered.append(JobAgeCollector())
        REGISTRY.register(_registered[0])
