"""Fill the curator's inbox: new work from arXiv, releases of catalogued repositories, feeds."""

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from candidates.alerts import send_candidate_alerts
from candidates.collectors import (
    Fetch,
    arxiv_page_url,
    arxiv_pages,
    arxiv_query,
    configured_feeds,
    fetch_feed,
    held_back,
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
from readinglist.outage import OutageWatch

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
        self.cap = max(settings.CANDIDATES_MAX_NEW_PER_FEED, 1)
        self.added_per_feed: dict[str, int] = {}
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
        # A feed no host answered for is its own failure only once some host did answer.
        watch: OutageWatch[Fetch] = OutageWatch(lambda o: record_error(o, o.error))
        for outcome in outcomes:
            watch.arrived(outcome, reached=not outcome.network_error)
        if watch.offline:
            raise CommandError(
                watch.message("feed", f"{watch.held[0].name}: {watch.held[0].error}")
            )
        for outcome in outcomes:
            if outcome.error:
                self.stderr.write(f"Skipped {outcome.name}: {outcome.error}")

    def _arxiv(self, since_text: str | None) -> list[Fetch]:
        query_url = arxiv_page_url(arxiv_query(), 0)
        since = _date(since_text) if since_text else since_last_success(query_url, self.now)
        outcomes = []
        for outcome in arxiv_pages(since=since, now=self.now):
            outcomes.append(outcome)
            if self._store(outcome, origin=Candidate.Origin.ARXIV):
                break  # the cap is reached: older pages wait for the next run
        complete = not any(o.error for o in outcomes) and "arXiv" not in self.notes.held_back
        if outcomes and complete and not self.dry_run:
            # Only a run that took everything moves "since": the next run reads back as far.
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

    def _store(self, outcome: Fetch, *, origin: str) -> int:
        """Add one feed's entries, at most the cap a feed a run; returns how many it held back.
        Whatever storing raises is the feed's error, not the run's."""
        self._skipped(outcome.name, outcome.skipped)
        try:
            waiting = self._add(outcome.entries, origin=origin, feed=outcome.name)
        except Exception as exc:  # the later feeds and collectors still run
            record_error(outcome, f"Its entries could not be stored: {exc}")
            return 0
        if not self.dry_run and not outcome.error and not outcome.unchanged:
            held_back(outcome, waiting)
        return waiting

    # Reporting

    def _add(self, entries: list[Entry], *, origin: str, feed: str) -> int:
        """Add what is new, within what is left of the feed's cap; returns how many waited."""
        so_far = self.added_per_feed.get(feed, 0)
        added = add_entries(
            entries,
            origin=origin,
            feed=feed,
            scorer=self.scorer,
            known=self.known,
            dry_run=self.dry_run,
            now=self.now,
            limit=self.cap - so_far,
        )
        self.added_per_feed[feed] = so_far + len(added.new)
        self.totals.new += added.new
        self.totals.known += added.known
        self.totals.unusable += added.unusable
        self.totals.held_back += added.held_back
        self.notes.hold_back(feed, added.held_back)
        waiting = f", {added.held_back} left for later runs" if added.held_back else ""
        self._say(
            f"{feed}: {len(entries)} entries, {len(added.new)} new, {added.known} known{waiting}"
        )
        if self.dry_run:
            for candidate in added.new:
                mark = "relevant" if candidate.relevant else "below the cut"
                self.stdout.write(
                    f"  would add ({candidate.relevance:.2f}, {mark}): {candidate.title}"
                )
        return added.held_back

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
            f"{self.totals.known} already known, {self.totals.unusable} without a usable link"
            + (
                f", {self.totals.held_back} left for later runs (at most {self.cap} a feed a run)."
                if self.totals.held_back
                else "."
            )
        )
        if not self.dry_run:
            sent = send_candidate_alerts(now=self.now, notes=self.notes)
            if sent:
                self.stdout.write(f"Emailed {sent} maintainers about new candidates.")
