from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.linkcheck import CheckConfig, check_sources
from catalog.models import Source
from catalog.progress import Progress, raw_stream


class Command(BaseCommand):
    # Run weekly by the project's schedule (readinglist/schedule.py).
    periodic = True
    help = (
        "Check every source URL (bounded concurrency, timeouts, retries, a polite user agent) "
        "and record link status, last-checked time and since when a link fails. When no host "
        "answers at all (no network), nothing is recorded and the command exits with an error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slug", action="append", default=[], help="Only this source.")
        parser.add_argument(
            "--status",
            choices=Source.LinkStatus.values,
            help="Only sources whose last check had this status (e.g. broken).",
        )
        parser.add_argument("--workers", type=int, default=8, help="Checks in flight at once.")
        parser.add_argument(
            "--per-host", type=int, default=2, help="Requests in flight per host (1-2 is polite)."
        )
        parser.add_argument(
            "--connect-timeout",
            type=float,
            default=5.0,
            help="Seconds to connect; with --read-timeout, the most one request may take.",
        )
        parser.add_argument(
            "--read-timeout",
            type=float,
            default=10.0,
            help="Seconds to answer; with --connect-timeout, the most one request may take.",
        )
        parser.add_argument(
            "--url-deadline", type=float, default=30.0, help="Seconds per URL, retries included."
        )
        parser.add_argument(
            "--deadline",
            type=float,
            default=900.0,
            help="Seconds for the whole run; what is not done by then stays as it was.",
        )
        parser.add_argument("--retries", type=int, default=2, help="Retries on 5xx and timeouts.")
        parser.add_argument("--backoff", type=float, default=1.0, help="First retry pause (s).")
        parser.add_argument("--max-kb", type=int, default=64, help="Most of a body ever read.")
        parser.add_argument("--max-redirects", type=int, default=8)
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["workers"] < 1 or not 1 <= options["per_host"] <= 4:
            raise CommandError("--workers must be at least 1 and --per-host between 1 and 4.")
        if options["deadline"] <= 0 or options["url_deadline"] <= 0:
            raise CommandError("Deadlines must be positive numbers of seconds.")
        chosen = Source.objects.exclude(url="").order_by("slug")
        if options["slug"]:
            chosen = chosen.filter(slug__in=options["slug"])
        if options["status"]:
            chosen = chosen.filter(link_status=options["status"])
        sources = list(chosen)
        config = CheckConfig(
            connect_timeout=options["connect_timeout"],
            read_timeout=options["read_timeout"],
            url_deadline=options["url_deadline"],
            retries=max(options["retries"], 0),
            backoff=max(options["backoff"], 0.0),
            max_bytes=max(options["max_kb"], 1) * 1024,
            max_redirects=max(options["max_redirects"], 0),
            per_host=options["per_host"],
            workers=options["workers"],
            blocking_hosts=tuple(host.lower() for host in settings.LINKCHECK_BLOCKING_HOSTS),
        )
        show_progress = not options["no_progress"] and options["verbosity"] > 0
        stream = raw_stream(self.stderr)
        with Progress(len(sources), "links", stream=stream, enabled=show_progress) as bar:
            summary = check_sources(
                sources, config=config, deadline=options["deadline"], progress=bar
            )
        if summary.offline:
            # A non-zero exit, so cron and monitoring notice a run that checked nothing.
            raise CommandError(next(summary.lines()))
        if options["verbosity"] > 0:
            for line in summary.lines():
                self.stdout.write(line)
