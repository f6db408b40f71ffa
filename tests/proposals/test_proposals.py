"""Readers propose sources: the form, its checks, their own proposals, limits and the public log."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries, Settings

from accounts.models import User
from proposals.duplicates import find_duplicates
from proposals.models import Proposal
from proposals.services import accept_proposal, reject_proposal, request_changes
from tests.factories import UserFactory
from tests.hints import Grow, SmallCatalog

from .helpers import CLAIM, form_data, make_proposal

pytestmark = pytest.mark.django_db


# The propose page


def test_propose_needs_login(client: Client, small_catalog: SmallCatalog) -> None:
    response = client.get("/propose/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/propose/")


def test_propose_page_states_the_rules(signed_in: Client, small_catalog: SmallCatalog) -> None:
    page = signed_in.get("/propose/").content.decode()
    assert "What mechanism or idea it teaches" in page
    assert "Why it is a primary source" in page
    assert "Belongs after" in page
    assert "Which existing source it replaces" in page
    assert "Performance claim (optional)" in page
    assert "A vendor's peak figure is not a measurement" in page
    assert 'hx-trigger="input changed delay:400ms"' in page
    assert 'hx-post="/propose/check/"' in page


def test_reader_submits_a_proposal(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    data = form_data(small_catalog, **CLAIM)
    response = signed_in.post("/propose/", data, follow=True)
    assert response.redirect_chain[-1][0] == "/proposals/"
    proposal = Proposal.objects.get()
    assert proposal.proposer == reader
    assert proposal.status == Proposal.Status.PENDING
    assert proposal.after_source == small_catalog["flash"]
    assert list(proposal.topics.all()) == [small_catalog["topics"][1]]
    assert proposal.workload == CLAIM["workload"]
    assert "is waiting for a maintainer" in response.content.decode()


def test_url_is_stored_canonical(signed_in: Client, small_catalog: SmallCatalog) -> None:
    data = form_data(small_catalog, url="HTTPS://arxiv.org/pdf/2405.01234v3.pdf")
    signed_in.post("/propose/", data)
    assert Proposal.objects.get().url == "https://arxiv.org/abs/2405.01234"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "This field is required."),
        ("not a url", "starting with http:// or https://"),
        ("ftp://example.org/paper.pdf", "starting with http:// or https://"),
        ("javascript:alert(1)", "starting with http:// or https://"),
        ("https://", "starting with http:// or https://"),
        ("https://example.org/" + "a" * 2000, "at most 2,000 characters; this one has 2,020"),
    ],
    ids=["empty", "not-a-url", "ftp", "javascript", "no-host", "too-long"],
)
def test_bad_urls_are_refused_with_a_clear_message(
    signed_in: Client, small_catalog: SmallCatalog, url: str, message: str
) -> None:
    data = form_data(small_catalog, url=url, title="Kept title")
    response = signed_in.post("/propose/", data)
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    assert 'value="Kept title"' in page
    assert not Proposal.objects.exists()


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("title", "Give the title of the source."),
        ("mechanism", "Say what mechanism or idea it teaches."),
        ("basis", "Say which kind of primary source this is."),
        ("basis_explanation", "Explain how it meets the primary-source bar."),
        ("after_source", "Say which source a reader should read before this one."),
        ("topics", "Pick at least one topic."),
    ],
)
def test_missing_answers_are_named_and_typed_answers_kept(
    signed_in: Client, small_catalog: SmallCatalog, field: str, message: str
) -> None:
    data = form_data(small_catalog, **{field: ""}, conflict_of_interest="I wrote a blog post")
    if field == "topics":
        data.pop("topics")
    response = signed_in.post("/propose/", data)
    page = response.content.decode()
    assert message in page
    assert "I wrote a blog post" in page
    assert "https://example.org/papers/new-kernel" in page
    assert not Proposal.objects.exists()


def test_partial_performance_claim_is_refused(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    partial = dict(CLAIM, baseline="", correctness_method="")
    response = signed_in.post("/propose/", form_data(small_catalog, **partial))
    page = response.content.decode()
    assert "A performance claim needs all five parts" in page
    assert CLAIM["workload"] in page
    assert not Proposal.objects.exists()


def test_partial_claim_is_refused_by_the_database(
    reader: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    with pytest.raises(IntegrityError), transaction.atomic():
        Proposal.objects.filter(pk=proposal.pk).update(workload="only this")


@pytest.mark.parametrize(
    "variant",
    [
        "https://arxiv.org/abs/2205.14135",
        "http://arxiv.org/pdf/2205.14135v2",
        "https://arxiv.org/pdf/2205.14135v1.pdf",
        "https://www.arxiv.org/html/2205.14135v3/",
    ],
)
def test_source_in_catalog_cannot_be_proposed_again(
    signed_in: Client, small_catalog: SmallCatalog, variant: str
) -> None:
    small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
    small_catalog["flash"].save()
    response = signed_in.post("/propose/", form_data(small_catalog, url=variant))
    page = response.content.decode()
    assert "This source is already in the catalog as “FlashAttention”." in page
    assert 'href="/sources/flashattention/"' in page
    assert not Proposal.objects.exists()


def test_source_already_proposed_cannot_be_proposed_again(
    signed_in: Client, other_reader: User, small_catalog: SmallCatalog
) -> None:
    make_proposal(small_catalog, other_reader, title="Someone else's secret title")
    response = signed_in.post("/propose/", form_data(small_catalog))
    page = response.content.decode()
    assert "already been proposed and is waiting for a decision" in page
    assert "Someone else&#x27;s secret title" not in page
    assert Proposal.objects.count() == 1


def test_open_url_is_unique_in_the_database(
    reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    first = make_proposal(small_catalog, reader)
    with pytest.raises(IntegrityError), transaction.atomic():
        Proposal.objects.create(
            proposer=other_reader,
            url=first.url,
            title="Copy",
            kind="paper",
            tier=first.tier,
            mechanism="x",
            basis="mechanism-paper",
            basis_explanation="x",
        )


def test_rejected_url_may_be_proposed_again(
    signed_in: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    first = make_proposal(small_catalog, reader)
    reject_proposal(proposal=first, by=maintainer, reason="No code published yet.")
    signed_in.post("/propose/", form_data(small_catalog))
    assert Proposal.objects.filter(status="pending").count() == 1


# The live duplicate check


def test_check_reports_catalog_duplicate_with_link(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
    small_catalog["flash"].save()
    response = signed_in.get(
        "/propose/check/",
        {"url": "https://arxiv.org/pdf/2205.14135v2"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert "<html" not in page
    assert "Already in the catalog" in page
    assert 'href="/sources/flashattention/"' in page
    assert 'id="propose-submit"' in page and "disabled" in page
    assert response["Vary"].count("HX-Request") == 1


def test_check_reports_own_open_proposal_with_link(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    response = signed_in.get(
        "/propose/check/", {"url": proposal.url + "/"}, headers={"HX-Request": "true"}
    )
    page = response.content.decode()
    assert "Already proposed" in page
    assert f'href="/proposals/{proposal.pk}/"' in page


def test_check_hides_whose_proposal_it_is(
    signed_in: Client, other_reader: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, other_reader, title="Private working title")
    response = signed_in.get(
        "/propose/check/", {"url": proposal.url}, headers={"HX-Request": "true"}
    )
    page = response.content.decode()
    assert "Already proposed" in page
    assert "another reader proposed it" in page
    assert "Private working title" not in page
    assert f"/proposals/{proposal.pk}/" not in page


def test_check_new_url_is_fine_and_similar_titles_warn(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    response = signed_in.get(
        "/propose/check/",
        {"url": "https://example.org/brand-new", "title": "FlashAttention 2"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert "Not in the catalog or proposed yet." in page
    assert "Possible duplicates in the catalog" in page
    assert 'href="/sources/flashattention/"' in page
    assert "disabled" not in page


def test_check_explains_invalid_url(signed_in: Client, small_catalog: SmallCatalog) -> None:
    response = signed_in.get("/propose/check/", {"url": "ftp://x"}, headers={"HX-Request": "true"})
    assert "http:// or https://" in response.content.decode()


def test_check_without_javascript_renders_the_form_with_what_was_typed(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
    small_catalog["flash"].save()
    data = form_data(small_catalog, url="https://arxiv.org/pdf/2205.14135", mechanism="Typed words")
    response = signed_in.get("/propose/check/", data)
    page = response.content.decode()
    assert "<html" in page
    assert "Already in the catalog" in page
    assert "Typed words" in page


def test_check_sends_anonymous_htmx_to_login(client: Client, small_catalog: SmallCatalog) -> None:
    response = client.get(
        "/propose/check/", {"url": "https://x.org"}, headers={"HX-Request": "true"}
    )
    assert response["HX-Redirect"].startswith("/accounts/login/?next=")


def test_duplicate_check_runs_constant_queries(
    small_catalog: SmallCatalog,
    many_sources: Grow,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    first = many_sources(10)[0]
    # Identifiers, open proposals, then candidate titles and candidate list labels.
    with django_assert_max_num_queries(4):
        find_duplicates(url=first.url, title=first.title)
    many_sources(300)
    with django_assert_max_num_queries(4):
        report = find_duplicates(url=first.url + "/", title=first.title)
    assert report.source == first
    assert len(report.similar) == 5


# The reader's own proposals


def test_my_proposals_show_status_reason_and_resulting_source(
    signed_in: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    accepted = make_proposal(
        small_catalog, reader, url="https://example.org/a", title="Accepted one"
    )
    rejected = make_proposal(
        small_catalog, reader, url="https://example.org/b", title="Rejected one"
    )
    asked = make_proposal(small_catalog, reader, url="https://example.org/c", title="Needs work")
    source = accept_proposal(proposal=accepted, by=maintainer)
    reject_proposal(proposal=rejected, by=maintainer, reason="A blog post, not a primary source.")
    request_changes(proposal=asked, by=maintainer, reason="Add the measurement's baseline.")
    page = signed_in.get("/proposals/").content.decode()
    assert "Accepted one" in page and f'href="{source.get_absolute_url()}"' in page
    assert "A blog post, not a primary source." in page
    assert "Add the measurement&#x27;s baseline." in page
    assert "Changes requested" in page
    assert f'href="/proposals/{asked.pk}/edit/"' in page
    assert f"/proposals/{rejected.pk}/edit/" not in page


def test_readers_never_see_other_readers_proposals(
    signed_in: Client, other_reader: User, small_catalog: SmallCatalog
) -> None:
    theirs = make_proposal(small_catalog, other_reader, title="Their pending idea")
    assert "Their pending idea" not in signed_in.get("/proposals/").content.decode()
    assert signed_in.get(f"/proposals/{theirs.pk}/").status_code == 404
    assert signed_in.get(f"/proposals/{theirs.pk}/edit/").status_code == 404
    assert signed_in.post(f"/proposals/{theirs.pk}/edit/", {}).status_code == 404
    assert "Their pending idea" not in signed_in.get("/proposals/decisions/").content.decode()


def test_proposals_pages_need_login(client: Client, small_catalog: SmallCatalog) -> None:
    for url in ["/proposals/", "/proposals/1/", "/proposals/1/edit/"]:
        assert client.get(url)["Location"].startswith("/accounts/login/")


def test_changes_requested_proposal_is_edited_and_resubmitted(
    signed_in: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    request_changes(proposal=proposal, by=maintainer, reason="Add the claim details.")
    page = signed_in.get(f"/proposals/{proposal.pk}/edit/").content.decode()
    assert "Add the claim details." in page
    assert 'value="A new fused attention kernel"' in page
    data = form_data(small_catalog, title="A new fused attention kernel (v2)", **CLAIM)
    response = signed_in.post(f"/proposals/{proposal.pk}/edit/", data)
    assert response.status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.PENDING
    assert proposal.title.endswith("(v2)")
    assert proposal.baseline == CLAIM["baseline"]


def test_edit_check_does_not_flag_the_proposal_itself(
    signed_in: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    request_changes(proposal=proposal, by=maintainer, reason="More detail.")
    response = signed_in.get(
        "/propose/check/",
        {"url": proposal.url, "proposal": str(proposal.pk)},
        headers={"HX-Request": "true"},
    )
    assert "Not in the catalog or proposed yet." in response.content.decode()


def test_pending_proposal_cannot_be_edited(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    proposal = make_proposal(small_catalog, reader)
    response = signed_in.post(
        f"/proposals/{proposal.pk}/edit/", form_data(small_catalog), follow=True
    )
    assert "only a proposal with changes requested can be edited" in response.content.decode()


# Abuse limits


def test_pending_limit_gives_a_clear_message(
    signed_in: Client, reader: User, small_catalog: SmallCatalog, settings: Settings
) -> None:
    settings.PROPOSALS_MAX_PENDING = 2
    for n in range(2):
        make_proposal(small_catalog, reader, url=f"https://example.org/p{n}")
    assert "the most a reader may have at once (2)" in signed_in.get("/propose/").content.decode()
    response = signed_in.post("/propose/", form_data(small_catalog, title="Kept on refusal"))
    page = response.content.decode()
    assert "You already have 2 proposals waiting for a decision" in page
    assert 'value="Kept on refusal"' in page
    assert Proposal.objects.count() == 2


def test_daily_limit_gives_a_clear_message(
    signed_in: Client,
    reader: User,
    maintainer: User,
    small_catalog: SmallCatalog,
    settings: Settings,
) -> None:
    settings.PROPOSALS_MAX_PER_DAY = 3
    for n in range(3):
        proposal = make_proposal(small_catalog, reader, url=f"https://example.org/d{n}")
        reject_proposal(proposal=proposal, by=maintainer, reason="No.")
    response = signed_in.post("/propose/", form_data(small_catalog))
    assert "the daily limit (3)" in response.content.decode()
    Proposal.objects.update(created=timezone.now() - timedelta(days=2))
    signed_in.post("/propose/", form_data(small_catalog))
    assert Proposal.objects.pending().count() == 1


def test_default_limits_are_settings(settings: Settings) -> None:
    assert settings.PROPOSALS_MAX_PENDING == 10
    assert settings.PROPOSALS_MAX_PER_DAY == 20


# The public decision log


def test_decision_log_lists_accepted_and_rejected_publicly(
    client: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    accepted = make_proposal(small_catalog, reader, url="https://example.org/a", title="Good one")
    rejected = make_proposal(small_catalog, reader, url="https://example.org/b", title="Weak one")
    asked = make_proposal(small_catalog, reader, url="https://example.org/c", title="Unfinished")
    spam = make_proposal(small_catalog, reader, url="https://example.org/d", title="Buy pills")
    pending = make_proposal(small_catalog, reader, url="https://example.org/e", title="Waiting")
    source = accept_proposal(proposal=accepted, by=maintainer, reason="Introduced the mechanism.")
    reject_proposal(proposal=rejected, by=maintainer, reason="<b>Vendor</b> marketing.")
    request_changes(proposal=asked, by=maintainer, reason="Needs detail.")
    reject_proposal(proposal=spam, by=maintainer, reason="Spam.", spam=True)
    page = client.get("/proposals/decisions/").content.decode()
    assert "Good one" in page and f'href="{source.get_absolute_url()}"' in page
    assert "Introduced the mechanism." in page
    assert "Weak one" in page and "&lt;b&gt;Vendor&lt;/b&gt; marketing." in page
    assert "Rejected" in page and "Accepted" in page
    for hidden in ["Unfinished", "Buy pills", "Waiting", reader.email, maintainer.email]:
        assert hidden not in page
    assert pending.status == "pending"


def test_decision_log_is_paginated(
    client: Client, reader: User, maintainer: User, small_catalog: SmallCatalog, settings: Settings
) -> None:
    settings.CATALOG_PAGE_SIZE = 2
    for n in range(3):
        proposal = make_proposal(
            small_catalog, reader, url=f"https://example.org/r{n}", title=f"R{n}"
        )
        reject_proposal(proposal=proposal, by=maintainer, reason="No.")
    page = client.get("/proposals/decisions/").content.decode()
    assert "Page 1 of 2" in page
    assert "R0" in client.get("/proposals/decisions/?page=2").content.decode()


# Query counts stay flat


def _grow(catalog: SmallCatalog, maintainer: User, count: int, start: int) -> None:
    for n in range(start, start + count):
        proposer = UserFactory()
        proposal = make_proposal(
            catalog, proposer, url=f"https://example.org/q{n}", title=f"Queued {n}"
        )
        if n % 2:
            accept_proposal(proposal=proposal, by=maintainer)
        else:
            reject_proposal(proposal=proposal, by=maintainer, reason="Not primary.")


def test_decision_log_queries_are_flat(
    client: Client,
    maintainer: User,
    small_catalog: SmallCatalog,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    _grow(small_catalog, maintainer, 4, 0)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        client.get("/proposals/decisions/")
    baseline = len(ctx.captured_queries)
    _grow(small_catalog, maintainer, 30, 4)
    with django_assert_max_num_queries(baseline):
        assert client.get("/proposals/decisions/").status_code == 200


def test_my_proposals_queries_are_flat(
    signed_in: Client,
    reader: User,
    maintainer: User,
    small_catalog: SmallCatalog,
    django_assert_max_num_queries: DjangoAssertNumQueries,
    settings: Settings,
) -> None:
    settings.PROPOSALS_MAX_PENDING = 100
    settings.PROPOSALS_MAX_PER_DAY = 100
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def grow(start: int, count: int) -> None:
        for n in range(start, start + count):
            proposal = make_proposal(small_catalog, reader, url=f"https://example.org/m{n}")
            if n % 3 == 0:
                accept_proposal(proposal=proposal, by=maintainer)
            elif n % 3 == 1:
                request_changes(proposal=proposal, by=maintainer, reason="More.")

    grow(0, 3)
    with CaptureQueriesContext(connection) as ctx:
        signed_in.get("/proposals/")
    baseline = len(ctx.captured_queries)
    grow(3, 30)
    with django_assert_max_num_queries(baseline):
        assert signed_in.get("/proposals/").status_code == 200
