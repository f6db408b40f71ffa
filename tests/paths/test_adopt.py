"""Proposing a path to the catalog, and the maintainers adopting it as a curated list."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from catalog.models import ListEntry, ReadingList
from paths.adopting import unique_slug
from paths.models import Path
from paths.services import add_section, add_step, create_path
from tests.factories import ReadingListFactory, SourceFactory, UserFactory, join_team
from tests.hints import Response, Tiers

from .detail_stub import path_page  # noqa: F401

pytestmark = pytest.mark.usefixtures("path_page")
CHANGELIST = "admin:paths_path_changelist"


@pytest.fixture
def shared_path(reader: User, tiers: Tiers) -> Path:
    path = create_path(reader, "Serving at scale", visibility="public")
    first = path.sections.get()
    first.title = "Basics"
    first.save()
    for title in ("Roofline", "Scaling book"):
        add_step(path, reader, SourceFactory(title=title), section=first)
    later = add_section(path, reader, "Distributed")
    add_step(path, reader, SourceFactory(title="DistServe"), section=later)
    return path


def said(response: Response) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def test_an_editor_proposes_a_public_path(signed_in: Client, shared_path: Path) -> None:
    response = signed_in.post(reverse("paths:propose", args=[shared_path.key]))
    shared_path.refresh_from_db()
    assert response.status_code == 302
    assert shared_path.proposed_at is not None
    assert "Proposed to the maintainers" in said(response)
    assert shared_path.changes.filter(summary__contains="Proposed").count() == 1


def test_a_private_path_cannot_be_proposed(signed_in: Client, shared_path: Path) -> None:
    shared_path.visibility = "private"
    shared_path.save()
    response = signed_in.post(reverse("paths:propose", args=[shared_path.key]))
    shared_path.refresh_from_db()
    assert shared_path.proposed_at is None
    assert "Only a public or unlisted path" in said(response)


def test_a_reader_who_cannot_edit_gets_404(client: Client, shared_path: Path) -> None:
    client.force_login(UserFactory())
    assert client.post(reverse("paths:propose", args=[shared_path.key])).status_code == 404
    member = UserFactory()
    team_path = create_path(UserFactory(), "Team's", team=join_team(member), visibility="public")
    client.force_login(member)  # a member the owners did not allow to edit
    assert client.post(reverse("paths:propose", args=[team_path.key])).status_code == 404


def test_proposing_is_post_only(signed_in: Client, shared_path: Path) -> None:
    assert signed_in.get(reverse("paths:propose", args=[shared_path.key])).status_code == 405


def test_the_admin_lists_and_filters_proposed_paths(
    client: Client, maintainer: User, shared_path: Path
) -> None:
    shared_path.proposed_at = shared_path.created
    shared_path.save()
    create_path(maintainer, "Kept to myself")
    client.force_login(maintainer)
    page = client.get(reverse(CHANGELIST), {"proposed": "yes"}).content.decode()
    assert "Serving at scale" in page and "Kept to myself" not in page
    detail = client.get(reverse("admin:paths_path_change", args=[shared_path.pk]))
    assert detail.status_code == 200 and "DistServe" in detail.content.decode()


def test_adopting_copies_sections_and_entries_in_order(
    client: Client, maintainer: User, shared_path: Path
) -> None:
    ReadingListFactory(slug="serving-at-scale")
    client.force_login(maintainer)
    response = client.post(
        reverse(CHANGELIST), {"action": "adopt", ACTION_CHECKBOX_NAME: [shared_path.pk]}
    )
    assert response.status_code == 302
    shared_path.refresh_from_db()
    adopted = shared_path.adopted_as
    assert adopted is not None and adopted.slug == "serving-at-scale-2"
    assert adopted.title == "Serving at scale"
    assert [s.title for s in adopted.sections.order_by("position")] == ["Basics", "Distributed"]
    entries = ListEntry.objects.filter(section__reading_list=adopted).order_by(
        "section__position", "position"
    )
    assert [e.source.title for e in entries] == ["Roofline", "Scaling book", "DistServe"]


def test_view_only_staff_cannot_adopt(client: Client, shared_path: Path) -> None:
    viewer = UserFactory(is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_path"))
    client.force_login(viewer)
    page = client.get(reverse(CHANGELIST))
    assert page.status_code == 200 and 'value="adopt"' not in page.content.decode()
    client.post(reverse(CHANGELIST), {"action": "adopt", ACTION_CHECKBOX_NAME: [shared_path.pk]})
    shared_path.refresh_from_db()
    assert shared_path.adopted_as is None
    assert not ReadingList.objects.filter(title="Serving at scale").exists()


@pytest.mark.django_db
def test_slugs_are_unique() -> None:
    assert unique_slug("Serving at scale") == "serving-at-scale"
    assert unique_slug("!!!") == "list"


def test_adopted_path_stays_a_path(shared_path: Path) -> None:
    from paths.adopting import adopt_as_list

    adopt_as_list(shared_path)
    assert Path.objects.filter(pk=shared_path.pk).exists()


def test_the_propose_include_offers_the_form_then_says_it_was_sent(
    rf: RequestFactory, reader: User, shared_path: Path
) -> None:
    from django.template.loader import render_to_string

    request = rf.get("/")
    request.user = reader
    html = render_to_string("paths/includes/propose_form.html", {"path": shared_path}, request)
    assert reverse("paths:propose", args=[shared_path.key]) in html
    shared_path.proposed_at = shared_path.created
    html = render_to_string("paths/includes/propose_form.html", {"path": shared_path}, request)
    assert "Proposed to the maintainers on" in html
