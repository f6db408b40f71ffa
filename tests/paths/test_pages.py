import re
from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from paths.models import Path
from tests.factories import join_team
from tests.hints import found, present
from tests.paths.conftest import MakePath

pytestmark = pytest.mark.django_db


def step_links(html: str) -> list[str]:
    steps = found(re.search(r'<ol id="steps".*?</ol>', html, re.S)).group(0)
    return re.findall(r'href="(/sources/[^"]+/)"', steps)


def test_anonymous_visitors_are_sent_to_sign_in(client: Client) -> None:
    response = client.get(reverse("paths:index"))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_index_lists_my_paths_and_my_teams_and_offers_both_forms(
    client: Client, author: User, other_reader: User, make_path: MakePath
) -> None:
    team = join_team(author, other_reader, slug="kernels")
    make_path(2, title="Mine")
    make_path(1, user=other_reader, team=team, title="Ours")
    make_path(1, user=other_reader, title="Theirs alone")
    client.force_login(author)
    html = client.get(reverse("paths:index")).content.decode()
    assert "Mine" in html and "Ours" in html and "Theirs alone" not in html
    assert "2 steps" in html and "team Kernels" in html
    assert 'name="title"' in html and 'action="/paths/new/"' in html
    assert 'action="/paths/draft/"' in html and 'name="goal"' in html


def test_creating_a_path_for_a_team(client: Client, author: User) -> None:
    team = join_team(author, slug="kernels")
    client.force_login(author)
    response = client.post(
        reverse("paths:create"), {"title": "FA3 prep", "owner": f"team:{team.pk}"}
    )
    path = Path.objects.get()
    assert response["Location"] == path.get_absolute_url()
    assert (path.team, path.visibility, path.user) == (team, "team", author)
    assert list(path.editors.all()) == [author]
    assert client.get(reverse("paths:edit", args=[path.key])).status_code == 200


def test_a_personal_path_cannot_be_team_visible_and_keeps_what_was_typed(
    client: Client, author: User
) -> None:
    client.force_login(author)
    response = client.post(
        reverse("paths:create"),
        {"title": "Typed title", "description": "Typed words", "owner": "me", "visibility": "team"},
    )
    html = unescape(response.content.decode())
    assert response.status_code == 400
    assert "Only a team's path can be shared with a team" in html
    assert "Typed title" in html and "Typed words" in html
    assert not Path.objects.exists()


def test_a_100_kb_description_is_refused_with_a_clear_message(client: Client, author: User) -> None:
    client.force_login(author)
    response = client.post(
        reverse("paths:create"), {"title": "Long", "owner": "me", "description": "x" * 100_000}
    )
    assert response.status_code == 400
    assert "A description holds at most 20,000 characters" in unescape(response.content.decode())
    assert not Path.objects.exists()


def test_the_path_page_lists_steps_in_order_with_notes_and_history(
    client: Client, author: User, make_path: MakePath
) -> None:
    path = make_path(3, sections=2)
    step = present(path.steps.order_by("position").first())
    step.note = "Read *section 3* <script>alert(1)</script>"
    step.save()
    client.force_login(author)
    html = client.get(path.get_absolute_url()).content.decode()
    ordered = path.steps.order_by("section__position", "position").select_related("source")
    assert step_links(html) == [f"/sources/{s.source.slug}/" for s in ordered]
    assert "<em>section 3</em>" in html and "<script>alert" not in html
    assert "Part 2" in html
    assert "Created “Kernels first”" in html


@pytest.mark.parametrize("signed_in_as", ["author", "visitor"])
def test_the_path_page_reads_a_constant_number_of_queries(
    client: Client, author: User, make_path: MakePath, signed_in_as: str
) -> None:
    if signed_in_as == "author":
        client.force_login(author)
    # One visit first: the header's unread count is cached after it, as on every later page.
    client.get("/paths/")
    counts = []
    for size in (5, 120):
        path = make_path(size, visibility="public", sections=3, title=f"Path {size}")
        if signed_in_as == "author":
            client.force_login(author)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path.get_absolute_url())
        assert response.status_code == 200
        assert len(step_links(unescape(response.content.decode()))) == size
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_120_step_page_is_under_150_kb_even_for_its_editor(
    client: Client, author: User, make_path: MakePath
) -> None:
    path = make_path(120, sections=6)
    for step in path.steps.all():
        step.note = "Read the tiling section, then the benchmark tables: why is it faster?"
        step.save()
    client.force_login(author)
    size = len(client.get(path.get_absolute_url()).content)
    print(f"120-step page for its editor: {size} bytes")
    assert size <= 150_000, size


def test_a_120_step_page_with_long_titles_and_notes_stays_under_150_kb(
    client: Client, author: User, other_reader: User, make_path: MakePath
) -> None:
    path = make_path(120, sections=6, visibility="unlisted")
    for step in path.steps.select_related("source"):
        step.source.title = f"{step.source.title}: " + "an IO-aware exact attention kernel " * 2
        step.source.save(update_fields=["title"])
        step.note = "Read §3 on tiling, then the benchmark tables: *why* is the backward faster?"
        step.save()
    client.force_login(author)
    editor_size = len(client.get(path.get_absolute_url()).content)
    client.force_login(other_reader)
    reader_size = len(client.get(path.get_absolute_url()).content)
    print(f"120 steps, 80-character titles: editor {editor_size} B, reader {reader_size} B")
    assert reader_size <= 150_000 and editor_size <= 150_000, (reader_size, editor_size)


def test_the_index_reads_a_constant_number_of_queries(
    client: Client, author: User, make_path: MakePath
) -> None:
    team = join_team(author, slug="kernels")
    client.force_login(author)
    # One visit first: the header's unread count is cached after it, as on every later page.
    client.get(reverse("paths:index"))
    counts = []
    for extra in (1, 15):
        for n in range(extra):
            make_path(2, team=team if n % 2 else None, title=f"Path {extra}-{n}")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("paths:index")).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
