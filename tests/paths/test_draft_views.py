"""/paths/draft/: a goal drafts a path shown to edit; saving keeps the ticked steps in order."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from catalog.models import Source
from paths.models import ChangeAction, Path
from tests.factories import SourceFactory, UserFactory, join_team
from tests.hints import SmallCatalog

from .detail_stub import path_page  # noqa: F401

pytestmark = pytest.mark.usefixtures("path_page")
URL = "/paths/draft/"


def test_the_address_is_named() -> None:
    assert reverse("paths:draft") == URL


def test_anonymous_readers_are_sent_to_sign_in(client: Client) -> None:
    response = client.get(URL, {"goal": "attention"})
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_form_has_a_goal_field_and_a_loading_indicator(signed_in: Client) -> None:
    page = signed_in.get(URL).content.decode()
    assert 'name="goal"' in page and "htmx-indicator" in page
    assert "Save as a path" not in page


def test_a_goal_drafts_steps_each_with_its_reason(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    page = signed_in.get(URL, {"goal": "attention kernels"}).content.decode()
    assert "FlashAttention" in page
    assert 'name="keep"' in page and "checked" in page
    assert 'value="attention kernels"' in page  # the title, prefilled from the goal
    assert 'class="muted reason"' in page
    assert "Save as a path" in page


def test_an_htmx_request_gets_the_draft_alone(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    page = signed_in.get(URL, {"goal": "attention"}, headers={"HX-Request": "true"})
    html = page.content.decode()
    assert html.lstrip().startswith('<div id="draft">') and "<html" not in html


@pytest.mark.parametrize(
    ("goal", "says"),
    [("", "Describe what you want to learn"), ("zzqxv wobblefrotz", "has nothing on")],
)
def test_an_empty_or_unknown_goal_says_so(
    signed_in: Client, small_catalog: SmallCatalog, goal: str, says: str
) -> None:
    page = signed_in.get(URL, {"goal": goal}).content.decode()
    assert says in page
    assert "import a Markdown list of links" in page


def posted(
    sources: list[Source], kept: list[Source], title: str = "Attention first", **extra: object
) -> dict[str, object]:
    data = {
        "goal": "attention kernels",
        "title": title,
        "owner": "me",
        "visibility": "private",
        "section": ["Start here", "Kernels"],
        "step": [str(s.pk) for s in sources],
        "keep": [str(s.pk) for s in kept],
    }
    for index, source in enumerate(sources):
        data[f"section_of_{source.pk}"] = "0" if index < 2 else "1"
        data[f"reason_{source.pk}"] = f"Because {source.title}"
    return data | extra


def test_saving_keeps_only_the_ticked_steps_in_order(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    a, b, c = small_catalog["path"]
    flash = small_catalog["flash"]
    response = signed_in.post(URL, posted([b, a, flash, c], kept=[b, flash, c]))
    path = Path.objects.get(user=reader)
    assert response.status_code == 302 and response["Location"] == path.get_absolute_url()
    assert path.title == "Attention first" and path.visibility == "private"
    steps = path.steps.order_by("position").select_related("source", "section")
    assert [s.source for s in steps] == [b, flash, c]
    assert [s.section.title for s in steps] == ["Start here", "Kernels", "Kernels"]
    summaries = list(path.changes.values_list("summary", flat=True))
    assert "Drafted from a goal: attention kernels" in summaries
    assert path.changes.filter(action=ChangeAction.ADDED).count() == 1  # one record, not one a step
    page = signed_in.get(path.get_absolute_url()).content.decode()
    assert page.index(b.title) < page.index(flash.title) < page.index(c.title)


def test_a_source_not_in_the_catalog_is_refused(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    a = small_catalog["path"][0]
    data = posted([a], kept=[a]) | {"step": [str(a.pk), "999999"], "keep": [str(a.pk), "999999"]}
    response = signed_in.post(URL, data)
    assert response.status_code == 400
    assert "not a published catalog source" in response.content.decode()
    assert not Path.objects.exists()


def test_an_unpublished_source_is_refused(signed_in: Client, small_catalog: SmallCatalog) -> None:
    a = small_catalog["path"][0]
    hidden = SourceFactory(title="Withdrawn")
    Source.objects.filter(pk=hidden.pk).update(status=Source.Status.RETIRED)
    assert not Source.objects.published().filter(pk=hidden.pk).exists()
    response = signed_in.post(URL, posted([a, hidden], kept=[a, hidden]))
    assert response.status_code == 400
    assert not Path.objects.exists()


def test_nothing_kept_is_a_clear_error_that_keeps_the_draft(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    a, b, _ = small_catalog["path"]
    response = signed_in.post(URL, posted([a, b], kept=[], title="Typed title"))
    html = response.content.decode()
    assert "Keep at least one step" in html
    assert a.title in html and 'value="Typed title"' in html
    assert not Path.objects.exists()


def test_a_team_the_reader_is_not_in_is_a_form_error(
    signed_in: Client, small_catalog: SmallCatalog
) -> None:
    a = small_catalog["path"][0]
    team = join_team(UserFactory(), slug="elsewhere")
    response = signed_in.post(URL, posted([a], kept=[a], owner=str(team.pk)))
    assert "Select a valid choice" in response.content.decode()
    assert not Path.objects.exists()


def test_a_team_of_the_reader_owns_the_saved_path(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    a = small_catalog["path"][0]
    team = join_team(reader, slug="mine")
    signed_in.post(URL, posted([a], kept=[a], owner=str(team.pk), visibility="private"))
    path = Path.objects.get()
    assert path.team == team and path.visibility == "team"
