"""Progress along the Start-here path and each reading list, and the team view."""

import re

import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries, DjangoCaptureOnCommitCallbacks

from accounts.models import User
from library.reading import progress_along
from library.services import set_status
from teams.models import Team
from tests.factories import ListEntryFactory, UserFactory, join_team
from tests.hints import Response, SmallCatalog, Tiers

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def test_progress_counts_in_order_and_names_the_next_unread(small_catalog: SmallCatalog) -> None:
    scaling, attention, roofline = small_catalog["path"]
    progress = progress_along([scaling, attention, roofline, attention], {scaling.pk: "read"})
    assert (progress.read, progress.total, progress.percent) == (1, 3, 33)
    assert progress.next_source == attention
    progress = progress_along(
        [scaling, attention, roofline], {scaling.pk: "read", attention.pk: "reading"}
    )
    assert progress.next_source == attention
    done = progress_along([scaling], {scaling.pk: "read"})
    assert done.complete and done.next_source is None


@pytest.mark.parametrize("page", ["/tiers/start-here/", "/library/progress/path/"])
def test_path_progress_for_the_signed_in_reader(
    client: Client, reader: User, small_catalog: SmallCatalog, page: str
) -> None:
    scaling, _, roofline = small_catalog["path"]
    set_status(user=reader, source=scaling, status="read")
    set_status(user=reader, source=roofline, status="reading")
    client.force_login(reader)
    html = client.get(page).content.decode()
    assert "1 of 3 read" in html
    assert '<progress max="3" value="1"' in html
    assert re.search(
        r'Next: <a href="/sources/attention-paper/">Attention Is All You Need</a>', html
    )
    # The read step is marked on the path.
    assert html.count('class="path-step is-read"') == 1


def test_home_shows_path_progress(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    scaling = small_catalog["path"][0]
    set_status(user=reader, source=scaling, status="read")
    client.force_login(reader)
    html = client.get("/").content.decode()
    assert "1 of 3 read" in html
    assert 'id="path-progress"' in html


def test_anonymous_visitors_are_invited_not_tracked(
    client: Client, small_catalog: SmallCatalog
) -> None:
    html = client.get("/tiers/start-here/").content.decode()
    assert "to track your progress along this path" in html
    assert "of 3 read" not in html
    assert client.get("/library/progress/path/").status_code == 302


def test_htmx_path_refresh_returns_progress_and_the_step_facts_out_of_band(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    set_status(user=reader, source=small_catalog["path"][1], status="read")
    client.force_login(reader)
    response = client.get("/library/progress/path/", headers=HX)
    html = response.content.decode()
    assert "<html" not in html
    # The region stays (it holds the trigger); its content is swapped in.
    assert html.lstrip().startswith('<p class="progress-summary">')
    assert 'id="path-progress"' not in html
    step = small_catalog["path"][1]
    assert f'<p class="meta" id="path-facts-{step.pk}" data-hx-swap-oob="true">' in html
    # The steps' controls are not redrawn, so keyboard focus stays on the clicked button.
    assert "bookmark-control" not in html
    assert "1 of 3 read" in html
    assert "HX-Request" in response["Vary"]


def test_list_progress(client: Client, reader: User, small_catalog: SmallCatalog) -> None:
    set_status(user=reader, source=small_catalog["flash"], status="read")
    set_status(user=reader, source=small_catalog["path"][0], status="reading")
    client.force_login(reader)
    html = client.get("/lists/wafer/").content.decode()
    assert "1 of 4 read" in html
    assert 'Next: <a href="/sources/scaling-book/">How to Scale Your Model</a>' in html
    assert 'hx-get="/library/progress/lists/wafer/"' in html
    fragment = client.get("/library/progress/lists/wafer/", headers=HX).content.decode()
    assert fragment.lstrip().startswith('<p class="progress-summary">')
    assert "1 of 4 read" in fragment
    page = client.get("/library/progress/lists/wafer/").content.decode()
    assert "Your progress through Primary sources" in page
    assert client.get("/library/progress/lists/nope/").status_code == 404


def test_list_progress_requires_login(client: Client, small_catalog: SmallCatalog) -> None:
    assert client.get("/library/progress/lists/wafer/").status_code == 302
    html = client.get("/lists/wafer/").content.decode()
    assert "to track your progress through this list" in html


def test_members_see_how_many_of_each_team_finished_each_step(
    client: Client,
    reader: User,
    other_reader: User,
    small_catalog: SmallCatalog,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    scaling = small_catalog["path"][0]
    stranger = UserFactory()
    join_team(reader, other_reader, UserFactory(), slug="inference")
    join_team(reader, stranger, slug="kernels")
    join_team(UserFactory(), slug="elsewhere")
    set_status(user=other_reader, source=scaling, status="read")
    set_status(user=stranger, source=scaling, status="read")
    for member in Team.objects.get(slug="elsewhere").members.all():
        set_status(user=member, source=scaling, status="read")
    set_status(user=UserFactory(), source=scaling, status="read")  # in no team
    for page in ["/tiers/start-here/", "/lists/wafer/"]:
        assert "finished" not in team_counts(client.get(page))
    client.force_login(reader)
    for page in ["/tiers/start-here/", "/lists/wafer/"]:
        assert team_counts(client.get(page)) == [
            "Inference: 1 teammate finished",
            "Kernels: 1 teammate finished",
        ]
    with django_capture_on_commit_callbacks(execute=True):  # the page cache's versions
        set_status(user=reader, source=scaling, status="read")
    assert team_counts(client.get("/lists/wafer/")) == [
        "Inference: you and 1 teammate finished",
        "Kernels: you and 1 teammate finished",
    ]
    client.force_login(other_reader)
    assert team_counts(client.get("/lists/wafer/")) == ["Inference: you and 1 teammate finished"]


def team_counts(response: Response) -> list[str]:
    return re.findall(r'<span class="team-count">([^<]*)</span>', response.content.decode())


@pytest.mark.parametrize("steps", [3, 12])
def test_team_counts_cost_the_same_queries_whatever_the_list_holds(
    client: Client,
    reader: User,
    small_catalog: SmallCatalog,
    django_assert_max_num_queries: DjangoAssertNumQueries,
    steps: int,
) -> None:
    wafer = small_catalog["list"]
    section = wafer.sections.first()
    teams = [join_team(reader, slug=f"team-{n}") for n in range(2)]
    for n in range(steps):
        entry = ListEntryFactory(section=section, position=100 + n)
        for team in teams:
            mate = UserFactory()
            join_team(mate, slug=team.slug)
            set_status(user=mate, source=entry.source, status="read")
    client.force_login(reader)
    client.get("/lists/wafer/")  # sessions, content types
    with django_assert_max_num_queries(12):
        assert len(team_counts(client.get("/lists/wafer/"))) >= 2 * steps


def test_team_view_on_a_source_page(
    client: Client, reader: User, tiers: Tiers, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    hedy = UserFactory(email="hedy@example.com", display_name="Hedy")
    grace = UserFactory(email="grace@example.com")
    join_team(reader, hedy, grace, UserFactory(email="queue@example.com"), slug="inference")
    join_team(reader, slug="kernels")
    outsider = UserFactory(email="outsider@example.com")
    set_status(user=hedy, source=source, status="read")
    set_status(user=grace, source=source, status="reading")
    set_status(
        user=Team.objects.get(slug="inference").members.get(email="queue@example.com"),
        source=source,
        status="to_read",
    )
    set_status(user=outsider, source=source, status="read")
    set_status(user=reader, source=source, status="read")

    anonymous = client.get(source.get_absolute_url()).content.decode()
    assert "Hedy" not in anonymous and "grace" not in anonymous and "Your team" not in anonymous

    client.force_login(reader)
    html = client.get(source.get_absolute_url()).content.decode()
    team = html[
        html.index('id="team-heading"') : html.index("</section>", html.index('id="team-heading"'))
    ]
    assert "<h3>Inference</h3>" in team and "<h3>Kernels</h3>" in team
    assert "1 teammate read it:</strong> Hedy" in team
    assert "1 teammate is reading it:</strong> grace" in team
    assert "No teammate in Kernels has read this source or is reading it yet." in team
    # Not a teammate, nor someone who only saved it, nor the reader themself.
    assert "outsider" not in team and "queue" not in team and "reader" not in team


def test_team_names_are_escaped(client: Client, reader: User, small_catalog: SmallCatalog) -> None:
    source = small_catalog["flash"]
    bold = UserFactory(display_name="<b>Bold</b>")
    join_team(reader, bold)
    set_status(user=bold, source=source, status="read")
    client.force_login(reader)
    html = client.get(source.get_absolute_url()).content.decode()
    assert "<b>Bold</b>" not in html and "&lt;b&gt;Bold&lt;/b&gt;" in html


def test_team_view_when_nobody_else_has_read_it(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    join_team(reader)
    client.force_login(reader)
    html = client.get(small_catalog["flash"].get_absolute_url()).content.decode()
    assert "No teammate in Readers has read this source or is reading it yet." in html


def test_a_reader_in_no_team_sees_no_team_section(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    assert (
        'id="team-heading"'
        not in client.get(small_catalog["flash"].get_absolute_url()).content.decode()
    )


@pytest.mark.parametrize(
    "page", ["/library/progress/path/", "/library/progress/lists/wafer/", "/tiers/start-here/"]
)
def test_another_reader_sees_only_their_own_progress(
    client: Client, reader: User, other_reader: User, small_catalog: SmallCatalog, page: str
) -> None:
    for source in small_catalog["path"]:
        set_status(user=reader, source=source, status="read")
    client.force_login(other_reader)
    html = client.get(page).content.decode()
    assert "0 of" in html and "3 of 3" not in html and "3 of 4" not in html
    assert 'class="path-step is-read"' not in html
