"""Editing a team's own source: the member who added it and the team's owners, with the add
form's checks; a new file replaces the old, which leaves storage once the change is committed."""

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from teams.models import Membership, Team
from teamsources.models import TeamSource
from tests.factories import UserFactory
from tests.hints import Response, present

from .conftest import a_teammate, add, markdown, pdf_bytes, signed_in_as_each

pytestmark = pytest.mark.django_db


@pytest.fixture
def row(client: Client, team: Team, member: User) -> TeamSource:
    client.force_login(member)
    add(client, team, url="http://wiki.corp.internal/zanzibar", file=markdown(), authors="Ada")
    client.logout()
    return TeamSource.objects.select_related("source").get()


def edit_url(row: TeamSource) -> str:
    return f"/teams/{row.team.slug}/sources/{row.pk}/edit/"


def edit(client: Client, row: TeamSource, **fields: object) -> Response:
    data = {
        "title": row.source.title,
        "url": row.source.url,
        "kind": row.source.kind,
        "authors": row.source.authors,
        "year": row.source.year or "",
        "summary": row.source.summary,
        **fields,
    }
    return client.post(edit_url(row), data)


def test_the_form_comes_filled_with_the_source(
    client: Client, row: TeamSource, member: User
) -> None:
    client.force_login(member)
    response = client.get(edit_url(row))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'value="Zanzibar design notes"' in page
    assert 'value="http://wiki.corp.internal/zanzibar"' in page and 'value="Ada"' in page
    assert 'enctype="multipart/form-data"' in page
    # The current file is named and downloadable; its storage key is never shown.
    assert f"/teams/{row.team.slug}/sources/{row.pk}/file/" in page
    assert present(row.file.name) not in page and "Replace the file" in page


@pytest.mark.parametrize("who", ["member", "owner"])
def test_the_adder_and_an_owner_save_changes(
    client: Client, row: TeamSource, who: str, member: User, owner: User
) -> None:
    client.force_login(member if who == "member" else owner)
    response = edit(client, row, title="Zanzibar, revised", year="2024", summary="Now shorter")
    assert response.status_code == 302
    source = Source.all_objects.get(pk=row.source_id)
    assert response["Location"] == f"/sources/{source.slug}/"
    assert (source.title, source.year, source.summary) == ("Zanzibar, revised", 2024, "Now shorter")
    assert source.slug == row.source.slug and source.status == Source.Status.PRIVATE
    row.refresh_from_db()
    assert row.file.name and "zanzibar outage" in row.text  # the file stays


def test_errors_keep_what_was_typed(client: Client, row: TeamSource, member: User) -> None:
    client.force_login(member)
    response = edit(client, row, title="", authors="Grace Hopper", summary="Typed summary")
    page = response.content.decode()
    assert response.status_code == 400
    assert "This field is required" in page
    assert "Grace Hopper" in page and "Typed summary" in page
    assert Source.all_objects.get(pk=row.source_id).title == "Zanzibar design notes"


def test_a_url_the_catalog_has_is_refused_as_when_adding(
    client: Client, row: TeamSource, member: User, public_source: Source
) -> None:
    client.force_login(member)
    response = edit(client, row, url="https://arxiv.org/abs/1706.03762v5")
    page = response.content.decode()
    assert response.status_code == 400
    assert "The catalog already has this source" in page
    assert f'href="/sources/{public_source.slug}/"' in page
    assert Source.all_objects.get(pk=row.source_id).url == "http://wiki.corp.internal/zanzibar"


def test_its_own_url_is_no_duplicate_but_a_teammates_is(
    client: Client, row: TeamSource, member: User, team: Team
) -> None:
    client.force_login(member)
    assert edit(client, row, title="Same address").status_code == 302
    add(client, team, title="Another", url="http://wiki.corp.internal/other")
    response = edit(client, row, url="http://wiki.corp.internal/other")
    assert response.status_code == 400
    assert "already added" in response.content.decode()


def test_the_url_may_go_while_the_file_stays_but_not_both(
    client: Client, team: Team, member: User
) -> None:
    client.force_login(member)
    add(client, team, title="Link only", url="http://wiki.corp.internal/link")
    linked = TeamSource.objects.select_related("source").get()
    response = edit(client, linked, url="")
    assert response.status_code == 400
    assert "Give the source" in response.content.decode()
    add(client, team, title="With a file", url="http://wiki.corp.internal/f", file=markdown())
    with_file = TeamSource.objects.exclude(pk=linked.pk).select_related("source").get()
    assert edit(client, with_file, url="").status_code == 302


def test_a_new_file_replaces_the_old_once_committed(
    client: Client, row: TeamSource, member: User
) -> None:
    old = present(row.file.name)
    upload = SimpleUploadedFile("bench.pdf", pdf_bytes(), content_type="application/pdf")
    client.force_login(member)
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        assert edit(client, row, file=upload).status_code == 302
    # Until the commit the old row still names the old file: it stays in storage.
    assert default_storage.exists(old)
    for callback in callbacks:
        callback()
    assert not default_storage.exists(old)
    row.refresh_from_db()
    assert row.file_type == "pdf" and row.file_name == "bench.pdf"
    assert "zanzibar benchmark" in row.text and "outage" not in row.text
    assert default_storage.exists(present(row.file.name))


def test_a_refused_file_changes_nothing(client: Client, row: TeamSource, member: User) -> None:
    old = present(row.file.name)
    client.force_login(member)
    fake = SimpleUploadedFile("report.pdf", b"<html>not a pdf</html>", "application/pdf")
    response = edit(client, row, file=fake, title="Changed title")
    assert response.status_code == 400
    assert "named as a PDF but is not one" in response.content.decode()
    row.refresh_from_db()
    assert row.file.name == old and default_storage.exists(old)
    assert Source.all_objects.get(pk=row.source_id).title == "Zanzibar design notes"


def test_an_oversized_replacement_is_refused(
    client: Client, row: TeamSource, member: User, settings: Settings
) -> None:
    settings.TEAM_SOURCE_MAX_BYTES = 10
    client.force_login(member)
    response = edit(client, row, file=markdown())
    assert response.status_code == 400
    assert "This file is larger than" in response.content.decode()


def test_a_member_who_did_not_add_it_is_answered_as_an_outsider(
    client: Client, row: TeamSource, team: Team, outsider: User
) -> None:
    for _ in signed_in_as_each(client, (a_teammate(team), outsider, None)):
        assert client.get(edit_url(row)).status_code == 404
        assert edit(client, row, title="Taken over").status_code == 404
    assert Source.all_objects.get(pk=row.source_id).title == "Zanzibar design notes"


def test_the_edit_form_still_needs_its_csrf_token(row: TeamSource, member: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    assert edit(client, row, title="Forged").status_code == 403
    assert Source.all_objects.get(pk=row.source_id).title == "Zanzibar design notes"


def test_the_source_page_and_the_team_page_offer_edit_to_those_allowed(
    client: Client, row: TeamSource, team: Team, owner: User, member: User
) -> None:
    teammate = UserFactory(email="teammate@example.com")
    Membership.objects.create(team=team, user=teammate)
    links = [edit_url(row), f"/teams/{team.slug}/sources/{row.pk}/delete/"]
    for user, offered in ((member, True), (owner, True), (teammate, False)):
        client.force_login(user)
        for url in (
            f"/sources/{row.source.slug}/",
            f"/teams/{team.slug}/",
            f"/teams/{team.slug}/sources/",
        ):
            page = client.get(url).content.decode()
            assert all((link in page) == offered for link in links), (user.email, url)
