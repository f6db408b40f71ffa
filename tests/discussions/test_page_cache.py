"""Kept pages follow the discussion: a teammate's new thread or reply reaches the pages a
member already has, and a new notification reaches the recipient's header."""

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from catalog.models import Source
from discussions.services import add_reply, start_thread
from teams.models import Team

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cache_on(settings: Settings) -> None:
    settings.CATALOG_PAGE_CACHE = True


def test_a_teammates_thread_reaches_a_kept_source_page(
    client: Client,
    team: Team,
    people: dict[str, User],
    flash: Source,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    login(client, people["member"])
    assert "Fresh thread" not in client.get(flash.get_absolute_url()).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        start_thread(author=people["owner"], team=team, source=flash, title="Fresh thread")
    assert "Fresh thread" in client.get(flash.get_absolute_url()).content.decode()


def test_another_teams_thread_leaves_the_page_alone(
    client: Client,
    team: Team,
    people: dict[str, User],
    flash: Source,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    login(client, people["member"])
    client.get(flash.get_absolute_url())
    with django_capture_on_commit_callbacks(execute=True):
        start_thread(
            author=people["other_team"],
            team=Team.objects.get(name="Beta"),
            source=flash,
            title="Beta's",
        )
    assert "Beta's" not in client.get(flash.get_absolute_url()).content.decode()


def test_a_reply_reaches_the_kept_thread_page_and_the_header(
    client: Client,
    team: Team,
    people: dict[str, User],
    flash: Source,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        thread, _ = start_thread(author=people["member"], team=team, source=flash, title="T")
    login(client, people["member"])
    page = client.get(thread.get_absolute_url()).content.decode()
    assert "No reply yet" in page and "Notifications</a>" in page
    with django_capture_on_commit_callbacks(execute=True):
        add_reply(thread=thread, author=people["owner"], body="A fresh reply")
    page = client.get(thread.get_absolute_url()).content.decode()
    assert "A fresh reply" in page
    assert 'Notifications <span class="badge">1</span>' in page
    assert reverse("discussions:notifications") in page
