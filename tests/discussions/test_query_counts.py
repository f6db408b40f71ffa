"""The source page and the thread page cost the same with 1 and with 1,000 threads."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from catalog.models import Source
from discussions.models import Reply, Thread
from teams.models import Team

from .conftest import login

pytestmark = pytest.mark.django_db


def make_threads(team: Team, source: Source, author: User, count: int) -> None:
    Thread.objects.bulk_create(
        Thread(team=team, source=source, author=author, title=f"T{n}") for n in range(count)
    )


def statements(client: Client, url: str) -> int:
    client.get(url)  # warms the per-process lookups (the session, the catalog's version)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_the_source_page_is_flat_from_1_to_1000_threads(
    client: Client, team: Team, people: dict[str, User], flash: Source, render_every_time: None
) -> None:
    login(client, people["member"])
    make_threads(team, flash, people["owner"], 1)
    few = statements(client, flash.get_absolute_url())
    make_threads(team, flash, people["owner"], 999)
    many = statements(client, flash.get_absolute_url())
    assert few == many
    assert client.get(flash.get_absolute_url()).content.decode().count('class="thread-item"') == 20


def test_the_thread_page_is_flat_in_its_replies(
    client: Client, team: Team, people: dict[str, User], flash: Source, render_every_time: None
) -> None:
    login(client, people["member"])
    thread = Thread.objects.create(team=team, source=flash, author=people["owner"], title="T")
    Reply.objects.create(thread=thread, author=people["owner"], body="one")
    few = statements(client, thread.get_absolute_url())
    for n in range(30):
        Reply.objects.create(thread=thread, author=people["member"], body=f"r{n}")
    assert statements(client, thread.get_absolute_url()) == few
