"""Fill the curator's inbox: new work from arXiv, releases of catalogued repositories, feeds."""

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from candidates.alerts import send_candidate_alerts
from candidates.collectors import (
    Fetch,
    arxiv_page_url,
    arxiv_pages,
    arxiv_query,
    configured_feeds,
    fetch_feed,
    mark_success,
    record_error,
    releases_url,
    repositories,
    since_last_success,
    utcnow,
)
from candidates.entries import Entry, FeedError, parse_feed
from candidates.known import known_keys
from candidates.models import Candidate
from candidates.releases import record_releases
from candidates.scoring import Scorer, catalog_scorer
from candidates.services import Added, RunNotes, add_entries

COLLECTORS = ("arxiv", "releases", "feeds")


def _date(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)
    except ValueError as exc:
        raise CommandError(f"--since: {text!r} is not a date (YYYY-MM-DD).") from exc


class Command(BaseCommand):
    help = (
        "Collect candidate sources from arXiv, the releases of catalogued repositories and the "
        "configured feeds (or from saved feed files with --feed); idempotent."
    )
    # Run daily by the project's schedule (readinglist/schedule.py).
    periodic = True

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--feed",
            action="append",
            metavar="FILE",
            help="Read a saved arXiv API Atom response, or an RSS/Atom file, instead of the "
            "network (may be repeated).",
        )
        parser.add_argument("--since", help="Collect arXiv work submitted since this date.")
        parser.add_argument("--dry-run", action="store_true", help="Print, store nothing.")
        parser.add_argument("--only", choices=COLLECTORS, action="append", help="Collectors.")
        parser.add_argument("--no-progress", action="store_true", help="No line per feed.")

    def handle(self, *args: str, **options: Any) -> None:
        self.dry_run, self.progress = options["dry_run"], not options["no_progress"]
        self.now = utcnow()
        self.scorer: Scorer = catalog_scorer()
        self.known = known_keys()
        self.totals = Added()
        self.notes = RunNotes()
        if options["feed"]:
            self._from_files([Path(name) for name in options["feed"]])
        else:
            self._from_network(options["only"] or COLLECTORS, options["since"])
        self._summary()

    # Saved files

    def _from_files(self, paths: list[Path]) -> None:
        for path in paths:
            try:
                parsed = parse_feed(path.read_bytes(), name=str(path))
            except OSError as exc:
                raise CommandError(f"{path}: {exc.strerror or exc}") from exc
            except FeedError as exc:
                raise CommandError(str(exc)) from exc
            self._skipped(path.name, parsed.skipped)
            is_arxiv = any(entry.arxiv for entry in parsed.entries)
            origin = Candidate.Origin.ARXIV if is_arxiv else Candidate.Origin.FEED
            self._add(parsed.entries, origin=origin, feed=path.name)

    # The network

    def _from_network(self, collectors: Iterable[str], since_text: str | None) -> None:
        outcomes: list[Fetch] = []
        if "arxiv" in collectors:
            outcomes += self._arxiv(since_text)
        if "releases" in collectors:
            outcomes += self._releases()
        if "feeds" in collectors:
            outcomes += self._feeds()
        failed = [o for o in outcomes if o.error]
        for outcome in failed:
            self.stderr.write(f"Skipped {outcome.name}: {outcome.error}")
        if outcomes and all(o.network_error for o in outcomes):
            raise CommandError(
                "No feed could be reached: this machine seems to have no network. "
                "Nothing was collected; run it again when the network is back."
            )

    def _arxiv(self, since_text: str | None) -> list[Fetch]:
        query_url = arxiv_page_url(arxiv_query(), 0)
        since = _date(since_text) if since_text else since_last_success(query_url, self.now)
        outcomes = []
        for outcome in arxiv_pages(since=since, now=self.now):
            outcomes.append(outcome)
            self._store(outcome, origin=Candidate.Origin.ARXIV)
        if outcomes and not any(o.error for o in outcomes) and not self.dry_run:
            mark_success(query_url, self.now)
        return outcomes

    def _releases(self) -> list[Fetch]:
        outcomes = []
        for source, repository in repositories():
            outcome = fetch_feed(f"{repository} releases", releases_url(repository), now=self.now)
            outcomes.append(outcome)
            self._skipped(outcome.name, outcome.skipped)
            try:
                flagged = record_releases(
                    source, outcome.entries, dry_run=self.dry_run, now=self.now
                )
            except Exception as exc:  # one repository's odd release must not stop the run
                record_error(outcome, f"Its releases could not be recorded: {exc}")
                continue
            for release in flagged:
                self._say(f"New upstream release: {source.title} {release.version}")
        return outcomes

    def _feeds(self) -> list[Fetch]:
        outcomes = []
        for name, url in configured_feeds():
            outcome = fetch_feed(name, url, now=self.now)
            outcomes.append(outcome)
            self._store(outcome, origin=Candidate.Origin.FEED)
        return outcomes

    def _store(self, outcome: Fetch, *, origin: str) -> None:
        """Add one feed's entries; whatever that raises is the feed's error, not the run's."""
        self._skipped(outcome.name, outcome.skipped)
        try:
            self._add(outcome.entries, origin=origin, feed=outcome.name)
        except Exception as exc:  # the later feeds and collectors still run
            record_error(outcome, f"Its entries could not be stored: {exc}")

    # Reporting

    def _add(self, entries: list[Entry], *, origin: str, feed: str) -> None:
        added = add_entries(
            entries,
            origin=origin,
            feed=feed,
            scorer=self.scorer,
            known=self.known,
            dry_run=self.dry_run,
            now=self.now,
        )
        self.totals.new += added.new
        self.totals.known += added.known
        self.totals.unusable += added.unusable
        self._say(f"{feed}: {len(entries)} entries, {len(added.new)} new, {added.known} known")
        if self.dry_run:
            for candidate in added.new:
                mark = "relevant" if candidate.relevant else "below the cut"
                self.stdout.write(
                    f"  would add ({candidate.relevance:.2f}, {mark}): {candidate.title}"
                )

    def _skipped(self, feed: str, reasons: list[str]) -> None:
        if reasons:
            count = len(reasons)
            self.stderr.write(
                f"Skipped {count} entr{'y' if count == 1 else 'ies'} of {feed}: {reasons[0]}"
            )
            self.notes.skip(feed, reasons)

    def _say(self, line: str) -> None:
        if self.progress:
            self.stdout.write(line)

    def _summary(self) -> None:
        verb = "Would add" if self.dry_run else "Added"
        self.stdout.write(
            f"{verb} {len(self.totals.new)} candidates ({self.totals.relevant} relevant); "
            f"{self.totals.known} already known, {self.totals.unusable} without a usable link."
        )
        if not self.dry_run:
            sent = send_candidate_alerts(now=self.now, notes=self.notes)
            if sent:
                self.stdout.write(f"Emailed {sent} maintainers about new candidates.")
