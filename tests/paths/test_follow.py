"""Following a path: a reader who can see it, or a team's owner for the team; nobody else."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from paths.models import PathFollow
from teams.models import Membership

from .follow_helpers import DETAIL_URLS, UserFactory, follow, make_path, sources, team_of

pytestmark = [pytest.mark.django_db, pytest.mark.urls(DETAIL_URLS)]


def test_a_reader_follows_and_unfollows_a_public_path(
    client: Client, reader: User, other_reader: User
) -> None:
    path = make_path(other_reader, sources(2))
    client.force_login(reader)
    response = client.post(f"/paths/{path.key}/follow/", {"next": "/library/"})
    assert response.status_code == 302 and response["Location"] == "/library/"
    assert PathFollow.objects.filter(path=path, user=reader).count() == 1
    client.post(f"/paths/{path.key}/follow/")  # twice: still one row
    assert PathFollow.objects.filter(path=path, user=reader).count() == 1
    client.post(f"/paths/{path.key}/unfollow/")
    assert not PathFollow.objects.exists()


def test_htmx_gets_the_control_back(client: Client, reader: User, other_reader: User) -> None:
    path = make_path(other_reader, sources(1))
    client.force_login(reader)
    response = client.post(f"/paths/{path.key}/follow/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'id="path-follow"' in response.text and "Unfollow" in response.text
    assert f'action="/paths/{path.key}/unfollow/"' in response.text


def test_the_control_offers_following_and_log_in(
    client: Client, reader: User, other_reader: User
) -> None:
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    path = make_path(other_reader, sources(1))
    request = RequestFactory().get("/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    assert "to follow this path" in render_to_string(
        "paths/includes/follow_form.html", {"path": path}, request=request
    )
    request.user = reader
    html = render_to_string("paths/includes/follow_form.html", {"path": path}, request=request)
    assert "Follow this path" in html and "Have" not in html
    team = team_of(reader)
    html = render_to_string("paths/includes/follow_form.html", {"path": path}, request=request)
    assert f"Have {team.name} follow it" in html
    follow(path, team=team)
    html = render_to_string("paths/includes/follow_form.html", {"path": path}, request=request)
    assert f'href="/paths/{path.key}/teams/{team.slug}/progress/"' in html


@pytest.mark.parametrize("visibility", ["private"])
def test_an_unseen_path_is_404_to_follow(
    client: Client, reader: User, other_reader: User, visibility: str
) -> None:
    path = make_path(other_reader, sources(1), visibility=visibility)
    client.force_login(reader)
    assert client.post(f"/paths/{path.key}/follow/").status_code == 404
    assert client.post("/paths/nope/follow/").status_code == 404
    assert not PathFollow.objects.exists()


def test_following_needs_a_post_and_a_reader(client: Client, other_reader: User) -> None:
    path = make_path(other_reader, sources(1))
    assert client.get(f"/paths/{path.key}/follow/").status_code == 405
    response = client.post(f"/paths/{path.key}/follow/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_team_owner_makes_the_team_follow_a_path(
    client: Client, reader: User, other_reader: User
) -> None:
    member = UserFactory()
    team = team_of(reader, member)
    shared = make_path(other_reader, sources(1), visibility="unlisted")
    own = make_path(member, sources(1), visibility="team", team=team)
    client.force_login(reader)
    for path in (shared, own):
        response = client.post(f"/paths/{path.key}/team-follow/", {"team": team.slug})
        assert response.status_code == 302
    assert set(PathFollow.objects.values_list("path_id", "team_id")) == {
        (shared.pk, team.pk),
        (own.pk, team.pk),
    }
    client.post(f"/paths/{own.key}/team-unfollow/", {"team": team.slug})
    assert not PathFollow.objects.filter(path=own).exists()


def test_a_team_follows_only_what_every_member_may_see(
    client: Client, reader: User, other_reader: User
) -> None:
    member = UserFactory()
    team = team_of(reader, member)
    mine = make_path(reader, sources(1), visibility="private")
    client.force_login(reader)
    response = client.post(f"/paths/{mine.key}/team-follow/", {"team": team.slug})
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("not every member may see it" in message for message in said)
    # Another team's path is not even visible: 404.
    other_team = team_of(other_reader, slug="others")
    theirs = make_path(other_reader, sources(1), visibility="team", team=other_team)
    assert client.post(f"/paths/{theirs.key}/team-follow/", {"team": team.slug}).status_code == 404
    assert not PathFollow.objects.exists()


def test_members_and_strangers_cannot_make_a_team_follow(
    client: Client, reader: User, other_reader: User
) -> None:
    member = UserFactory()
    team = team_of(reader, member)
    path = make_path(other_reader, sources(1))
    for user in (member, other_reader):
        client.force_login(user)
        assert (
            client.post(f"/paths/{path.key}/team-follow/", {"team": team.slug}).status_code == 404
        )
    assert not PathFollow.objects.exists()


def test_a_removed_member_loses_the_teams_paths_at_once(
    client: Client, reader: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    member = UserFactory()
    team = team_of(reader, member)
    path = make_path(reader, sources(2), visibility="team", team=team, title="Team secret")
    follow(path, user=member)
    client.force_login(member)
    assert "Team secret" in client.get("/library/").text
    with django_capture_on_commit_callbacks(execute=True):
        Membership.objects.get(team=team, user=member).delete()
    page = client.get("/library/").text
    assert "Team secret" not in page
    assert client.post(f"/paths/{path.key}/follow/").status_code == 404
