"""A session planned from a path's or list's next steps: the form comes with them chosen."""

import pytest
from django.test import Client

from accounts.models import User
from catalog.models import Source
from teams.models import Team
from tests.factories import SourceFactory

TEAM = "/teams/inference/"


@pytest.mark.django_db
def test_the_form_is_prefilled_with_the_named_sources_in_order(
    client: Client, team: Team, owner: User
) -> None:
    first, second = SourceFactory(title="GEMM tiling"), SourceFactory(title="Roofline")
    hidden = SourceFactory(title="Withdrawn work", status=Source.Status.RETIRED)
    client.force_login(owner)
    url = f"{TEAM}sessions/new/?sources={second.pk},{first.pk},{hidden.pk},x,99999"
    page = client.get(url).text
    # By address: a title may name several sources (a paper and its repository).
    assert f"/sources/{second.slug}/\n/sources/{first.slug}/</textarea>" in page
    assert 'data-source-title="Roofline"' in page
    assert "Withdrawn work" not in page


@pytest.mark.django_db
def test_a_prefill_names_one_source_where_two_share_its_title(
    client: Client, team: Team, owner: User
) -> None:
    paper, repository = SourceFactory(title="SGLang"), SourceFactory(title="SGLang")
    client.force_login(owner)
    page = client.get(f"{TEAM}sessions/new/?sources={repository.pk}").text
    assert f"/sources/{repository.slug}/</textarea>" in page
    response = client.post(
        f"{TEAM}sessions/new/",
        {
            "title": "Next steps",
            "starts_at": "2031-05-01T18:00",
            "source_slugs": f"/sources/{repository.slug}/",
            "duration_minutes": "60",
        },
    )
    assert response.status_code == 302
    assert list(team.sessions.get().sources.all()) == [repository]
    assert paper not in team.sessions.get().sources.all()


@pytest.mark.django_db
def test_a_prefilled_form_saves_the_sources(client: Client, team: Team, owner: User) -> None:
    source = SourceFactory(title="FlashAttention")
    client.force_login(owner)
    response = client.post(
        f"{TEAM}sessions/new/?sources={source.pk}",
        {
            "title": "Next steps",
            "starts_at": "2031-05-01T18:00",
            "source_slugs": f"/sources/{source.slug}/",
            "duration_minutes": "60",
        },
    )
    assert response.status_code == 302
    assert list(team.sessions.get().sources.all()) == [source]


@pytest.mark.django_db
def test_members_are_still_refused(client: Client, team: Team, member: User) -> None:
    source = SourceFactory()
    client.force_login(member)
    assert client.get(f"{TEAM}sessions/new/?sources={source.pk}").status_code == 404
