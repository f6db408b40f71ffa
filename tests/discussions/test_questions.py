"""Questions: answered by their author or an owner, listed on the team page, on a session's page
and in its reminder, and marked resolved in the session by owners."""

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from catalog.models import Source
from discussions.models import Reply, Thread
from discussions.services import add_reply, start_thread
from teams.emails import send_reminder
from teams.models import Session, Team
from tests.hints import Response

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def question(team: Team, people: dict[str, User], flash: Source) -> tuple[Thread, Reply]:
    thread, _ = start_thread(
        author=people["member"],
        team=team,
        source=flash,
        title="What is IO-aware?",
        is_question=True,
    )
    reply, _ = add_reply(thread=thread, author=people["owner"], body="Fewer HBM reads.")
    return thread, reply


def answered(client: Client, thread: Thread, reply: Reply) -> Response:
    return client.post(reverse("discussions:answered", args=[thread.pk]), {"reply": reply.pk})


def test_the_author_marks_the_answer(
    client: Client, question: tuple[Thread, Reply], people: dict[str, User]
) -> None:
    thread, reply = question
    login(client, people["member"])
    assert answered(client, thread, reply).status_code == 302
    thread.refresh_from_db()
    assert thread.answered_by_reply == reply
    page = client.get(thread.get_absolute_url()).content.decode()
    assert "the answer" in page and ">answered<" in page


def test_an_owner_may_mark_it_and_another_member_may_not(
    client: Client, question: tuple[Thread, Reply], people: dict[str, User], team: Team
) -> None:
    thread, reply = question
    login(client, people["former"])
    assert answered(client, thread, reply).status_code == 404
    login(client, people["owner"])
    assert answered(client, thread, reply).status_code == 302


def test_the_answer_must_be_a_reply_of_the_thread(
    client: Client,
    question: tuple[Thread, Reply],
    people: dict[str, User],
    team: Team,
    flash: Source,
) -> None:
    thread, _ = question
    other, _ = start_thread(author=people["member"], team=team, source=flash, title="Other")
    foreign, _ = add_reply(thread=other, author=people["member"], body="elsewhere")
    login(client, people["member"])
    assert answered(client, thread, foreign).status_code == 404


def test_the_team_page_lists_open_questions_only(
    client: Client,
    question: tuple[Thread, Reply],
    people: dict[str, User],
    team: Team,
    flash: Source,
) -> None:
    thread, reply = question
    start_thread(author=people["owner"], team=team, source=flash, title="A remark, no question")
    login(client, people["member"])
    page = client.get(team.get_absolute_url()).content.decode()
    assert "What is IO-aware?" in page and "A remark, no question" not in page
    answered(client, thread, reply)
    assert "What is IO-aware?" not in client.get(team.get_absolute_url()).content.decode()


@pytest.fixture
def session(team: Team, flash: Source) -> Session:
    meeting = Session.objects.create(
        team=team, title="Flash night", starts_at=timezone.now() + timedelta(days=1)
    )
    meeting.sources.add(flash)
    return meeting


def test_the_session_page_and_reminder_list_open_questions(
    client: Client, question: tuple[Thread, Reply], people: dict[str, User], session: Session
) -> None:
    login(client, people["member"])
    page = client.get(session.get_absolute_url()).content.decode()
    assert "What is IO-aware?" in page
    assert "Resolved in this session" not in page  # members do not see the owner's button

    send_reminder(session, people["member"])
    assert "Open questions on this reading:\n- What is IO-aware?" in mail.outbox[0].body


def test_owners_mark_a_question_resolved_in_the_session(
    client: Client, question: tuple[Thread, Reply], people: dict[str, User], session: Session
) -> None:
    thread, _ = question
    login(client, people["owner"])
    response = client.post(
        reverse("discussions:resolved", args=[thread.pk]),
        {"session": session.pk, "next": session.get_absolute_url()},
    )
    assert response["Location"] == session.get_absolute_url()
    thread.refresh_from_db()
    assert thread.resolved_in_session == session and thread.resolved_at is not None
    page = client.get(session.get_absolute_url()).content.decode()
    assert "No open question on these sources." in page
    assert page.index("Resolved in this session") < page.index("What is IO-aware?")


def test_resolving_never_redirects_off_site(
    client: Client, question: tuple[Thread, Reply], people: dict[str, User], session: Session
) -> None:
    thread, _ = question
    login(client, people["owner"])
    response = client.post(
        reverse("discussions:resolved", args=[thread.pk]),
        {"session": session.pk, "next": "https://evil.example/"},
    )
    assert response["Location"] == thread.get_absolute_url()


def test_a_member_cannot_resolve(
    client: Client, question: tuple[Thread, Reply], people: dict[str, User], session: Session
) -> None:
    thread, _ = question
    login(client, people["member"])
    url = reverse("discussions:resolved", args=[thread.pk])
    assert client.post(url, {"session": session.pk}).status_code == 404
