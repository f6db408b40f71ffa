"""Bad input and abuse: a clear message, nothing typed lost, nothing half saved."""

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from discussions.models import Reply, Thread
from discussions.services import ThreadClosed, add_reply, delete_thread, hide_thread, start_thread
from teams.models import Team
from tests.hints import Response

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def thread(team: Team, people: dict[str, User], flash: Source) -> Thread:
    started, _ = start_thread(author=people["member"], team=team, source=flash, title="Tiles")
    return started


def reply(client: Client, thread: Thread, body: str) -> Response:
    return client.post(reverse("discussions:reply", args=[thread.pk]), {"body": body})


def test_a_reply_over_the_limit_says_by_how_much_and_keeps_the_text(
    client: Client, thread: Thread, people: dict[str, User]
) -> None:
    login(client, people["owner"])
    body = "word " * 5_000 + "THE-END"
    response = reply(client, thread, body)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Your reply is 25,007 characters long; the limit is 20,000." in html
    assert "THE-END" in html
    assert not Reply.objects.exists()


def test_a_ten_megabyte_reply_gets_a_page_that_says_what_happened(
    client: Client, thread: Thread, people: dict[str, User]
) -> None:
    login(client, people["owner"])
    response = reply(client, thread, "x" * 10_000_000)
    html = response.content.decode()
    assert response.status_code == 400
    assert "larger than 2.6 MB, so nothing was saved" in html
    assert "the text you typed is still in the form there" in html
    assert not Reply.objects.exists()


@pytest.mark.parametrize("close", ["deleted", "hidden"])
def test_a_reply_to_a_closed_thread_is_refused_clearly(
    client: Client, thread: Thread, people: dict[str, User], close: str
) -> None:
    if close == "deleted":
        delete_thread(thread=thread)
    else:
        hide_thread(thread=thread, owner=people["owner"])
    login(client, people["owner"])
    response = reply(client, thread, "my careful words")
    html = response.content.decode()
    assert response.status_code == 409
    assert "takes no more replies. Your reply was not posted" in html
    assert "my careful words" in html
    assert not Reply.objects.exists()


def test_a_thread_closed_after_the_page_loaded_refuses_the_reply(
    thread: Thread, people: dict[str, User]
) -> None:
    stale = Thread.objects.get(pk=thread.pk)
    delete_thread(thread=thread)
    with pytest.raises(ThreadClosed):
        add_reply(thread=stale, author=people["owner"], body="late")


def test_posting_is_rate_limited_and_the_text_kept(
    client: Client, thread: Thread, people: dict[str, User], settings: Settings
) -> None:
    settings.DISCUSSIONS_POSTS_PER_HOUR = 2
    login(client, people["owner"])
    assert reply(client, thread, "one").status_code == 302
    assert reply(client, thread, "two").status_code == 302
    response = reply(client, thread, "three, kept")
    html = response.content.decode()
    assert response.status_code == 429
    assert "You have posted 2 times in discussions in the last hour" in html
    assert "three, kept" in html
    assert Reply.objects.count() == 2


def test_a_thread_needs_a_title_and_keeps_the_message(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    login(client, people["member"])
    response = client.post(
        reverse("discussions:source", args=[flash.slug]),
        {"team": "alpha", "title": "  ", "body": "the body I wrote"},
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "This field is required." in html and "the body I wrote" in html
    assert not Thread.objects.exists()


def test_a_thread_in_a_team_the_author_is_not_in_is_refused(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    login(client, people["member"])
    response = client.post(
        reverse("discussions:source", args=[flash.slug]), {"team": "beta", "title": "Sneaky"}
    )
    assert response.status_code == 400
    assert not Thread.objects.exists()


def test_two_replies_at_once_are_both_kept(thread: Thread, people: dict[str, User]) -> None:
    add_reply(thread=thread, author=people["owner"], body="first")
    add_reply(thread=thread, author=people["member"], body="second")
    assert list(Reply.objects.values_list("body", flat=True)) == ["first", "second"]


def test_mentioning_has_a_budget_of_its_own(
    client: Client, thread: Thread, people: dict[str, User], settings: Settings
) -> None:
    settings.DISCUSSIONS_MENTIONING_POSTS_PER_HOUR = 1
    login(client, people["owner"])
    assert reply(client, thread, "@max one").status_code == 302
    response = reply(client, thread, "@max again")
    assert response.status_code == 429
    assert "You have mentioned teammates in 1 post in the last hour" in response.content.decode()
    assert reply(client, thread, "no names, fine").status_code == 302
