"""One feed cannot flood the inbox: at most CANDIDATES_MAX_NEW_PER_FEED new candidates a feed a
run, the rest left for later runs and counted; and a slow feed is reported as slow, not as a
machine without a network."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pytest_django import Settings

from candidates.models import Candidate, FeedState
from catalog.models import Source
from tests.candidates.feed_server import FeedServer


def collect(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("collect_candidates", "--only", "feeds", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_feed_adds_at_most_the_cap_a_run_and_the_rest_on_later_runs(
    inbox_catalog: dict[str, Source], feed_server: FeedServer, settings: Settings
) -> None:
    settings.CANDIDATES_FEEDS = [f"Many={feed_server.base}/many.rss"]
    settings.CANDIDATES_MAX_NEW_PER_FEED = 12

    out, _ = collect()

    assert Candidate.objects.filter(feed="Many").count() == 12
    # Newest first, as the feed orders them.
    assert Candidate.objects.filter(url="https://many.example.org/posts/30").exists()
    assert "Many: 30 entries, 12 new, 0 known, 18 left for later runs" in out
    state = FeedState.objects.get(url__endswith="/many.rss")
    assert state.held_back_entries == 18

    collect()
    collect()
    collect()

    assert Candidate.objects.filter(feed="Many").count() == 30
    state.refresh_from_db()
    assert state.held_back_entries == 0
    # The feed was read again in full while something was left, then asked conditionally.
    asked = [r["if_none_match"] for r in feed_server.requests if r["path"] == "/many.rss"]
    assert asked == ["", "", "", '"recorded-1"']


def test_the_cap_has_a_sensible_default(settings: Settings) -> None:
    assert 20 <= settings.CANDIDATES_MAX_NEW_PER_FEED <= 500


def test_a_slow_feed_is_slow_not_a_machine_without_network(
    inbox_catalog: dict[str, Source],
    feed_server: FeedServer,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("candidates.collectors.FEED_DEADLINE_SECONDS", 1.0)
    settings.CANDIDATES_FEEDS = [f"Slow={feed_server.base}/slow"]

    _, err = collect()

    assert "no network" not in err and "offline" not in err
    assert "Skipped Slow: 127.0.0.1 is slow" in err
    assert "slow" in FeedState.objects.get(url__endswith="/slow").last_error


def test_without_a_network_no_feed_records_the_outage_as_its_error(
    inbox_catalog: dict[str, Source], settings: Settings
) -> None:
    settings.CANDIDATES_FEEDS = ["Blog=http://127.0.0.1:9/feed.rss"]
    settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]

    with pytest.raises(CommandError, match="Is this machine offline"):
        collect()
    assert not FeedState.objects.exclude(last_error="").exists()
