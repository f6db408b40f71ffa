"""Maintainers decide proposals in the admin; every decision is kept and the proposer is told."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.models import ListEntry, Source
from catalog.promotion import promote_to_core
from proposals.models import Decision, Proposal
from proposals.services import (
    accept_proposal,
    bulk_reject,
    reject_proposal,
    request_changes,
    resubmit_proposal,
)
from tests.factories import ListEntryFactory, SourceFactory, UserFactory
from tests.hints import SmallCatalog, Tiers

from .helpers import make_proposal

pytestmark = pytest.mark.django_db


@pytest.fixture
def proposal(reader: User, small_catalog: SmallCatalog) -> Proposal:
    return make_proposal(small_catalog, reader)


@pytest.fixture
def admin_client(client: Client, maintainer: User) -> Client:
    client.force_login(maintainer)
    return client


# Accepting


def test_accept_creates_the_source_in_place(
    proposal: Proposal, maintainer: User, small_catalog: SmallCatalog
) -> None:
    flash = small_catalog["flash"]
    section = flash.entries.get().section
    after_flash = ListEntryFactory(section=section, position=2, source=SourceFactory(slug="next"))
    third = ListEntryFactory(section=section, position=3, source=SourceFactory(slug="third"))
    source = accept_proposal(proposal=proposal, by=maintainer)
    assert source.slug == "a-new-fused-attention-kernel"
    assert source.url == "https://example.org/papers/new-kernel"
    assert source.tier == flash.tier
    assert source.basis == "mechanism-paper"
    assert list(source.topics.all()) == [small_catalog["topics"][1]]
    assert source.verified_on is None
    order = list(section.entries.order_by("position").values_list("source__slug", "position"))
    assert order == [("flashattention", 1), (source.slug, 2), ("next", 3), ("third", 4)]
    after_flash.refresh_from_db()
    third.refresh_from_db()
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.ACCEPTED
    assert proposal.resulting_source == source
    decision = Decision.objects.get()
    assert (decision.action, decision.maintainer) == ("accepted", maintainer)


def test_accept_applies_maintainer_corrections(
    proposal: Proposal, maintainer: User, small_catalog: SmallCatalog, tiers: Tiers
) -> None:
    source = accept_proposal(
        proposal=proposal,
        by=maintainer,
        overrides={
            "title": "FlashAttention-3",
            "url": "https://arxiv.org/pdf/2407.08608v2",
            "kind": "paper",
            "tier": tiers["frontier"],
            "topics": [small_catalog["topics"][0]],
            "summary": "Asynchronous attention on Hopper.",
            "after_source": None,
        },
    )
    assert source.title == "FlashAttention-3"
    assert source.url == "https://arxiv.org/abs/2407.08608"
    assert source.summary == "Asynchronous attention on Hopper."
    assert source.verified_on is not None  # frontier entries are dated
    assert list(source.topics.all()) == [small_catalog["topics"][0]]
    assert not ListEntry.objects.filter(source=source).exists()


def test_accept_gives_a_unique_slug(
    reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader, title="FlashAttention")
    assert accept_proposal(proposal=proposal, by=maintainer).slug == "flashattention-2"


def test_accept_marks_the_replaced_source(
    reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    old = small_catalog["path"][2]
    proposal = make_proposal(small_catalog, reader, replaces=old)
    source = accept_proposal(proposal=proposal, by=maintainer)
    old.refresh_from_db()
    assert old.replaced_by == source


def test_accepting_twice_creates_one_source(proposal: Proposal, maintainer: User) -> None:
    accept_proposal(proposal=proposal, by=maintainer)
    with pytest.raises(ValidationError, match="already decided"):
        accept_proposal(proposal=proposal, by=maintainer)
    assert Source.objects.filter(url=proposal.url).count() == 1
    assert Decision.objects.count() == 1


def test_accepting_twice_in_two_admin_tabs_creates_one_source(
    admin_client: Client, proposal: Proposal
) -> None:
    url = f"/admin/proposals/proposal/{proposal.pk}/accept/"
    form = admin_client.get(url)
    assert form.status_code == 200
    data = {
        "title": proposal.title,
        "url": proposal.url,
        "kind": "paper",
        "basis": "mechanism-paper",
        "tier": proposal.tier_id,
        "topics": [t.pk for t in proposal.topics.all()],
        "summary": "",
        "after_source": proposal.after_source_id,
        "reason": "",
    }
    first = admin_client.post(url, data, follow=True)
    assert "is in the catalog" in first.content.decode()
    second = admin_client.post(url, data, follow=True)
    assert "was already decided (accepted)" in second.content.decode()
    assert Source.objects.filter(url=proposal.url).count() == 1


def test_accepted_proposal_needs_its_source_in_the_database(proposal: Proposal) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Proposal.objects.filter(pk=proposal.pk).update(status="accepted")


# Requesting changes and rejecting


@pytest.mark.parametrize("service", [request_changes, reject_proposal])
def test_reason_is_required(
    proposal: Proposal, maintainer: User, service: Callable[..., object]
) -> None:
    with pytest.raises(ValidationError, match="Give the proposer a reason"):
        service(proposal=proposal, by=maintainer, reason="  ")
    proposal.refresh_from_db()
    assert proposal.status == "pending"
    assert not Decision.objects.exists()


def test_reason_is_required_by_the_database(proposal: Proposal, maintainer: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Decision.objects.create(proposal=proposal, maintainer=maintainer, action="rejected")


@pytest.mark.parametrize(
    ("action", "label"), [("reject", "Reject"), ("request-changes", "Request")]
)
def test_admin_refuses_a_decision_without_reason(
    admin_client: Client, proposal: Proposal, action: str, label: str
) -> None:
    url = f"/admin/proposals/proposal/{proposal.pk}/{action}/"
    response = admin_client.post(url, {"reason": ""})
    assert response.status_code == 200
    assert "Give the proposer a reason." in response.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == "pending"


def test_admin_rejects_with_reason(admin_client: Client, proposal: Proposal) -> None:
    url = f"/admin/proposals/proposal/{proposal.pk}/reject/"
    response = admin_client.post(url, {"reason": "A summary, not a primary source."}, follow=True)
    assert "Rejected: “A new fused attention kernel”" in response.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == "rejected"
    assert proposal.decisions.get().reason == "A summary, not a primary source."


def test_every_decision_is_kept(
    proposal: Proposal, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    request_changes(proposal=proposal, by=maintainer, reason="Name the baseline.")
    resubmit_proposal(
        proposal=proposal,
        by=reader,
        topics=[small_catalog["topics"][1]],
        title="Revised title",
    )
    reject_proposal(proposal=proposal, by=maintainer, reason="Still no baseline.")
    actions = list(proposal.decisions.order_by("created", "pk").values_list("action", "reason"))
    assert actions == [
        ("changes_requested", "Name the baseline."),
        ("rejected", "Still no baseline."),
    ]


def test_only_the_proposer_resubmits(
    proposal: Proposal, other_reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    request_changes(proposal=proposal, by=maintainer, reason="More.")
    with pytest.raises(PermissionDenied):
        resubmit_proposal(proposal=proposal, by=other_reader, title="Hijacked")


# Notifications


@pytest.mark.parametrize(
    ("decide", "subject", "body"),
    [
        (
            lambda p, m: accept_proposal(proposal=p, by=m),
            "accepted",
            "It is now in the catalog: https://readinglist.test/sources/a-new-fused-attention-kernel/",
        ),
        (
            lambda p, m: request_changes(proposal=p, by=m, reason="Add the baseline."),
            "changes requested",
            "/edit/",
        ),
        (
            lambda p, m: reject_proposal(proposal=p, by=m, reason="Not primary."),
            "rejected",
            "Reason: Not primary.",
        ),
    ],
    ids=["accept", "changes", "reject"],
)
def test_proposer_is_emailed_on_each_decision(
    proposal: Proposal,
    maintainer: User,
    mailoutbox: list[EmailMessage],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    decide: Callable[[Proposal, User], object],
    subject: str,
    body: str,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        decide(proposal, maintainer)
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["reader@example.com"]
    assert message.subject == f"Your proposal “A new fused attention kernel”: {subject}"
    assert body in message.body


def test_no_email_when_the_decision_fails(
    proposal: Proposal,
    maintainer: User,
    mailoutbox: list[EmailMessage],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ValidationError):
        reject_proposal(proposal=proposal, by=maintainer, reason="")
    assert mailoutbox == []


def test_admin_index_shows_the_pending_count(
    admin_client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    for n in range(3):
        make_proposal(small_catalog, reader, url=f"https://example.org/{n}")
    page = admin_client.get("/admin/").content.decode()
    assert "3 proposals waiting for a decision" in page


# The queue


def test_queue_shows_pending_oldest_first(
    admin_client: Client,
    reader: User,
    other_reader: User,
    maintainer: User,
    small_catalog: SmallCatalog,
) -> None:
    old = make_proposal(small_catalog, reader, url="https://example.org/old", title="Oldest")
    new = make_proposal(small_catalog, other_reader, url="https://example.org/new", title="Newest")
    done = make_proposal(small_catalog, reader, url="https://example.org/done", title="Decided")
    reject_proposal(proposal=done, by=maintainer, reason="No.")
    page = admin_client.get("/admin/proposals/proposal/").content.decode()
    assert page.index("Oldest") < page.index("Newest")
    assert "Decided" not in page
    everything = admin_client.get("/admin/proposals/proposal/?status=all").content.decode()
    assert "Decided" in everything
    rejected = admin_client.get("/admin/proposals/proposal/?status=rejected").content.decode()
    assert "Decided" in rejected and "Oldest" not in rejected
    assert old.pk and new.pk


def test_change_page_shows_answers_checks_and_proposer(
    admin_client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
    small_catalog["flash"].save()
    proposal = make_proposal(
        small_catalog,
        reader,
        url="https://example.org/flash-again",
        title="FlashAttention 2",
        conflict_of_interest="I am an author.",
    )
    page = admin_client.get(f"/admin/proposals/proposal/{proposal.pk}/change/").content.decode()
    assert "reader@example.com" in page
    assert "How to fuse softmax into the matmul loop." in page
    assert "I am an author." in page
    assert "No other source or open proposal has this URL." in page
    assert f"/admin/catalog/source/{small_catalog['flash'].pk}/change/" in page
    assert f"/admin/proposals/proposal/{proposal.pk}/accept/" in page
    assert f"/admin/proposals/proposal/{proposal.pk}/reject/" in page


def test_accept_page_offers_corrections(admin_client: Client, proposal: Proposal) -> None:
    page = admin_client.get(f"/admin/proposals/proposal/{proposal.pk}/accept/").content.decode()
    for name in ["title", "url", "kind", "tier", "topics", "summary"]:
        assert f'name="{name}"' in page
    assert 'value="A new fused attention kernel"' in page


def test_bulk_reject_as_spam(
    admin_client: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    spam = [
        make_proposal(small_catalog, reader, url=f"https://spam.example/{n}", title=f"Spam {n}")
        for n in range(3)
    ]
    ids = [str(p.pk) for p in spam]
    form = admin_client.post(
        "/admin/proposals/proposal/", {"action": "reject_as_spam", "_selected_action": ids}
    )
    assert "Reject as spam" in form.content.decode()
    missing = admin_client.post(
        "/admin/proposals/proposal/",
        {"action": "reject_as_spam", "_selected_action": ids, "apply": "1", "reason": ""},
    )
    assert "Give the proposer a reason." in missing.content.decode()
    assert Proposal.objects.pending().count() == 3
    done = admin_client.post(
        "/admin/proposals/proposal/",
        {"action": "reject_as_spam", "_selected_action": ids, "apply": "1", "reason": "Spam."},
        follow=True,
    )
    assert "Rejected 3 proposals as spam." in done.content.decode()
    assert Proposal.objects.filter(status="rejected").count() == 3
    assert Decision.objects.filter(spam=True).count() == 3


def test_bulk_reject_leaves_decided_proposals_alone(
    reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    accepted = make_proposal(small_catalog, reader, url="https://example.org/ok")
    accept_proposal(proposal=accepted, by=maintainer)
    spam = make_proposal(small_catalog, reader, url="https://spam.example/x")
    assert bulk_reject(proposals=[accepted, spam], by=maintainer, reason="Spam.") == 1
    accepted.refresh_from_db()
    assert accepted.status == "accepted"


# Readers and other staff are refused


def test_reader_is_refused_the_moderation_admin(
    client: Client, reader: User, proposal: Proposal
) -> None:
    client.force_login(reader)
    for url in [
        "/admin/proposals/proposal/",
        f"/admin/proposals/proposal/{proposal.pk}/change/",
        f"/admin/proposals/proposal/{proposal.pk}/accept/",
        "/admin/proposals/decision/",
    ]:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url


@pytest.mark.parametrize("action", ["accept", "reject", "request-changes"])
def test_reader_posting_a_decision_is_refused(
    client: Client, reader: User, proposal: Proposal, action: str
) -> None:
    client.force_login(reader)
    response = client.post(f"/admin/proposals/proposal/{proposal.pk}/{action}/", {"reason": "x"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    proposal.refresh_from_db()
    assert proposal.status == "pending"
    assert not Source.objects.filter(url=proposal.url).exists()


def test_reader_posting_bulk_reject_is_refused(
    client: Client, reader: User, proposal: Proposal
) -> None:
    client.force_login(reader)
    client.post(
        "/admin/proposals/proposal/",
        {
            "action": "reject_as_spam",
            "_selected_action": [proposal.pk],
            "apply": "1",
            "reason": "x",
        },
    )
    proposal.refresh_from_db()
    assert proposal.status == "pending"


def test_staff_without_moderation_rights_is_refused(client: Client, proposal: Proposal) -> None:
    staff = UserFactory(email="staff@example.com", is_staff=True)
    client.force_login(staff)
    response = client.post(f"/admin/proposals/proposal/{proposal.pk}/reject/", {"reason": "x"})
    assert response.status_code == 403
    proposal.refresh_from_db()
    assert proposal.status == "pending"


@pytest.mark.parametrize("service", [accept_proposal, request_changes, reject_proposal])
def test_services_refuse_readers(
    proposal: Proposal, reader: User, service: Callable[..., object]
) -> None:
    with pytest.raises(PermissionDenied):
        service(proposal=proposal, by=reader, reason="x")
    proposal.refresh_from_db()
    assert proposal.status == "pending"


def test_maintainers_group_may_moderate_but_not_rewrite_history(maintainer: User) -> None:
    codenames = set(
        Group.objects.get(name="Maintainers").permissions.values_list("codename", flat=True)
    )
    assert {"view_proposal", "change_proposal", "view_decision", "add_decision"} <= codenames
    assert not {"delete_proposal", "change_decision", "delete_decision"} & codenames


def test_decisions_cannot_be_edited_in_the_admin(
    admin_client: Client, proposal: Proposal, maintainer: User
) -> None:
    decision = reject_proposal(proposal=proposal, by=maintainer, reason="No.")
    page = admin_client.get(f"/admin/proposals/decision/{decision.pk}/change/")
    assert page.status_code == 200
    assert 'name="reason"' not in page.content.decode()
    assert admin_client.get(f"/admin/proposals/decision/{decision.pk}/delete/").status_code == 403


# Frontier promotion


@pytest.fixture
def frontier_source(tiers: Tiers) -> Source:
    return SourceFactory(slug="new-thing", title="New thing", tier=tiers["frontier"])


def test_promotion_is_refused_until_all_evidence_is_recorded(
    frontier_source: Source, maintainer: User
) -> None:
    frontier_source.evidence_spec_url = "https://example.org/spec"
    frontier_source.save()
    with pytest.raises(ValidationError) as refused:
        promote_to_core(source=frontier_source, by=maintainer)
    message = " ".join(refused.value.messages)
    assert "a shipped implementation" in message
    assert "a reproducible measurement" in message
    assert "specification" not in message
    frontier_source.refresh_from_db()
    assert frontier_source.tier.slug == "frontier"


def test_promotion_with_all_evidence(frontier_source: Source, maintainer: User) -> None:
    frontier_source.evidence_spec_url = "https://example.org/spec"
    frontier_source.evidence_implementation_url = "https://github.com/example/impl"
    frontier_source.evidence_measurement_url = "https://example.org/bench"
    frontier_source.save()
    assert promote_to_core(source=frontier_source, by=maintainer).tier.slug == "core"


def test_promotion_refused_to_readers(frontier_source: Source, reader: User) -> None:
    with pytest.raises(PermissionDenied):
        promote_to_core(source=frontier_source, by=reader)


def test_promote_admin_action_reports_what_is_missing(
    admin_client: Client, frontier_source: Source
) -> None:
    response = admin_client.post(
        "/admin/catalog/source/",
        {"action": "promote_to_core", "_selected_action": [frontier_source.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "stays in the frontier until it has a technical specification or original paper" in page
    frontier_source.refresh_from_db()
    assert frontier_source.tier.slug == "frontier"


def test_source_admin_shows_the_evidence_fields(
    admin_client: Client, frontier_source: Source
) -> None:
    page = admin_client.get(f"/admin/catalog/source/{frontier_source.pk}/change/").content.decode()
    for name in ["evidence_spec_url", "evidence_implementation_url", "evidence_measurement_url"]:
        assert f'name="{name}"' in page


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tabs_accepting_at_once_create_one_source(
    reader: User, small_catalog: SmallCatalog
) -> None:
    """Two requests racing: the row lock makes the second wait, then see the decision."""
    import threading

    from django.db import connection

    # A superuser: the Maintainers group is flushed with the database in transactional tests.
    chief = UserFactory(email="chief@example.com", is_staff=True, is_superuser=True)
    proposal = make_proposal(small_catalog, reader)
    barrier = threading.Barrier(2)
    outcomes = []

    def tab() -> None:
        try:
            barrier.wait()
            accept_proposal(proposal=proposal, by=chief)
            outcomes.append("accepted")
        except ValidationError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=tab) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["accepted", "refused"]
    assert Source.objects.filter(url=proposal.url).count() == 1
    assert Decision.objects.filter(proposal=proposal).count() == 1
