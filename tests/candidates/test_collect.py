"""collect_candidates: from saved files and from (loopback) feeds, idempotent and robust."""

from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from candidates.models import Candidate, FeedState, UpstreamRelease
from catalog.models import Source
from proposals.models import Proposal
from tests.candidates.feed_server import FeedServer
from tests.factories import UserFactory
from tests.hints import Tiers


def collect(*args: str) -> str:
    out = StringIO()
    call_command("collect_candidates", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture(autouse=True)
def _cut_and_clock(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.CANDIDATES_RELEVANCE_CUT = 0.2
    # The recorded feeds are from November 2025: collect as if a few days later.
    monkeypatch.setattr(
        "candidates.management.commands.collect_candidates.utcnow",
        lambda: datetime(2025, 11, 20, tzinfo=UTC),
    )


def test_a_saved_arxiv_response_fills_the_inbox(
    inbox_catalog: dict[str, Source], saved_feed: Path
) -> None:
    out = collect("--feed", str(saved_feed), "--no-progress")

    titles = set(Candidate.objects.values_list("title", flat=True))
    assert titles == {
        "KVSwap: Disk-aware KV Cache Offloading for Long-Context On-device Inference",
        "MSGNav: Zero-Shot Embodied Navigation over Multi-modal Scene Graphs",
    }
    assert "Added 2 candidates (1 relevant); 1 already known" in out
    kvswap = Candidate.objects.get(key="arxiv:2511.11907")
    assert kvswap.relevant and kvswap.origin == Candidate.Origin.ARXIV
    assert kvswap.suggested_topics[0][0] == "kv-cache"
    assert kvswap.reason.startswith("close to PagedAttention")
    assert kvswap.suggested_tier == "frontier"
    assert kvswap.authors == "Ada Example, Grace Example"
    assert not Candidate.objects.get(key="arxiv:2511.10376").relevant


def test_a_second_run_over_the_same_data_adds_nothing(
    inbox_catalog: dict[str, Source], saved_feed: Path
) -> None:
    collect("--feed", str(saved_feed))
    before = list(Candidate.objects.values_list("pk", "updated"))

    out = collect("--feed", str(saved_feed), "--no-progress")

    assert list(Candidate.objects.values_list("pk", "updated")) == before
    assert "Added 0 candidates" in out and "3 already known" in out


def test_dry_run_prints_what_it_would_add_and_stores_nothing(
    inbox_catalog: dict[str, Source], saved_feed: Path
) -> None:
    out = collect("--feed", str(saved_feed), "--dry-run")

    assert Candidate.objects.count() == 0
    assert "would add" in out and "KVSwap" in out
    assert "Would add 2 candidates" in out


def test_a_proposed_work_is_not_a_new_candidate(
    inbox_catalog: dict[str, Source], saved_feed: Path, tiers: Tiers
) -> None:
    Proposal.objects.create(
        proposer=UserFactory(),
        url="https://www.arxiv.org/pdf/2511.11907v1?utm_source=x",
        title="Something else",
        kind="paper",
        tier=tiers["frontier"],
    )

    collect("--feed", str(saved_feed))

    assert not Candidate.objects.filter(key="arxiv:2511.11907").exists()


def test_a_new_proposal_moves_its_candidate_out_of_the_inbox(
    inbox_catalog: dict[str, Source],
    saved_feed: Path,
    tiers: Tiers,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    collect("--feed", str(saved_feed))
    with django_capture_on_commit_callbacks(execute=True):
        proposal = Proposal.objects.create(
            proposer=UserFactory(),
            url="https://arxiv.org/abs/2511.11907",
            title="KVSwap",
            kind="paper",
            tier=tiers["frontier"],
        )

    candidate = Candidate.objects.get(key="arxiv:2511.11907")
    assert candidate.status == Candidate.Status.PROPOSED
    assert candidate.proposal == proposal


def test_an_unreadable_file_is_named_and_nothing_is_stored(
    inbox_catalog: dict[str, Source], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.xml"
    broken.write_text("this is not a feed <<<")

    with pytest.raises(CommandError, match=r"broken\.xml"):
        collect("--feed", str(broken))
    with pytest.raises(CommandError, match=r"missing\.xml"):
        collect("--feed", str(tmp_path / "missing.xml"))
    assert Candidate.objects.count() == 0


def test_every_collector_reads_its_feed_through_the_outbound_policy(
    inbox_catalog: dict[str, Source], feed_server: FeedServer
) -> None:
    out = collect("--no-progress")

    assert Candidate.objects.filter(origin=Candidate.Origin.ARXIV).count() == 2
    post = Candidate.objects.get(origin=Candidate.Origin.FEED)
    assert post.feed == "Inference blog" and post.relevant
    assert "utm_source" not in post.keys[-2]
    # The repository's first look records its newest release as the baseline.
    assert UpstreamRelease.objects.get().status == UpstreamRelease.Status.VERIFIED
    assert "Skipped" not in out
    assert all(state.last_error == "" for state in FeedState.objects.all())


def test_a_feed_that_did_not_change_is_asked_conditionally(
    inbox_catalog: dict[str, Source], feed_server: FeedServer
) -> None:
    collect()
    collect()

    blog = [r for r in feed_server.requests if r["path"].startswith("/blog/")]
    assert [r["if_none_match"] for r in blog] == ["", '"recorded-1"']
    assert Candidate.objects.filter(origin=Candidate.Origin.FEED).count() == 1


def test_arxiv_since_the_last_successful_run(
    inbox_catalog: dict[str, Source], feed_server: FeedServer
) -> None:
    collect("--only", "arxiv", "--since", "2025-11-14")

    assert list(Candidate.objects.values_list("key", flat=True)) == ["arxiv:2511.11907"]
    with pytest.raises(CommandError, match="not a date"):
        collect("--since", "last tuesday")


@pytest.mark.parametrize(
    "path, error",
    [
        ("/malformed.xml", "not a readable"),
        ("/private-redirect", "10.255.255.1"),
        ("/huge", ""),
        ("/missing.xml", "404"),
    ],
)
def test_a_failing_feed_is_reported_and_skipped(
    inbox_catalog: dict[str, Source],
    feed_server: FeedServer,
    settings: Settings,
    path: str,
    error: str,
) -> None:
    settings.CANDIDATES_FEEDS = [
        f"Broken={feed_server.base}{path}",
        f"Inference blog={feed_server.base}/blog/feed.rss",
    ]
    err = StringIO()

    call_command("collect_candidates", "--only", "feeds", stdout=StringIO(), stderr=err)

    assert Candidate.objects.filter(feed="Inference blog").count() == 1
    if path != "/huge":
        assert "Skipped Broken" in err.getvalue() and error in err.getvalue()
        assert error in FeedState.objects.get(url__endswith=path).last_error


def test_a_feed_that_never_answers_is_cut_at_the_deadline(
    inbox_catalog: dict[str, Source],
    feed_server: FeedServer,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("candidates.collectors.FEED_DEADLINE_SECONDS", 1.0)
    settings.CANDIDATES_FEEDS = [
        f"Slow={feed_server.base}/slow",
        f"Inference blog={feed_server.base}/blog/feed.rss",
    ]
    Candidate.objects.create(
        key="url:https://kept.example/",
        keys=[],
        origin="feed",
        feed="x",
        title="Kept",
        url="https://kept.example/",
    )
    err = StringIO()

    call_command("collect_candidates", "--only", "feeds", stdout=StringIO(), stderr=err)

    assert "Skipped Slow" in err.getvalue()
    assert Candidate.objects.filter(title="Kept").exists()


def test_without_a_network_it_says_so_and_fails(
    inbox_catalog: dict[str, Source], settings: Settings
) -> None:
    settings.ARXIV_API_URL = "http://127.0.0.1:9/api/query"
    settings.CANDIDATES_GITHUB_URL = "http://127.0.0.1:9"
    settings.CANDIDATES_FEEDS = ["Blog=http://127.0.0.1:9/feed.rss"]
    settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]

    with pytest.raises(CommandError, match=r"No feed was answered .* Is this machine offline"):
        collect()
    assert Candidate.objects.count() == 0
