"""Progress along followed paths: x of n read and the next step for a reader, the team's reads
and where members stall for a team; a constant number of queries at 1 and 200 paths."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from paths.models import Path, PathFollow, PathSection, PathStep
from paths.progress import reader_progress, team_progress
from teams.models import Session

from .follow_helpers import DETAIL_URLS, UserFactory, follow, make_path, read, sources, team_of

pytestmark = [pytest.mark.django_db, pytest.mark.urls(DETAIL_URLS)]


def test_a_reader_sees_x_of_n_and_the_next_unread_step(reader: User, other_reader: User) -> None:
    steps = sources(4)
    path = make_path(other_reader, steps)
    follow(path, user=reader)
    read(reader, steps[0], steps[2])
    read(reader, steps[1], status="reading")
    (line,) = reader_progress(reader)
    assert (line.read, line.total) == (2, 4)
    assert line.next_source == steps[1]  # reading is not read
    read(reader, steps[1], steps[3])
    read(other_reader, *steps)
    (line,) = reader_progress(reader)
    assert (line.read, line.next_source, line.done) == (4, None, True)


def test_my_library_shows_each_followed_path_as_one_line(
    client: Client, reader: User, other_reader: User
) -> None:
    steps = sources(3)
    path = make_path(other_reader, steps, title="Attention kernels")
    follow(path, user=reader)
    read(reader, steps[0])
    client.force_login(reader)
    page = client.get("/library/").text
    section = page.split('id="followed-paths-heading"', 1)[1].split("</section>", 1)[0]
    assert "Attention kernels</a>" in section and "1 of 3 read" in section
    assert '<progress max="3" value="1"' in section
    assert f'Next: <a href="{steps[1].get_absolute_url()}">Step 001</a>' in section


def test_a_path_that_turned_private_drops_off(
    client: Client, reader: User, other_reader: User
) -> None:
    path = make_path(other_reader, sources(1), title="Now private")
    follow(path, user=reader)
    Path.objects.filter(pk=path.pk).update(visibility="private")
    assert reader_progress(reader) == []


def many_paths(owner: User, count: int, steps_each: int = 100) -> list[Path]:
    shared = sources(steps_each, prefix="Shared")
    paths = Path.objects.bulk_create(
        Path(title=f"Path {n}", user=owner, visibility="public") for n in range(count)
    )
    sections = PathSection.objects.bulk_create(
        PathSection(path=path, title="", position=0) for path in paths
    )
    PathStep.objects.bulk_create(
        PathStep(path=path, section=section, source=source, position=n)
        for path, section in zip(paths, sections, strict=True)
        for n, source in enumerate(shared)
    )
    return paths


def queries_of(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_my_library_costs_the_same_at_1_and_200_followed_paths(
    client: Client, reader: User, other_reader: User, render_every_time: None
) -> None:
    client.force_login(reader)
    first = many_paths(other_reader, 1)
    follow(first[0], user=reader)
    read(reader, *[step.source for step in first[0].steps.all()[:10]])
    # One visit first: the header's unread count is cached after it, as on every later page.
    client.get("/library/")
    one = queries_of(client, "/library/")
    rest = many_paths(other_reader, 199)
    PathFollow.objects.bulk_create(PathFollow(path=path, user=reader) for path in rest)
    assert PathFollow.objects.filter(user=reader).count() == 200
    assert queries_of(client, "/library/") == one
    assert len(reader_progress(reader)) == 200


def test_the_team_line_shows_reads_stall_and_next_session(reader: User) -> None:
    members = [UserFactory() for _ in range(3)]
    team = team_of(reader, *members)
    steps = sources(5)
    path = make_path(reader, steps, visibility="team", team=team, title="Team plan")
    follow(path, team=team)
    # Four people: all read step 0, three read step 1, one read step 2.
    for user in [reader, *members]:
        read(user, steps[0])
    for user in members:
        read(user, steps[1])
    read(members[0], steps[2])
    session = Session.objects.create(
        team=team, title="Chapter 3", starts_at=timezone.now() + timedelta(days=2)
    )
    session.sources.add(steps[2])
    (line,) = team_progress(team)
    assert (line.members, line.total, line.reads, line.percent) == (4, 5, 8, 40)
    assert line.stall_source == steps[2]
    assert line.next_source_ids == [steps[2].pk, steps[3].pk, steps[4].pk]
    assert line.next_session is not None and line.next_session.title == "Chapter 3"


def test_the_team_page_costs_the_same_at_1_and_200_followed_paths(
    client: Client, reader: User, other_reader: User, render_every_time: None
) -> None:
    team = team_of(reader, UserFactory())
    client.force_login(reader)
    first = many_paths(other_reader, 1)
    follow(first[0], team=team)
    # One visit first: the header's unread count is cached after it, as on every later page.
    client.get(f"/teams/{team.slug}/")
    one = queries_of(client, f"/teams/{team.slug}/")
    rest = many_paths(other_reader, 199)
    PathFollow.objects.bulk_create(PathFollow(path=path, team=team) for path in rest)
    assert queries_of(client, f"/teams/{team.slug}/") == one


def test_the_team_page_shows_a_path_as_one_line_with_its_table_apart(
    client: Client, reader: User
) -> None:
    member = UserFactory()
    team = team_of(reader, member)
    steps = sources(30)
    path = make_path(reader, steps, visibility="team", team=team, title="Team plan")
    follow(path, team=team)
    read(member, steps[0])
    client.force_login(reader)
    page = client.get(f"/teams/{team.slug}/").text
    section = page.split('id="progress"', 1)[1].split("</section>", 1)[0]
    assert "Team plan</a>" in section and "<table" not in section
    table_url = f"/paths/{path.key}/teams/{team.slug}/progress/"
    assert table_url in section
    plan = f"/teams/{team.slug}/sessions/new/?sources={steps[0].pk},{steps[1].pk},{steps[2].pk}"
    assert plan in section  # one of two members read step 0: not most
    table = client.get(table_url).text
    assert plan in table  # the owner plans from the table's page too
    assert "Step 000" in table and "Step 024" in table and "Step 025" not in table
    assert "Step 029" in client.get(table_url + "?page=2").text
    # The table is the team's: a stranger gets 404.
    client.force_login(UserFactory())
    assert client.get(table_url).status_code == 404
