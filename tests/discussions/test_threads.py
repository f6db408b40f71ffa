"""Starting, reading, replying to, editing, deleting and hiding team threads on a source."""

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.models import Source
from discussions.models import Notification, Reply, Thread
from discussions.services import add_reply, start_thread
from teams.models import Team
from tests.hints import Response

from .conftest import login

pytestmark = pytest.mark.django_db


def post_thread(client: Client, source: Source, **data: object) -> Response:
    fields = {"team": "alpha", "title": "Why tiles?", **data}
    return client.post(reverse("discussions:source", args=[source.slug]), fields)


def test_a_member_starts_a_thread_on_the_source_page(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    login(client, people["member"])
    page = client.get(flash.get_absolute_url()).content.decode()
    assert 'id="discussion"' in page and "Start the thread" in page

    response = post_thread(
        client,
        flash,
        **{
            "body": "Is **tiling** the trick?",
            "quote_exact": "IO-aware exact attention",
            "quote_prefix": "we propose",
            "is_question": "on",
        },
    )

    assert response.status_code == 302, response.content.decode()[-3000:]
    thread = Thread.objects.get()
    assert response.status_code == 302 and response["Location"] == thread.get_absolute_url()
    assert (thread.team, thread.author, thread.is_question) == (team, people["member"], True)
    assert thread.body_html == "<p>Is <strong>tiling</strong> the trick?</p>\n"
    page = client.get(flash.get_absolute_url()).content.decode()
    assert "Why tiles?" in page
    detail = client.get(thread.get_absolute_url()).content.decode()
    assert "IO-aware exact attention" in detail and "open question" in detail


def test_markdown_in_threads_and_replies_is_sanitised(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    thread, _ = start_thread(
        author=people["member"], team=team, source=flash, title="t", body="<script>x</script>"
    )
    reply, _ = add_reply(thread=thread, author=people["owner"], body="[a](javascript:alert(1))")
    assert "<script>" not in thread.body_html
    assert 'href="javascript' not in reply.body_html and "<a" not in reply.body_html


def test_a_reply_is_posted_and_tells_the_author(
    client: Client,
    team: Team,
    people: dict[str, User],
    flash: Source,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    thread, _ = start_thread(author=people["member"], team=team, source=flash, title="Q")
    login(client, people["owner"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("discussions:reply", args=[thread.pk]), {"body": "Yes, tiles."}
        )
    reply = Reply.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"#reply-{reply.pk}")
    note = Notification.objects.get()
    assert (note.recipient, note.kind, note.reply) == (people["member"], "reply", reply)


def test_an_htmx_reply_returns_the_conversation(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    thread, _ = start_thread(author=people["member"], team=team, source=flash, title="Q")
    login(client, people["owner"])
    response = client.post(
        reverse("discussions:reply", args=[thread.pk]),
        {"body": "Swapped in."},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="conversation"') and "Swapped in." in html


def test_edits_are_marked_and_deletion_is_soft(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    thread, _ = start_thread(author=people["member"], team=team, source=flash, title="Old")
    reply, _ = add_reply(thread=thread, author=people["member"], body="first words")
    login(client, people["member"])
    client.post(
        reverse("discussions:edit", args=[thread.pk]),
        {"title": "New title", "body": ""},
    )
    client.post(reverse("discussions:reply-edit", args=[reply.pk]), {"body": "second"})
    page = client.get(thread.get_absolute_url()).content.decode()
    assert "New title" in page and page.count(">edited<") == 2 and "second" in page

    client.post(reverse("discussions:reply-delete", args=[reply.pk]))
    client.post(reverse("discussions:delete", args=[thread.pk]))
    page = client.get(thread.get_absolute_url()).content.decode()
    assert "deleted by its author" in page and "New title" not in page and "second" not in page
    assert Thread.objects.filter(pk=thread.pk, deleted_at__isnull=False).exists()


def test_only_the_author_edits_and_deletes(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    thread, _ = start_thread(author=people["member"], team=team, source=flash, title="Mine")
    reply, _ = add_reply(thread=thread, author=people["member"], body="mine too")
    login(client, people["owner"])
    for url in (
        reverse("discussions:edit", args=[thread.pk]),
        reverse("discussions:delete", args=[thread.pk]),
        reverse("discussions:reply-edit", args=[reply.pk]),
    ):
        assert client.get(url).status_code == 404
    assert client.post(reverse("discussions:reply-delete", args=[reply.pk])).status_code == 404


def test_owners_hide_a_thread_and_members_no_longer_read_it(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    thread, _ = start_thread(author=people["member"], team=team, source=flash, title="Rude")
    login(client, people["owner"])
    client.post(reverse("discussions:hide", args=[thread.pk]), {"hide": "1"})
    assert "Hidden from members" in client.get(thread.get_absolute_url()).content.decode()

    login(client, people["member"])
    page = client.get(thread.get_absolute_url()).content.decode()
    assert "A team owner hid this thread" in page and "Rude" not in page
    assert "Rude" not in client.get(flash.get_absolute_url()).content.decode()
    assert (
        client.post(reverse("discussions:hide", args=[thread.pk]), {"hide": "0"}).status_code == 404
    )


def test_the_quote_links_to_the_passage_with_a_text_fragment(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    flash.url = "https://example.org/paper.html"
    flash.save()
    thread, _ = start_thread(
        author=people["member"],
        team=team,
        source=flash,
        title="Q",
        quote_exact="exact, IO-aware",
        quote_prefix="we propose",
        quote_suffix="attention & more",
    )
    page = login(client, people["member"]).get(thread.get_absolute_url()).content.decode()
    # "&" inside the fragment is percent-encoded; HTML escaping would show it as "&amp;".
    expected = (
        "https://example.org/paper.html#:~:text="
        "we%20propose-,exact%2C%20IO%2Daware,-attention%20%26%20more"
    )
    assert f'href="{expected}"' in page


def test_the_source_page_lists_the_latest_threads_and_links_to_all(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    for n in range(22):
        Thread.objects.create(
            team=team, source=flash, author=people["member"], title=f"Thread {n:02}"
        )
    login(client, people["member"])
    page = client.get(flash.get_absolute_url()).content.decode()
    # Titles as the links show them: a bare "T01" also occurs in a time stamp after 01:00.
    assert ">Thread 21<" in page and ">Thread 01<" not in page
    assert reverse("discussions:source", args=[flash.slug]) in page
    every = client.get(reverse("discussions:source", args=[flash.slug])).content.decode()
    assert ">Thread 01<" in every and ">Thread 21<" in every


def test_an_htmx_start_swaps_the_discussion_element(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    login(client, people["member"])
    response = client.post(
        reverse("discussions:source", args=[flash.slug]),
        {"team": "alpha", "title": "Via htmx"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="discussion"')
    assert "Thread started" in html and "Via htmx" in html


def test_a_reader_in_two_teams_chooses_the_team(
    client: Client, team: Team, people: dict[str, User], flash: Source
) -> None:
    from teams.models import Membership

    Membership.objects.create(team=Team.objects.get(name="Beta"), user=people["member"])
    login(client, people["member"])
    html = client.get(flash.get_absolute_url()).content.decode()
    assert '<select name="team"' in html and ">Beta</option>" in html
    post_thread(client, flash, team="beta")
    assert Thread.objects.get().team == Team.objects.get(name="Beta")
