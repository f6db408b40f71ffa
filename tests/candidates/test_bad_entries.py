"""A feed fails one entry at a time: an entry that cannot be read (a date the feed parser makes
year 0, anything that raises) is skipped and counted on its feed's state, and the run goes on
to every later feed and collector, and tells the maintainers what it skipped."""

from collections.abc import Iterable
from io import StringIO
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from pytest_django import Settings

from accounts.models import User
from candidates.entries import Entry, parse_feed
from candidates.models import Candidate, FeedState
from candidates.services import Added
from catalog.models import Source
from proposals.models import MaintainerAlert
from tests.candidates.feed_server import FeedServer

from .conftest import FIXTURES


def test_a_bad_entry_is_skipped_and_the_rest_of_the_feed_read() -> None:
    parsed = parse_feed((FIXTURES / "bad_dates.atom").read_bytes(), name="Dates")

    assert [entry.title for entry in parsed.entries] == [
        "Prefix caching for multi-turn LLM serving",
        "Chunked prefill and decode scheduling for LLM inference",
    ]
    (reason,) = parsed.skipped
    assert "A post dated the year zero" in reason and "year 0 is out of range" in reason


def test_a_bad_date_in_the_first_collector_stops_nothing(
    inbox_catalog: dict[str, Source], feed_server: FeedServer, settings: Settings, maintainer: User
) -> None:
    MaintainerAlert.objects.create(user=maintainer, daily_email=True)
    settings.ARXIV_API_URL = f"{feed_server.base}/bad-dates.atom"
    err = StringIO()

    out = StringIO()
    call_command("collect_candidates", "--since", "2025-11-01", stdout=out, stderr=err)

    titles = set(Candidate.objects.values_list("title", flat=True))
    assert "Prefix caching for multi-turn LLM serving" in titles
    # The later collectors ran: the blog's post and the repository's releases.
    assert Candidate.objects.filter(feed="Inference blog").exists()
    assert FeedState.objects.filter(url__contains="releases.atom").exists()
    state = FeedState.objects.get(url__contains="/bad-dates.atom")
    assert (state.skipped_entries, state.last_error) == (1, "")
    assert "Skipped 1 entry of arXiv" in err.getvalue()
    (email,) = mail.outbox
    assert "1 entry of arXiv could not be read" in email.body
    assert "A post dated the year zero" in email.body


def test_a_saved_file_with_a_bad_entry_loads_the_rest(inbox_catalog: dict[str, Source]) -> None:
    err = StringIO()

    call_command(
        "collect_candidates",
        "--feed",
        str(FIXTURES / "bad_dates.atom"),
        stdout=StringIO(),
        stderr=err,
    )

    assert Candidate.objects.count() == 2
    assert "Skipped 1 entry of bad_dates.atom" in err.getvalue()


def test_a_feed_whose_handling_raises_does_not_stop_the_later_feeds(
    inbox_catalog: dict[str, Source],
    feed_server: FeedServer,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import candidates.management.commands.collect_candidates as command

    settings.CANDIDATES_FEEDS = [
        f"Dates={feed_server.base}/bad-dates.atom",
        f"Inference blog={feed_server.base}/blog/feed.rss",
    ]
    real = command.add_entries

    def fails_for_dates(entries: Iterable[Entry], **kwargs: Any) -> Added:
        if kwargs["feed"] == "Dates":
            raise ValueError("a value no column takes")
        return real(entries, **kwargs)

    monkeypatch.setattr(command, "add_entries", fails_for_dates)
    err = StringIO()

    call_command("collect_candidates", "--only", "feeds", stdout=StringIO(), stderr=err)

    assert Candidate.objects.filter(feed="Inference blog").count() == 1
    assert "Skipped Dates" in err.getvalue() and "a value no column takes" in err.getvalue()
    assert (
        "a value no column takes"
        in FeedState.objects.get(url__endswith="/bad-dates.atom").last_error
    )
