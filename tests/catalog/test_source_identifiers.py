"""A source's identifiers and full record: shown on its page, edited in the admin, filled in
from its URL."""

import datetime

import pytest
from django.contrib import admin
from django.forms import ModelForm
from django.test import Client, RequestFactory

from accounts.models import User
from catalog.models import Source
from tests.hints import SmallCatalog, Tiers

pytestmark = pytest.mark.django_db


@pytest.fixture
def flash(small_catalog: SmallCatalog) -> Source:
    flash = small_catalog["flash"]
    flash.full_title = "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness"
    flash.arxiv_id = "2205.14135"
    flash.doi = "10.5555/3600270.3601459"
    flash.verified_from_url = "https://arxiv.org/abs/2205.14135"
    flash.verified_from_date = datetime.date(2026, 12, 2)
    flash.save()
    return flash


def test_the_source_page_links_its_identifiers_and_shows_the_full_title(
    client: Client, flash: Source
) -> None:
    page = client.get(f"/sources/{flash.slug}/").content.decode()
    assert "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness" in page
    assert 'href="https://arxiv.org/abs/2205.14135"' in page
    assert 'href="https://doi.org/10.5555/3600270.3601459"' in page
    assert '<time datetime="2026-12-02">2 December 2026</time>' in page


def test_a_full_title_equal_to_the_title_is_not_repeated(
    client: Client, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    source.full_title = source.title.upper()
    source.save()
    assert "Full title" not in client.get(f"/sources/{source.slug}/").content.decode()


def _admin_form(maintainer: User, source: Source, **changes: object) -> ModelForm[Source]:
    request = RequestFactory().get("/")
    request.user = maintainer
    model_admin = admin.site._registry[Source]
    form_class = model_admin.get_form(request, source)
    data = {
        name: getattr(source, name)
        for name in form_class.base_fields
        if name not in ("topics", "related", "replaced_by", "tier")
    }
    data |= {
        "tier": source.tier_id,
        "topics": [topic.pk for topic in source.topics.all()],
        "related": [],
        "replaced_by": "",
        **changes,
    }
    data = {name: ("" if value is None else value) for name, value in data.items()}
    return form_class(data, instance=source)


def test_the_admin_edits_and_checks_identifiers(maintainer: User, flash: Source) -> None:
    form = _admin_form(maintainer, flash, isbn="0-306-40615-2", doi="10.1/bad")
    assert not form.is_valid()
    assert "not a bare DOI" in form.errors["doi"][0]
    flash = Source.objects.get(pk=flash.pk)  # the refused form changed the instance it held
    form = _admin_form(maintainer, flash, isbn="0-306-40615-2", repository="dao-ailab/flash")
    assert form.is_valid(), form.errors
    source = form.save()
    assert (source.isbn, source.repository) == ("9780306406157", "dao-ailab/flash")


def test_the_admin_change_page_has_the_identifier_fields(
    client: Client, maintainer: User, flash: Source
) -> None:
    client.force_login(maintainer)
    page = client.get(f"/admin/catalog/source/{flash.pk}/change/").content.decode()
    for name in ("full_title", "arxiv_id", "doi", "isbn", "repository", "verified_from_url"):
        assert f'name="{name}"' in page


def test_identifiers_the_url_names_are_stored(tiers: Tiers) -> None:
    paper = Source.objects.create(
        slug="p",
        title="P",
        kind="paper",
        tier=tiers["core"],
        url="https://arxiv.org/abs/2403.02310",
    )
    repo = Source.objects.create(
        slug="r", title="R", kind="repository", tier=tiers["core"], url="https://github.com/o/r"
    )
    page = Source.objects.create(
        slug="d",
        title="D",
        kind="documentation",
        tier=tiers["core"],
        url="https://github.com/o/r/wiki",
    )
    assert paper.arxiv_id == "2403.02310"
    assert repo.repository == "o/r"
    assert page.repository == ""
