"""Nothing leaks: every discussions URL and the source page's discussion, for every kind of
viewer, with the page cache on and off, after a member's removal. Non-members get 404 (never
403), and no title, quote or reply text appears in what they get."""

from datetime import timedelta
from typing import TypedDict

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from catalog.models import Source
from discussions.models import Reply, Thread
from discussions.services import add_reply, start_thread
from teams import services as team_services
from teams.models import Session, Team
from tests.hints import Response

pytestmark = pytest.mark.django_db
VIEWERS = ["anonymous", "member", "owner", "outsider", "other_team", "former"]
MEMBERS = {"member", "owner"}
SECRETS = ["SECRET-TITLE", "SECRET-QUOTE", "SECRET-REPLY"]


class World(TypedDict):
    thread: Thread
    reply: Reply
    session: Session
    flash: Source


@pytest.fixture(params=["cached", "uncached"])
def world(
    request: pytest.FixtureRequest,
    settings: Settings,
    team: Team,
    people: dict[str, User],
    flash: Source,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> World:
    settings.CATALOG_PAGE_CACHE = request.param == "cached"
    with django_capture_on_commit_callbacks(execute=True):
        thread, _ = start_thread(
            author=people["member"],
            team=team,
            source=flash,
            title="SECRET-TITLE",
            quote_exact="SECRET-QUOTE",
            is_question=True,
        )
        reply, _ = add_reply(thread=thread, author=people["owner"], body="SECRET-REPLY @fred")
        session = Session.objects.create(
            team=team, title="Meet", starts_at=timezone.now() + timedelta(days=1)
        )
        session.sources.add(flash)
    world: World = {"thread": thread, "reply": reply, "session": session, "flash": flash}
    # The former member reads everything first, so the cache holds their pages.
    former = client_for(people, "former")
    for url in get_urls(world):
        assert former.get(url).status_code == 200
    assert "SECRET-TITLE" in former.get(flash.get_absolute_url()).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        team_services.remove_member(team=team, by=people["owner"], user=people["former"])
    return world


def get_urls(world: World) -> list[str]:
    thread = world["thread"]
    return [
        thread.get_absolute_url(),
        reverse("discussions:source", args=[world["flash"].slug]),
    ]


def post_urls(world: World) -> list[tuple[str, dict[str, object]]]:
    thread, reply = world["thread"], world["reply"]
    return [
        (reverse("discussions:reply", args=[thread.pk]), {"body": "intruder"}),
        (reverse("discussions:hide", args=[thread.pk]), {"hide": "1"}),
        (reverse("discussions:answered", args=[thread.pk]), {"reply": reply.pk}),
        (reverse("discussions:resolved", args=[thread.pk]), {"session": world["session"].pk}),
        (reverse("discussions:edit", args=[thread.pk]), {"title": "hijacked"}),
        (reverse("discussions:delete", args=[thread.pk]), {}),
        (reverse("discussions:reply-edit", args=[reply.pk]), {"body": "hijacked"}),
        (reverse("discussions:reply-delete", args=[reply.pk]), {}),
    ]


def client_for(people: dict[str, User], viewer: str) -> Client:
    client = Client()
    if viewer != "anonymous":
        client.force_login(people[viewer])
    return client


def leaked(response: Response) -> list[str]:
    text = response.content.decode()
    return [secret for secret in SECRETS if secret in text]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_pages_show_threads_to_members_only(
    world: World, people: dict[str, User], viewer: str
) -> None:
    client = client_for(people, viewer)
    thread_url, listing_url = get_urls(world)
    response = client.get(thread_url)
    if viewer in MEMBERS:
        assert response.status_code == 200
        assert "SECRET-TITLE" in response.content.decode()
    else:
        assert (response.status_code, leaked(response)) == (404, [])
    # The source's list of the reader's teams' threads: any reader's own (maybe empty) list.
    response = client.get(listing_url)
    if viewer in MEMBERS:
        assert "SECRET-TITLE" in response.content.decode()
    else:
        expected = 404 if viewer == "anonymous" else 200
        assert (response.status_code, leaked(response)) == (expected, [])
    source_page = client.get(world["flash"].get_absolute_url())
    html = source_page.content.decode()
    assert source_page.status_code == 200
    if viewer != "anonymous":
        assert 'id="discussion"' in html
    assert ("SECRET-TITLE" in html) == (viewer in MEMBERS)
    if viewer != "anonymous":
        notifications = client.get(reverse("discussions:notifications"))
        assert ("SECRET-TITLE" in notifications.content.decode()) == (viewer == "member")


@pytest.mark.parametrize("viewer", [v for v in VIEWERS if v not in MEMBERS])
def test_no_write_reaches_a_thread_from_outside(
    world: World, people: dict[str, User], viewer: str
) -> None:
    client = client_for(people, viewer)
    for url, data in post_urls(world):
        response = client.post(url, data)
        assert (response.status_code, leaked(response)) == (404, []), url
    for url, _ in post_urls(world)[4:7]:
        response = client.get(url)
        assert (response.status_code, leaked(response)) == (404, []), url
    thread = Thread.objects.get()
    assert (thread.title, thread.hidden_by, thread.deleted_at, thread.resolved_at) == (
        "SECRET-TITLE",
        None,
        None,
        None,
    )
    assert thread.answered_by_reply is None
    assert list(Reply.objects.values_list("body", "deleted_at")) == [("SECRET-REPLY @fred", None)]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_team_and_session_pages_show_questions_to_members_only(
    world: World, people: dict[str, User], viewer: str
) -> None:
    client = client_for(people, viewer)
    team = world["thread"].team
    for url in (team.get_absolute_url(), world["session"].get_absolute_url()):
        response = client.get(url)
        if viewer in MEMBERS:
            assert "SECRET-TITLE" in response.content.decode(), url
        else:
            assert response.status_code in (302, 404), url
            assert leaked(response) == [], url


def test_the_header_count_drops_for_a_removed_member(world: World, people: dict[str, User]) -> None:
    client = client_for(people, "former")
    html = client.get(reverse("pages:home")).content.decode()
    assert 'href="/notifications/">Notifications</a>' in html
