"""Progress along the Start-here path and each reading list, and the team view."""

import re

import pytest

from library.reading import progress_along
from library.services import set_status
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def test_progress_counts_in_order_and_names_the_next_unread(small_catalog):
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
def test_path_progress_for_the_signed_in_reader(client, reader, small_catalog, page):
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


def test_home_shows_path_progress(client, reader, small_catalog):
    scaling = small_catalog["path"][0]
    set_status(user=reader, source=scaling, status="read")
    client.force_login(reader)
    html = client.get("/").content.decode()
    assert "1 of 3 read" in html
    assert 'id="path-progress"' in html


def test_anonymous_visitors_are_invited_not_tracked(client, small_catalog):
    html = client.get("/tiers/start-here/").content.decode()
    assert "to track your progress along this path" in html
    assert "of 3 read" not in html
    assert client.get("/library/progress/path/").status_code == 302


def test_htmx_path_refresh_returns_progress_and_the_step_facts_out_of_band(
    client, reader, small_catalog
):
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


def test_list_progress(client, reader, small_catalog):
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


def test_list_progress_requires_login(client, small_catalog):
    assert client.get("/library/progress/lists/wafer/").status_code == 302
    html = client.get("/lists/wafer/").content.decode()
    assert "to track your progress through this list" in html


def test_members_see_how_many_finished_each_step_anonymous_do_not(
    client, reader, other_reader, small_catalog
):
    scaling = small_catalog["path"][0]
    set_status(user=other_reader, source=scaling, status="read")
    set_status(user=UserFactory(), source=scaling, status="read")
    set_status(user=UserFactory(), source=scaling, status="reading")
    for page in ["/tiers/start-here/", "/lists/wafer/"]:
        assert "members finished" not in client.get(page).content.decode()
    client.force_login(reader)
    for page in ["/tiers/start-here/", "/lists/wafer/"]:
        assert "2 members finished" in client.get(page).content.decode()


def test_team_view_on_a_source_page(client, reader, tiers, small_catalog):
    source = small_catalog["flash"]
    set_status(
        user=UserFactory(email="hedy@example.com", display_name="Hedy"),
        source=source,
        status="read",
    )
    set_status(user=UserFactory(email="grace@example.com"), source=source, status="reading")
    set_status(user=UserFactory(email="queue@example.com"), source=source, status="to_read")
    set_status(user=reader, source=source, status="read")

    anonymous = client.get(source.get_absolute_url()).content.decode()
    assert "Hedy" not in anonymous and "grace" not in anonymous and "Your team" not in anonymous

    client.force_login(reader)
    html = client.get(source.get_absolute_url()).content.decode()
    assert "1 teammate read it:</strong> Hedy" in html
    assert "1 teammate is reading it:</strong> grace" in html
    assert "queue" not in html
    # The reader is not their own teammate.
    team = html[html.index('id="team-heading"') :]
    assert "2 teammate" not in team and "reader" not in team[: team.index("</section>")]


def test_team_names_are_escaped(client, reader, small_catalog):
    source = small_catalog["flash"]
    set_status(user=UserFactory(display_name="<b>Bold</b>"), source=source, status="read")
    client.force_login(reader)
    html = client.get(source.get_absolute_url()).content.decode()
    assert "<b>Bold</b>" not in html and "&lt;b&gt;Bold&lt;/b&gt;" in html


def test_team_view_when_nobody_else_has_read_it(client, reader, small_catalog):
    client.force_login(reader)
    html = client.get(small_catalog["flash"].get_absolute_url()).content.decode()
    assert "No teammate has read this source or is reading it yet." in html


@pytest.mark.parametrize(
    "page", ["/library/progress/path/", "/library/progress/lists/wafer/", "/tiers/start-here/"]
)
def test_another_reader_sees_only_their_own_progress(
    client, reader, other_reader, small_catalog, page
):
    for source in small_catalog["path"]:
        set_status(user=reader, source=source, status="read")
    client.force_login(other_reader)
    html = client.get(page).content.decode()
    assert "0 of" in html and "3 of 3" not in html and "3 of 4" not in html
    assert 'class="path-step is-read"' not in html
