"""A session planned from a path's or list's next steps: the form comes with them chosen."""

import pytest

from catalog.models import Source
from tests.factories import SourceFactory

TEAM = "/teams/inference/"


@pytest.mark.django_db
def test_the_form_is_prefilled_with_the_named_sources_in_order(client, team, owner):
    first, second = SourceFactory(title="GEMM tiling"), SourceFactory(title="Roofline")
    hidden = SourceFactory(title="Withdrawn work", status=Source.Status.RETIRED)
    client.force_login(owner)
    url = f"{TEAM}sessions/new/?sources={second.pk},{first.pk},{hidden.pk},x,99999"
    page = client.get(url).text
    assert "Roofline\nGEMM tiling</textarea>" in page
    assert 'data-source-title="Roofline"' in page
    assert "Withdrawn work" not in page


@pytest.mark.django_db
def test_a_prefilled_form_saves_the_sources(client, team, owner):
    source = SourceFactory(title="FlashAttention")
    client.force_login(owner)
    response = client.post(
        f"{TEAM}sessions/new/?sources={source.pk}",
        {
            "title": "Next steps",
            "starts_at": "2031-05-01T18:00",
            "source_slugs": source.title,
            "duration_minutes": "60",
        },
    )
    assert response.status_code == 302
    assert list(team.sessions.get().sources.all()) == [source]


@pytest.mark.django_db
def test_members_are_still_refused(client, team, member):
    source = SourceFactory()
    client.force_login(member)
    assert client.get(f"{TEAM}sessions/new/?sources={source.pk}").status_code == 404
