"""Forking a path or a curated list, and taking what the origin changed since."""

from typing import Any

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from catalog.models import ListEntry, ListSection, ReadingList
from paths.forking import changed_ids
from paths.models import ChangeAction, Path, PathChange
from paths.services import add_step, create_path, move_step_to, remove_step, step_source_ids
from tests.factories import ListEntryFactory, SourceFactory, UserFactory, join_team
from tests.hints import SmallCatalog, Tiers, present

from .detail_stub import path_page  # noqa: F401

pytestmark = pytest.mark.usefixtures("path_page")


def titles(path: Path) -> list[str]:
    return list(path.steps.order_by("position").values_list("source__title", flat=True))


@pytest.fixture
def origin(small_catalog: SmallCatalog, other_reader: User) -> Path:
    path = create_path(other_reader, "Kernels first", description="Read *in order*.")
    section = path.sections.get()
    for source in small_catalog["path"]:
        add_step(path, other_reader, source, section=section, note=f"Why {source.slug}")
    path.visibility = "public"
    path.save()
    return path


def test_changes_are_added_removed_and_moved() -> None:
    assert changed_ids([1, 2, 3], [1, 2, 3]) == []
    assert changed_ids([1, 2, 3], [1, 4, 2]) == [("added", 4), ("removed", 3)]
    assert changed_ids([1, 2, 3, 4], [2, 3, 4, 1]) == [("moved", 1)]
    assert changed_ids([1, 2, 3], [3, 1, 2]) == [("moved", 3)]


def test_fork_a_path_copies_sections_steps_notes_and_origin(
    signed_in: Client, reader: User, origin: Path
) -> None:
    response = signed_in.post(reverse("paths:fork", args=[origin.key]))
    fork = Path.objects.get(user=reader)
    assert response.status_code == 302 and response["Location"] == fork.get_absolute_url()
    assert fork.title == "Kernels first (fork)"
    assert fork.description == "Read *in order*."
    assert fork.visibility == "private" and fork.team is None
    assert fork.forked_from == origin
    assert fork.origin_snapshot == step_source_ids(origin)
    assert titles(fork) == titles(origin)
    assert [s.note for s in fork.steps.order_by("position")] == [
        "Why scaling-book",
        "Why attention-paper",
        "Why roofline",
    ]
    assert fork.changes.filter(action=ChangeAction.CREATED).exists()


def test_fork_into_a_team_defaults_to_the_team(
    signed_in: Client, reader: User, origin: Path
) -> None:
    team = join_team(reader, slug="kernels")
    page = signed_in.get(reverse("paths:fork", args=[origin.key]))
    assert page.status_code == 200 and "The team Kernels" in page.content.decode()
    signed_in.post(reverse("paths:fork", args=[origin.key]), {"owner": team.pk})
    fork = Path.objects.get(team=team)
    assert fork.visibility == "team"


def test_fork_into_someone_elses_team_is_refused(signed_in: Client, origin: Path) -> None:
    stranger_team = join_team(UserFactory(), slug="strangers")
    response = signed_in.post(reverse("paths:fork", args=[origin.key]), {"owner": stranger_team.pk})
    assert response.status_code == 200  # the form again, with its error
    assert "Select a valid choice" in response.content.decode()
    assert not Path.objects.filter(team=stranger_team).exists()


@pytest.mark.parametrize("visibility", ["private"])
def test_fork_of_a_path_the_reader_cannot_see_is_404(
    signed_in: Client, origin: Path, visibility: str
) -> None:
    origin.visibility = visibility
    origin.save()
    assert signed_in.post(reverse("paths:fork", args=[origin.key])).status_code == 404
    assert signed_in.get(reverse("paths:fork", args=[origin.key])).status_code == 404
    assert signed_in.get(reverse("paths:upstream", args=[origin.key])).status_code == 404
    assert Path.objects.count() == 1


def test_anonymous_fork_is_sent_to_sign_in(client: Client, origin: Path) -> None:
    response = client.post(reverse("paths:fork", args=[origin.key]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def catalog_rows() -> tuple[list[Any], ...]:
    return (
        list(ReadingList.objects.values()),
        list(ListSection.objects.values()),
        list(ListEntry.objects.values()),
    )


def test_fork_a_curated_list_keeps_its_sections_and_writes_no_catalog_row(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    reading_list = small_catalog["list"]
    # Roofline also sits in the second section: a fork keeps it once, where it first appears.
    ListEntryFactory(
        section=ListSection.objects.get(slug="core"), source=small_catalog["path"][2], position=9
    )
    before = catalog_rows()
    with CaptureQueriesContext(connection) as queries:
        response = signed_in.post(reverse("paths:fork-list", args=[reading_list.slug]))
    assert response.status_code == 302
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert not [sql for sql in writes if "catalog_" in sql.split("(")[0]]
    assert catalog_rows() == before
    fork = Path.objects.get(user=reader)
    assert fork.forked_from_list == reading_list
    assert fork.title == f"{reading_list.title} (fork)"
    assert [s.title for s in fork.sections.order_by("position")] == [
        "Start here",
        "Attention kernels",
    ]
    assert titles(fork) == [
        "How to Scale Your Model",
        "Attention Is All You Need",
        "Roofline",
        "FlashAttention",
    ]
    assert len(fork.origin_snapshot) == 4


def test_upstream_lists_added_removed_moved_and_each_can_be_taken(
    signed_in: Client, reader: User, origin: Path
) -> None:
    signed_in.post(reverse("paths:fork", args=[origin.key]))
    fork = Path.objects.get(user=reader)
    scaling, attention, roofline = (s.source for s in origin.steps.order_by("position"))
    new = SourceFactory(title="Online softmax")
    # Upstream: roofline removed, a new source after scaling, attention moved to the front.
    remove_step(origin, origin.user, origin.steps.get(source=roofline).pk)
    add_step(origin, origin.user, new)
    move_step_to(origin, origin.user, origin.steps.get(source=new).pk, 1)
    move_step_to(origin, origin.user, origin.steps.get(source=attention).pk, 0)
    assert step_source_ids(origin) == [attention.pk, scaling.pk, new.pk]
    url = reverse("paths:upstream", args=[fork.key])
    page = signed_in.get(url).content.decode()
    assert "Online softmax" in page and "Roofline" in page
    assert page.count("Take this change") == 3

    signed_in.post(url, {"take": f"added:{new.pk}"})
    assert titles(fork) == [
        "How to Scale Your Model",
        "Online softmax",
        "Attention Is All You Need",
        "Roofline",
    ]
    signed_in.post(url, {"take": f"removed:{roofline.pk}"})
    assert "Roofline" not in titles(fork)
    # Taking it twice is a clear message, not a second change.
    again = signed_in.post(url, {"take": f"removed:{roofline.pk}"}, follow=True)
    assert "already been taken" in again.content.decode()
    moved = changed_ids(Path.objects.get(pk=fork.pk).origin_snapshot, step_source_ids(origin))
    assert moved == [("moved", attention.pk)] or moved == [("moved", scaling.pk)]
    kind, pk = moved[0]
    signed_in.post(url, {"take": f"{kind}:{pk}"})
    fork.refresh_from_db()
    assert fork.origin_snapshot == step_source_ids(origin)
    assert step_source_ids(fork) == step_source_ids(origin)
    assert "Nothing has changed upstream" in signed_in.get(url).content.decode()
    taken = PathChange.objects.filter(path=fork, action=ChangeAction.TOOK_UPSTREAM)
    assert taken.count() == 3


def test_take_all_makes_the_fork_follow_its_origin(
    signed_in: Client, reader: User, origin: Path
) -> None:
    signed_in.post(reverse("paths:fork", args=[origin.key]))
    fork = Path.objects.get(user=reader)
    first = present(origin.steps.order_by("position").first())
    remove_step(origin, origin.user, first.pk)
    add_step(origin, origin.user, SourceFactory(title="Later"))
    move_step_to(origin, origin.user, present(origin.steps.order_by("position").last()).pk, 0)
    signed_in.post(reverse("paths:upstream", args=[fork.key]), {"take": "all"})
    fork.refresh_from_db()
    assert step_source_ids(fork) == step_source_ids(origin) == fork.origin_snapshot


def test_a_reader_who_cannot_edit_the_fork_cannot_take_changes(
    client: Client, reader: User, origin: Path
) -> None:
    fork = create_path(reader, "Mine", visibility="unlisted")
    fork.forked_from = origin
    fork.save()
    client.force_login(UserFactory())
    url = reverse("paths:upstream", args=[fork.key])
    page = client.get(url).content.decode()
    assert "Take this change" not in page
    assert client.post(url, {"take": "all"}).status_code == 404


def test_an_origin_out_of_sight_is_said_without_its_title(
    signed_in: Client, reader: User, origin: Path
) -> None:
    signed_in.post(reverse("paths:fork", args=[origin.key]))
    fork = Path.objects.get(user=reader)
    origin.title = "Secret plans"
    origin.visibility = "private"
    origin.save()
    page = signed_in.get(reverse("paths:upstream", args=[fork.key])).content.decode()
    assert "no longer visible to you" in page
    assert "Secret plans" not in page
    response = signed_in.post(reverse("paths:upstream", args=[fork.key]), {"take": "all"})
    assert response.status_code == 302


def test_upstream_summary_counts_changes(rf: RequestFactory, reader: User, origin: Path) -> None:
    from django.template import Context, Template

    fork = create_path(reader, "Mine")
    fork.forked_from = origin
    fork.origin_snapshot = step_source_ids(origin)[:1]
    fork.save()
    request = rf.get("/")
    request.user = reader
    html = Template("{% load path_forks %}{% upstream_summary path %}").render(
        Context({"path": fork, "request": request})
    )
    assert "2 changes upstream since you forked" in html


def test_a_curated_list_page_has_a_post_form_that_forks_it(
    client: Client, signed_in: Client, small_catalog: SmallCatalog
) -> None:
    action = reverse("paths:fork-list", args=["wafer"])
    html = signed_in.get("/lists/wafer/").content.decode()
    assert f'method="post" action="{action}"' in html
    client.logout()
    assert "Log in to fork it" in client.get("/lists/wafer/").content.decode()


def test_the_fork_form_include_posts_to_the_path_fork(
    rf: RequestFactory, reader: User, origin: Path
) -> None:
    from django.template.loader import render_to_string

    request = rf.get("/")
    request.user = reader
    url = reverse("paths:fork", args=[origin.key])
    html = render_to_string(
        "paths/includes/fork_form.html", {"fork_url": url, "user": reader}, request
    )
    assert f'method="post" action="{url}"' in html and "csrfmiddlewaretoken" in html


def test_a_fork_costs_the_same_at_five_and_fifty_steps(
    reader: User, other_reader: User, tiers: Tiers
) -> None:
    from paths.forking import fork_path

    def forked(count: int) -> int:
        origin = create_path(other_reader, f"Origin {count}", visibility="public")
        for source in SourceFactory.create_batch(count, tier=tiers["core"]):
            add_step(origin, other_reader, source, log=False)
        with CaptureQueriesContext(connection) as queries:
            fork = fork_path(origin, reader, team=None, visibility="private").path
        assert fork.steps.count() == count
        return len(queries)

    assert forked(5) == forked(50)


def test_a_fork_of_a_list_takes_what_the_curators_added(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    signed_in.post(reverse("paths:fork-list", args=["wafer"]))
    fork = Path.objects.get(user=reader)
    later = SourceFactory(title="FlashAttention-2")
    ListEntryFactory(section=ListSection.objects.get(slug="core"), source=later, position=2)
    url = reverse("paths:upstream", args=[fork.key])
    page = signed_in.get(url).content.decode()
    assert "FlashAttention-2" in page and "Primary sources" in page
    signed_in.post(url, {"take": f"added:{later.pk}"})
    assert titles(fork)[-2:] == ["FlashAttention", "FlashAttention-2"]
    assert fork.steps.get(source=later).section.title == "Attention kernels"
