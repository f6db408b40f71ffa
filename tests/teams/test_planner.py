"""The session planner finds sources by title, other name or slug (typed without JavaScript, or
suggested by the catalog's search as the planner types), and records place, link and length."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from catalog.models import Source
from teams.models import Session, Team
from tests.factories import SourceFactory
from tests.hints import Response

NEW = "/teams/inference/sessions/new/"


@pytest.fixture
def catalog(db: None) -> dict[str, Source]:
    return {
        "vllm": SourceFactory(
            slug="vllm", title="FlashAttention, PagedAttention and vLLM", aliases="vLLM paper"
        ),
        "roofline": SourceFactory(slug="roofline", title="Roofline", aliases="Roofline model, RM"),
        "flash": SourceFactory(slug="flashattention", title="FlashAttention"),
    }


def plan(client: Client, sources: str, **extra: str) -> Response:
    data = {"title": "Serving night", "starts_at": "2030-06-01T18:30", "source_slugs": sources}
    return client.post(NEW, data | extra)


def test_titles_aliases_slugs_and_addresses_all_name_sources(
    client: Client, team: Team, owner: User, catalog: dict[str, Source]
) -> None:
    client.force_login(owner)
    typed = "FlashAttention, PagedAttention and vLLM\nroofline model\nhttps://x.test/sources/flashattention/"
    response = plan(client, typed)
    assert response.status_code == 302
    session = Session.objects.get()
    assert sorted(session.sources.values_list("slug", flat=True)) == [
        "flashattention",
        "roofline",
        "vllm",
    ]


def test_a_line_of_names_separated_by_commas(
    client: Client, team: Team, owner: User, catalog: dict[str, Source]
) -> None:
    client.force_login(owner)
    assert plan(client, "Roofline, FlashAttention").status_code == 302
    assert sorted(Session.objects.get().sources.values_list("slug", flat=True)) == [
        "flashattention",
        "roofline",
    ]


def test_unknown_and_ambiguous_names_are_explained_and_input_kept(
    client: Client, team: Team, owner: User, catalog: dict[str, Source]
) -> None:
    SourceFactory(slug="roofline-2", title="Roofline")
    client.force_login(owner)
    response = plan(client, "Roofline\nNo such paper")
    assert response.status_code == 400
    assert "Several sources are called “Roofline”" in response.text
    assert "No source is called “No such paper”" in response.text
    assert "No such paper</textarea>" in response.text
    assert not Session.objects.exists()


def test_the_planner_leads_by_default(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    page = client.get(NEW).text
    assert f'<option value="{owner.pk}" selected>' in page


def test_place_meeting_link_and_duration_are_saved(
    client: Client, team: Team, owner: User, catalog: dict[str, Source]
) -> None:
    client.force_login(owner)
    response = plan(
        client,
        "",
        place="Room 4.02",
        meeting_url="https://meet.example.com/serving",
        duration_minutes="90",
    )
    assert response.status_code == 302
    session = Session.objects.get()
    assert (session.place, session.meeting_url, session.duration_minutes) == (
        "Room 4.02",
        "https://meet.example.com/serving",
        90,
    )


def test_duration_left_empty_is_an_hour_and_a_bad_link_is_refused(
    client: Client, team: Team, owner: User
) -> None:
    client.force_login(owner)
    response = plan(client, "", meeting_url="not a link")
    assert response.status_code == 400
    assert "Enter a valid URL." in response.text
    assert plan(client, "").status_code == 302
    assert Session.objects.get().duration_minutes == 60


def test_suggestions_use_the_catalog_search(
    client: Client, team: Team, member: User, catalog: dict[str, Source]
) -> None:
    client.force_login(member)
    response = client.get("/teams/inference/sessions/sources/?find=roofline")
    assert response.status_code == 200
    assert 'data-add-source="Roofline"' in response.text
    assert "FlashAttention" not in response.text
    assert 'id="source-suggestions"' in response.text


def test_suggestions_answer_404_outside_the_team(
    client: Client, other_team: Team, catalog: dict[str, Source]
) -> None:
    client.force_login(other_team.memberships.get().user)
    assert client.get("/teams/inference/sessions/sources/?find=roofline").status_code == 404


def test_editing_shows_chosen_sources_as_chips(
    client: Client, team: Team, owner: User, catalog: dict[str, Source]
) -> None:
    client.force_login(owner)
    plan(client, "Roofline")
    session = Session.objects.get()
    page = client.get(f"/teams/inference/sessions/{session.pk}/edit/").text
    assert 'data-source-title="Roofline"' in page
    assert "Roofline</textarea>" in page


def test_a_new_session_in_the_past_is_refused_and_the_form_kept(
    client: Client, team: Team, owner: User
) -> None:
    client.force_login(owner)
    response = client.post(
        "/teams/inference/sessions/new/",
        {"title": "Kept title", "starts_at": "1999-06-01T18:30", "source_slugs": ""},
    )
    assert response.status_code == 400
    assert "That date is in the past (1 June 1999)" in response.text
    assert "Kept title" in response.text and "1999-06-01T18:30" in response.text
    assert not team.sessions.exists()


def test_a_session_planned_an_hour_late_is_still_recorded(
    client: Client, team: Team, owner: User
) -> None:
    client.force_login(owner)
    an_hour_ago = timezone.localtime(timezone.now() - timedelta(hours=1))
    response = client.post(
        "/teams/inference/sessions/new/",
        {"title": "Just met", "starts_at": f"{an_hour_ago:%Y-%m-%dT%H:%M}"},
    )
    assert response.status_code == 302
    assert team.sessions.filter(title="Just met").exists()


def test_a_past_session_can_still_be_edited(client: Client, team: Team, owner: User) -> None:
    session = team.sessions.create(
        title="Long ago", starts_at=timezone.now() - timedelta(days=400), facilitator=owner
    )
    client.force_login(owner)
    response = client.post(
        f"/teams/inference/sessions/{session.pk}/edit/",
        {
            "title": "Long ago, with notes",
            "starts_at": f"{timezone.localtime(session.starts_at):%Y-%m-%dT%H:%M}",
            "agenda": "What we said.",
        },
    )
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.title == "Long ago, with notes"


def test_many_unknown_sources_make_one_error_line(client: Client, team: Team, owner: User) -> None:
    client.force_login(owner)
    typos = "\n".join(f"typo {number}" for number in range(40))
    response = client.post(
        "/teams/inference/sessions/new/",
        {"title": "T", "starts_at": "2030-06-01T18:30", "source_slugs": typos + "\ntypo 0"},
    )
    assert response.status_code == 400
    assert response.text.count("No source") == 1
    listed = ", ".join(f"“typo {number}”" for number in range(5))
    assert f"No sources are called {listed} and 35 more." in response.text
