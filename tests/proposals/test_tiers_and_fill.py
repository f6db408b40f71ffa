"""The form fits the tier, on the page and on the server, and fills itself from a link."""

from typing import Any

import pytest
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from proposals.models import Proposal
from proposals.services import submit_proposal
from tests.hints import SmallCatalog, Tiers
from tests.proposals.metadata_server import MetadataServer

from .helpers import form_data

pytestmark = pytest.mark.django_db


def further_reading(catalog: SmallCatalog, **changes: object) -> dict[str, Any]:
    data = form_data(
        catalog,
        url="https://example.org/blog/how-attention-kernels-work",
        title="How attention kernels work",
        kind="article",
        tier="further-reading",
        mechanism="",
        basis="",
        basis_explanation="",
        after_source="",
        worth_reading="The clearest walk through the tiling, with pictures.",
    )
    data.update(changes)
    return data


def test_tier_comes_first_with_explanations_and_nothing_chosen(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    page = signed_in.get("/propose/").content.decode()
    assert page.index('name="tier"') < page.index('name="url"')
    assert "checked" not in page.split('name="url"')[0].split("tier-choice")[1]
    assert "A primary source, placed in reading order." in page
    assert "A good article, talk or course that is not a primary source." in page


def test_a_further_reading_article_is_proposed_without_primary_source_answers(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    response = signed_in.post("/propose/", further_reading(small_catalog))
    assert response.status_code == 302
    proposal = Proposal.objects.get()
    assert proposal.tier.slug == "further-reading"
    assert proposal.basis == ""
    assert proposal.worth_reading.startswith("The clearest walk")


def test_further_reading_must_say_why_it_is_worth_reading(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    response = signed_in.post("/propose/", further_reading(small_catalog, worth_reading=""))
    assert "Say why it is worth a reader&#x27;s time." in response.content.decode()
    assert not Proposal.objects.exists()


def test_further_reading_drops_answers_its_tier_does_not_ask(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    data = further_reading(small_catalog, basis="mechanism-paper", mechanism="Hidden text")
    signed_in.post("/propose/", data)
    assert Proposal.objects.get().mechanism == ""


def test_core_still_needs_the_contribution_rules_answers(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    data = form_data(small_catalog, mechanism="", basis="", basis_explanation="")
    page = signed_in.post("/propose/", data).content.decode()
    assert "Say what mechanism or idea it teaches." in page
    assert "Say which kind of primary source this is." in page
    assert not Proposal.objects.exists()


def test_the_service_enforces_the_tier_rules_too(
    reader: User, small_catalog: SmallCatalog, tiers: Tiers
) -> None:
    with pytest.raises(Exception, match="Say which kind of primary source"):
        submit_proposal(
            proposer=reader,
            topics=[small_catalog["topics"][0]],
            url="https://example.org/x",
            title="X",
            kind="paper",
            tier=tiers["core"],
        )
    assert not Proposal.objects.exists()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("No Such Paper", "No source in the catalog is titled “No Such Paper”."),
        ("", "Say which source a reader should read before this one."),
    ],
)
def test_belongs_after_is_typed_and_resolved_with_a_clear_error(
    signed_in: Client, small_catalog: SmallCatalog, typed: str, message: str
) -> None:
    page = signed_in.post("/propose/", form_data(small_catalog, after_source=typed))
    assert message in page.content.decode()


def test_belongs_after_accepts_a_title_in_any_case_or_an_alias(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    signed_in.post("/propose/", form_data(small_catalog, after_source="fa1"))
    assert Proposal.objects.get().after_source == small_catalog["flash"]


def test_belongs_after_names_both_sources_when_a_title_is_ambiguous(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    from tests.factories import SourceFactory

    SourceFactory(
        slug="flashattention-talk", title="FlashAttention", tier=small_catalog["flash"].tier
    )
    page = signed_in.post("/propose/", form_data(small_catalog)).content.decode()
    assert "Several sources match “FlashAttention”" in page
    assert "flashattention-talk" in page


def test_topics_and_titles_are_compact_choices(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    page = signed_in.get("/propose/").content.decode()
    assert '<details class="form-row topics-choice"' in page
    assert 'list="catalog-titles"' in page
    assert '<option value="FlashAttention">' in page
    assert "<select" not in page.split('name="after_source"')[0].split("after_source")[-1]


def test_fill_from_link_without_javascript_rerenders_the_form_filled(
    signed_in: Client, small_catalog: SmallCatalog, metadata_server: MetadataServer
) -> None:
    data = {"url": "2205.14135", "tier": "core", "mechanism": "Kept as typed"}
    page = signed_in.post("/propose/fill/", data).content.decode()
    assert "Filled from arXiv" in page
    assert 'value="https://arxiv.org/abs/2205.14135"' in page
    assert "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness" in page
    assert "Tri Dao et al." in page
    assert "Kept as typed" in page
    assert 'value="core" required id="id_tier_0" checked' in page


def test_fill_tells_the_reader_it_is_already_in_the_catalog(
    signed_in: Client, small_catalog: SmallCatalog, metadata_server: MetadataServer
) -> None:
    small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
    small_catalog["flash"].save()
    page = signed_in.post(
        "/propose/fill/",
        {"url": "https://arxiv.org/pdf/2205.14135v2"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "<html" not in page
    assert "Already in the catalog" in page
    assert 'href="/sources/flashattention/"' in page


def test_fill_without_the_network_keeps_the_form_usable(
    signed_in: Client, small_catalog: SmallCatalog, settings: Settings
) -> None:
    settings.METADATA_ALLOWED_HOSTS = []
    page = signed_in.post("/propose/fill/", {"url": "http://127.0.0.1:9/x", "title": "Mine"})
    text = page.content.decode()
    assert "Couldn&#x27;t fetch" in text
    assert 'value="Mine"' in text
    assert 'id="propose-submit"' in text


def test_submitting_after_a_fill_keeps_the_fetched_metadata(
    signed_in: Client, small_catalog: SmallCatalog, metadata_server: MetadataServer
) -> None:
    signed_in.post("/propose/fill/", {"url": "2205.14135"})
    data = form_data(
        small_catalog, url="https://arxiv.org/abs/2205.14135", title="FlashAttention v1"
    )
    signed_in.post("/propose/", data)
    fetched = Proposal.objects.get().fetched_metadata
    assert fetched["source"] == "arXiv"
    assert fetched["authors"] == "Tri Dao et al."


def test_the_query_string_prefills_the_form(signed_in: Client, small_catalog: SmallCatalog) -> None:
    page = signed_in.get(
        "/propose/", {"url": "https://example.org/post", "title": "A <b>post</b>"}
    ).content.decode()
    assert 'value="https://example.org/post"' in page
    assert "A &lt;b&gt;post&lt;/b&gt;" in page


def test_a_maintainer_accepts_with_the_fetched_metadata_in_view(
    client: Client,
    reader: User,
    maintainer: User,
    small_catalog: SmallCatalog,
    metadata_server: MetadataServer,
) -> None:
    client.force_login(reader)
    client.post("/propose/fill/", {"url": "2205.14135"})
    url = "https://arxiv.org/abs/2205.14135"
    client.post("/propose/", form_data(small_catalog, url=url, title="FlashAttention v1"))
    proposal = Proposal.objects.get()
    client.force_login(maintainer)
    change = client.get(f"/admin/proposals/proposal/{proposal.pk}/change/").content.decode()
    assert "Fetched from</dt><dd>arXiv" in change
    accept = client.get(f"/admin/proposals/proposal/{proposal.pk}/accept/").content.decode()
    assert "The proposer's answers" in accept
    assert "Fetched metadata" in accept
    assert "Transformers are slow and memory-hungry" in accept
    assert 'value="Tri Dao et al."' in accept  # the proposer left authors empty
    data = {
        "title": "FlashAttention v1",
        "url": url,
        "kind": "paper",
        "authors": "Tri Dao et al.",
        "year": "2022",
        "venue": "NeurIPS",
        "basis": "mechanism-paper",
        "tier": small_catalog["flash"].tier_id,
        "topics": [small_catalog["topics"][1].pk],
        "summary": "Tiles attention.",
    }
    client.post(f"/admin/proposals/proposal/{proposal.pk}/accept/", data)
    source = Proposal.objects.get().resulting_source
    assert source is not None
    assert (source.authors, source.year, source.venue) == ("Tri Dao et al.", 2022, "NeurIPS")


def test_an_accepted_further_reading_article_is_not_a_primary_source(
    signed_in: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    from proposals.services import accept_proposal

    signed_in.post("/propose/", further_reading(small_catalog))
    source = accept_proposal(proposal=Proposal.objects.get(), by=maintainer)
    assert source.basis == "none"
    assert source.summary.startswith("The clearest walk")
    assert source.tier.slug == "further-reading"


def test_editing_shows_the_saved_tier_and_the_source_it_follows(
    signed_in: Client, reader: User, maintainer: User, small_catalog: SmallCatalog
) -> None:
    from proposals.services import request_changes

    from .helpers import make_proposal

    proposal = make_proposal(small_catalog, reader)
    request_changes(proposal=proposal, by=maintainer, reason="Name the baseline.")
    page = signed_in.get(f"/proposals/{proposal.pk}/edit/").content.decode()
    assert 'value="core" required id="id_tier_0" checked' in page
    assert 'name="after_source" value="FlashAttention"' in page


def test_the_proposer_sees_a_further_reading_answer_on_the_proposal_page(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    signed_in.post("/propose/", further_reading(small_catalog, authors="Ada Writer"))
    proposal = Proposal.objects.get()
    page = signed_in.get(f"/proposals/{proposal.pk}/").content.decode()
    assert "Why it is worth reading" in page
    assert "The clearest walk through the tiling" in page
    assert "Ada Writer" in page
    assert "Primary source" not in page
