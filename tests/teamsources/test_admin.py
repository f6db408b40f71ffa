"""The admin lists teams' own sources for maintainers, read-only; deleting one there deletes its
source and what is attached to it, as the team's own delete does."""

import pytest
from django.test import Client, TestCase

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from teams.models import Team
from teamsources.models import TeamSource
from tests.factories import UserFactory

from .conftest import add, markdown

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/teamsources/teamsource/"


@pytest.fixture
def row(client: Client, team: Team, member: User) -> TeamSource:
    client.force_login(member)
    add(client, team, url="http://wiki.corp.internal/zanzibar", file=markdown())
    add(client, team, title="Kernel notes", url="http://wiki.corp.internal/kernels")
    client.logout()
    return TeamSource.objects.select_related("source").get(source__title__startswith="Zanzibar")


def test_maintainers_list_search_and_filter(
    client: Client, row: TeamSource, maintainer: User, member: User, other_team: Team
) -> None:
    client.force_login(maintainer)
    page = client.get(CHANGELIST).content.decode()
    assert "Zanzibar design notes" in page and "Kernel notes" in page
    assert "Inference" in page and f'class="field-added_by nowrap">{member}<' in page
    assert "bytes" in page  # the file's size
    searched = client.get(CHANGELIST, {"q": "zanzibar"}).content.decode()
    assert "Zanzibar design notes" in searched and "Kernel notes" not in searched
    filtered = client.get(CHANGELIST, {"team__id__exact": other_team.pk}).content.decode()
    assert "Zanzibar design notes" not in filtered


def test_the_change_page_shows_the_file_read_only(
    client: Client, row: TeamSource, maintainer: User
) -> None:
    client.force_login(maintainer)
    response = client.get(f"{CHANGELIST}{row.pk}/change/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "notes.md" in page and "characters" in page
    assert 'name="file"' not in page and 'name="team"' not in page and "<textarea" not in page
    assert client.get(f"{CHANGELIST}add/").status_code == 403


def test_deleting_in_the_admin_takes_what_is_attached(
    client: Client, row: TeamSource, maintainer: User, member: User
) -> None:
    Bookmark.objects.create(user=member, source=row.source)
    client.force_login(maintainer)
    url = f"{CHANGELIST}{row.pk}/delete/"
    page = client.get(url).content.decode()
    assert "1 bookmark, deleted" in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert client.post(url, {"post": "yes"}).status_code == 302
    assert not TeamSource.objects.filter(pk=row.pk).exists()
    assert not Source.all_objects.filter(pk=row.source_id).exists()
    assert not Bookmark.objects.exists()


def test_the_bulk_delete_action_does_the_same(
    client: Client, row: TeamSource, maintainer: User, member: User
) -> None:
    Bookmark.objects.create(user=member, source=row.source)
    client.force_login(maintainer)
    data = {"action": "delete_selected", "_selected_action": [row.pk]}
    assert "1 bookmark, deleted" in client.post(CHANGELIST, data).content.decode()
    client.post(CHANGELIST, {**data, "post": "yes"})
    assert not Source.all_objects.filter(pk=row.source_id).exists()
    assert TeamSource.objects.count() == 1


def test_readers_and_staff_without_the_permission_are_kept_out(
    client: Client, row: TeamSource, member: User
) -> None:
    client.force_login(member)
    assert client.get(CHANGELIST).status_code == 302  # to the admin's sign-in
    client.force_login(UserFactory(email="staff@example.com", is_staff=True))
    assert client.get(CHANGELIST).status_code == 403
