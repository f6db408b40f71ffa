from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from paths.models import MAX_SECTIONS, MAX_STEPS, Path, PathChange, PathSection, PathStep
from tests.factories import SourceFactory, join_team
from tests.hints import Response, Tiers, present
from tests.paths.conftest import MakePath

pytestmark = pytest.mark.django_db


def order(path: Path) -> list[str]:
    return list(
        path.steps.order_by("section__position", "position").values_list("source__slug", flat=True)
    )


@pytest.fixture
def editing(client: Client, author: User) -> Client:
    client.force_login(author)
    return client


def add(
    client: Client, path: Path, text: str, headers: dict[str, str] | None = None, **extra: str
) -> Response:
    url = reverse("paths:add-step", args=[path.key])
    return client.post(url, {"source": text, **extra}, headers=headers or {})


def test_adding_by_slug_address_or_title(
    editing: Client, make_path: MakePath, tiers: Tiers
) -> None:
    path = make_path(0)
    by_slug = SourceFactory(slug="flash-attention", title="FlashAttention", tier=tiers["core"])
    by_arxiv = SourceFactory(url="https://arxiv.org/abs/2205.14135", arxiv_id="2205.14135")
    by_title = SourceFactory(title="Roofline: an insightful visual model")
    response = add(editing, path, "flash-attention")
    step = path.steps.get()
    assert response["Location"] == f"{path.get_absolute_url()}#step-{step.pk}"
    add(editing, path, "https://arxiv.org/abs/2205.14135v2")
    add(editing, path, "roofline: an insightful")
    assert order(path) == [by_slug.slug, by_arxiv.slug, by_title.slug]
    assert PathChange.objects.filter(path=path, action="added").count() == 3


def test_unknown_ambiguous_and_repeated_sources_get_clear_messages(
    editing: Client, make_path: MakePath
) -> None:
    path = make_path(0)
    SourceFactory(title="Kernel tiling, part one")
    SourceFactory(title="Kernel tiling, part two")
    nothing = add(editing, path, "no such thing anywhere", note="Keep me")
    assert nothing.status_code == 400
    assert "No source in the catalog matches “no such thing anywhere”" in unescape(
        nothing.content.decode()
    )
    assert "Keep me" in unescape(nothing.content.decode())
    several = add(editing, path, "kernel tiling")
    assert "matches several sources" in unescape(several.content.decode())
    assert "Kernel tiling, part one" in unescape(several.content.decode())
    source = SourceFactory()
    add(editing, path, source.slug)
    again = add(editing, path, source.slug)
    assert again.status_code == 400
    assert f"“{source.title}” is already on this path." in unescape(again.content.decode())
    assert path.steps.count() == 1


def test_the_501st_step_and_the_61st_section_are_refused(
    editing: Client, make_path: MakePath, tiers: Tiers
) -> None:
    path = make_path(0)
    section = path.sections.get()
    sources = SourceFactory.create_batch(MAX_STEPS + 1, tier=tiers["core"])
    PathStep.objects.bulk_create(
        PathStep(path=path, section=section, source=s, position=i)
        for i, s in enumerate(sources[:-1])
    )
    response = add(editing, path, sources[-1].slug)
    assert f"A path holds at most {MAX_STEPS} steps." in unescape(response.content.decode())
    PathSection.objects.bulk_create(
        PathSection(path=path, title=f"S{n}", position=n) for n in range(1, MAX_SECTIONS)
    )
    url = reverse("paths:add-section", args=[path.key])
    response = editing.post(url, {"section-title": "One more"})
    assert response.status_code == 400
    assert f"A path holds at most {MAX_SECTIONS} sections." in unescape(response.content.decode())
    assert "One more" in unescape(response.content.decode())


def test_up_down_and_remove_buttons_work_without_javascript(
    editing: Client, make_path: MakePath
) -> None:
    path = make_path(3)
    first, second, third = order(path)
    step = path.steps.get(source__slug=third)
    response = editing.post(reverse("paths:steps-action", args=[path.key]), {"up": step.pk})
    assert response["Location"].endswith(f"#step-{step.pk}")
    assert order(path) == [first, third, second]
    editing.post(reverse("paths:steps-action", args=[path.key]), {"down": step.pk})
    assert order(path) == [first, second, third]
    editing.post(reverse("paths:steps-action", args=[path.key]), {"remove": step.pk})
    assert order(path) == [first, second]
    assert PathChange.objects.filter(path=path, action="removed").exists()


def test_two_editors_moving_the_same_step_from_stale_pages_lose_nothing(
    client: Client, author: User, other_reader: User, make_path: MakePath
) -> None:
    team = join_team(author, other_reader, slug="kernels")
    path = make_path(4, team=team)
    path.editors.add(author, other_reader)
    a, b, c, d = order(path)
    moving = path.steps.get(source__slug=d).pk
    client.force_login(author)
    client.post(reverse("paths:steps-action", args=[path.key]), {"up": moving})
    # The second editor's page still shows the old order; their "up" applies to the order now.
    client.force_login(other_reader)
    client.post(reverse("paths:steps-action", args=[path.key]), {"up": moving})
    assert order(path) == [a, d, b, c]
    client.post(reverse("paths:steps-action", args=[path.key]), {"remove": moving})
    client.force_login(author)
    response = client.post(reverse("paths:steps-action", args=[path.key]), {"remove": moving})
    assert response.status_code == 302
    assert order(path) == [a, b, c]


def test_moving_to_a_place_answers_htmx_with_the_steps_alone(
    editing: Client, make_path: MakePath
) -> None:
    path = make_path(3)
    a, b, c = order(path)
    step = path.steps.get(source__slug=a)
    response = editing.post(
        reverse("paths:move-to", args=[path.key, step.pk]), {"place": "3"}, HTTP_HX_REQUEST="true"
    )
    html = unescape(response.content.decode())
    assert order(path) == [b, c, a]
    assert html.lstrip().startswith('<section id="steps-region"')
    assert "<html" not in html
    bad = editing.post(reverse("paths:move-to", args=[path.key, step.pk]), {"place": "top"})
    assert bad.status_code == 400


def test_a_steps_note_and_section_are_edited_on_its_own_page(
    editing: Client, make_path: MakePath
) -> None:
    path = make_path(2, sections=2)
    step = present(path.steps.order_by("position").first())
    other = path.sections.exclude(pk=step.section_id).get()
    url = reverse("paths:step-edit", args=[path.key, step.pk])
    assert editing.get(url).status_code == 200
    too_long = editing.post(url, {"note": "n" * 5_001})
    assert too_long.status_code == 400 and "n" * 5_001 in too_long.content.decode()
    editing.post(url, {"note": "Look at **figure 2**", "section": str(other.pk)})
    step.refresh_from_db()
    assert step.section == other and "<strong>figure 2</strong>" in step.note_html
    assert order(path)[-1] == step.source.slug
    assert set(PathChange.objects.filter(path=path).values_list("action", flat=True)) >= {
        "noted",
        "moved",
    }


def test_sections_are_renamed_and_deleted_without_losing_steps(
    editing: Client, make_path: MakePath
) -> None:
    path = make_path(4, sections=2)
    first, second = path.sections.order_by("position")
    editing.post(reverse("paths:section", args=[path.key, second.pk]), {"title": "Advanced"})
    second.refresh_from_db()
    assert second.title == "Advanced"
    before = order(path)
    response = editing.post(
        reverse("paths:section", args=[path.key, second.pk]), {"action": "delete"}
    )
    assert response.status_code == 302
    assert list(path.sections.all()) == [first]
    assert order(path) == before
    refused = editing.post(
        reverse("paths:section", args=[path.key, first.pk]), {"action": "delete"}, follow=True
    )
    assert "A path keeps at least one section." in unescape(refused.content.decode())


def test_details_are_saved_with_history_and_wrong_visibility_is_explained(
    editing: Client, author: User, make_path: MakePath
) -> None:
    team = join_team(author, slug="kernels")
    path = make_path(1, team=team)
    path.editors.add(author)
    url = reverse("paths:edit", args=[path.key])
    wrong = editing.post(url, {"title": "Renamed", "description": "Why", "visibility": "private"})
    assert wrong.status_code == 400
    assert "A team's path is seen by at least its members" in unescape(wrong.content.decode())
    assert "Renamed" in unescape(wrong.content.decode())
    editing.post(url, {"title": "Renamed", "description": "Why *this*", "visibility": "public"})
    path.refresh_from_db()
    assert (path.title, path.visibility) == ("Renamed", "public")
    actions = set(PathChange.objects.filter(path=path).values_list("action", flat=True))
    assert {"renamed", "described", "visibility"} <= actions


def test_team_owners_choose_editors_and_members_cannot(
    client: Client, author: User, other_reader: User, make_path: MakePath
) -> None:
    from teams.models import Membership

    team = join_team(author, other_reader, slug="kernels")
    Membership.objects.filter(team=team, user=author).update(role="owner")
    path = make_path(1, team=team)
    client.force_login(other_reader)
    assert client.get(reverse("paths:edit", args=[path.key])).status_code == 404
    client.force_login(author)
    assert (
        "Members who may edit"
        in client.get(reverse("paths:edit", args=[path.key])).content.decode()
    )
    client.post(reverse("paths:editors", args=[path.key]), {"editors": [other_reader.pk]})
    assert list(path.editors.all()) == [other_reader]
    client.force_login(other_reader)
    assert client.get(reverse("paths:edit", args=[path.key])).status_code == 200
    assert client.post(reverse("paths:editors", args=[path.key]), {}).status_code == 404


def test_deleting_asks_first(editing: Client, make_path: MakePath) -> None:
    path = make_path(2)
    url = reverse("paths:delete", args=[path.key])
    assert "cannot be undone" in editing.get(url).content.decode()
    assert editing.post(url)["Location"] == reverse("paths:index")
    assert not Path.objects.exists()


def test_an_allowed_editor_cannot_delete_a_teams_path(
    client: Client, author: User, other_reader: User, make_path: MakePath
) -> None:
    from teams.models import Membership

    team = join_team(author, other_reader, slug="kernels")
    Membership.objects.filter(team=team, user=author).update(role="owner")
    path = make_path(1, team=team)
    path.editors.add(other_reader)
    client.force_login(other_reader)
    assert client.post(reverse("paths:delete", args=[path.key])).status_code == 404
    client.force_login(author)
    assert client.post(reverse("paths:delete", args=[path.key])).status_code == 302
    assert not Path.objects.exists()


def test_htmx_gets_the_steps_with_the_error_and_what_was_typed(
    editing: Client, make_path: MakePath
) -> None:
    path = make_path(1)
    response = add(editing, path, "nothing like this", headers={"HX-Request": "true"})
    html = unescape(response.content.decode())
    assert response.status_code == 200  # htmx swaps successes only
    assert html.lstrip().startswith('<section id="steps-region"')
    assert "No source in the catalog matches" in html and 'value="nothing like this"' in html
