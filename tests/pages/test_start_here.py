"""The Start-here tier page is one ordered path, with the reader's control on every step."""

import re

from django.test import Client

from accounts.models import User
from catalog.lists import path_entries
from catalog.services import LoadReport
from library.models import Bookmark
from tests.library.controls import pressed


def step_links(html: str) -> list[str]:
    """The titles the page links to, in order, inside the numbered path."""
    path = html[html.index('id="path-steps"') : html.index("</ol>", html.index('id="path-steps"'))]
    return re.findall(r'<p class="card-title" id="src-(\d+)">', path)


def test_the_path_lists_each_source_once_in_order(client: Client, full_catalog: LoadReport) -> None:
    steps = [entry.source for entry in path_entries()]
    html = client.get("/tiers/start-here/").content.decode()
    assert step_links(html) == [str(source.pk) for source in steps]
    for source in steps:
        # One card each: no second list of the same sources below the path.
        assert html.count(f'id="src-{source.pk}"') == 1
        assert html.count(f'href="{source.get_absolute_url()}"') == 1


def test_every_step_has_the_readers_control_and_progress(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    steps = [entry.source for entry in path_entries()]
    Bookmark.objects.create(user=reader, source=steps[0], status="read")
    Bookmark.objects.create(user=reader, source=steps[1], status="reading")
    client.force_login(reader)
    html = client.get("/tiers/start-here/").content.decode()
    assert "1 of 8 read" in html
    for source in steps:
        assert html.count(f'id="bookmark-{source.pk}"') == 1
    assert pressed(html, steps[0]) == ["read"]
    assert pressed(html, steps[1]) == ["reading"]
    assert pressed(html, steps[2]) == []
    assert html.count('class="path-step is-read"') == 1


def test_visitors_get_one_quiet_save_per_step(client: Client, full_catalog: LoadReport) -> None:
    html = client.get("/tiers/start-here/").content.decode()
    steps = path_entries()
    assert html.count('class="save-link"') == len(steps)
    assert "bookmark-control" not in html
