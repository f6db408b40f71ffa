"""Adding a team's own source: a URL or a file, bad uploads refused with what was typed kept."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from teams.models import Team
from teamsources.models import TeamSource
from tests.hints import present

from .conftest import add, markdown, pdf_bytes

pytestmark = pytest.mark.django_db


def test_the_team_page_has_the_form_that_adds_one(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    page = client.get(f"/teams/{team.slug}/").content.decode()
    assert f'action="/teams/{team.slug}/sources/"' in page
    assert 'enctype="multipart/form-data"' in page
    for name in ("title", "url", "file"):
        assert f'name="{name}"' in page


def test_a_member_adds_an_intranet_url_which_is_never_fetched(
    client: Client, team: Team, member: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server must not fetch a team source's URL")

    monkeypatch.setattr("socket.create_connection", no_network)
    client.force_login(member)
    response = add(client, team, url="http://wiki.corp.internal/zanzibar")
    row = TeamSource.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/sources/{row.source.slug}/"
    assert row.source.status == Source.Status.PRIVATE
    assert row.team == team and row.added_by == member
    assert not Source.objects.filter(pk=row.source.pk).exists()  # the default manager hides it


def test_a_markdown_file_is_stored_and_its_text_kept_for_search(
    client: Client, team: Team, member: User
) -> None:
    client.force_login(member)
    response = add(client, team, file=markdown())
    assert response.status_code == 302
    row = TeamSource.objects.get()
    assert row.file_type == "markdown"
    assert "zanzibar outage" in row.text
    name = present(row.file.name)
    assert name.startswith("team-sources/") and "notes" not in name


def test_a_pdf_file_has_its_text_extracted(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    upload = SimpleUploadedFile("bench.pdf", pdf_bytes(), content_type="application/pdf")
    assert add(client, team, file=upload).status_code == 302
    row = TeamSource.objects.get()
    assert row.file_type == "pdf"
    assert "zanzibar benchmark" in row.text


def test_a_pdf_over_the_page_limit_is_cut_short(
    client: Client, team: Team, member: User, settings: Settings
) -> None:
    settings.TEAM_SOURCE_MAX_PAGES = 2
    client.force_login(member)
    upload = SimpleUploadedFile("long.pdf", pdf_bytes(pages=5), content_type="application/pdf")
    assert add(client, team, file=upload).status_code == 302
    row = TeamSource.objects.get()
    assert row.text_truncated and row.text.count("zanzibar") == 2


def _refused(client: Client, team: Team, upload: SimpleUploadedFile, message: str) -> None:
    response = add(client, team, file=upload, authors="Ada Lovelace", summary="Kept summary")
    page = response.content.decode()
    assert response.status_code == 400
    assert message in page
    # What was typed comes back.
    assert "Zanzibar design notes" in page and "Ada Lovelace" in page and "Kept summary" in page
    assert not TeamSource.objects.exists()
    assert not Source.all_objects.filter(status="private").exists()


def test_a_file_that_claims_to_be_a_pdf_but_is_not_is_refused(
    client: Client, team: Team, member: User
) -> None:
    client.force_login(member)
    fake = SimpleUploadedFile("report.pdf", b"<html>not a pdf</html>", "application/pdf")
    _refused(client, team, fake, "named as a PDF but is not one")


def test_a_damaged_pdf_is_refused(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    broken = SimpleUploadedFile("broken.pdf", b"%PDF-1.7\n garbage \x00\xff", "application/pdf")
    _refused(client, team, broken, "This PDF could not be read")


def test_an_oversized_file_is_refused(
    client: Client, team: Team, member: User, settings: Settings
) -> None:
    settings.TEAM_SOURCE_MAX_BYTES = 10
    client.force_login(member)
    _refused(client, team, markdown(), "This file is larger than")


def test_markdown_that_is_not_utf8_is_refused(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    latin = SimpleUploadedFile("notes.md", "café crème".encode("latin-1"), "text/markdown")
    _refused(client, team, latin, "not UTF-8")


def test_other_file_types_are_refused(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    _refused(client, team, SimpleUploadedFile("x.exe", b"MZ\x90\x00", ""), "Upload a PDF")


def test_a_url_or_a_file_is_needed(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    response = add(client, team)
    assert response.status_code == 400
    assert "Give the source" in response.content.decode()


def test_a_source_the_catalog_has_points_to_the_catalogs(
    client: Client, team: Team, member: User, public_source: Source
) -> None:
    client.force_login(member)
    response = add(client, team, url="https://arxiv.org/abs/1706.03762v5")
    page = response.content.decode()
    assert response.status_code == 400
    assert "The catalog already has this source" in page
    assert f'href="/sources/{public_source.slug}/"' in page
    assert not TeamSource.objects.exists()


def test_a_team_does_not_add_its_own_source_twice(client: Client, team: Team, member: User) -> None:
    client.force_login(member)
    add(client, team, url="http://wiki.corp.internal/zanzibar")
    response = add(client, team, url="http://wiki.corp.internal/zanzibar")
    assert response.status_code == 400
    assert "already added" in response.content.decode()


def test_two_teams_may_keep_the_same_intranet_url(
    client: Client, team: Team, member: User, other_team: Team, outsider: User
) -> None:
    client.force_login(member)
    add(client, team, url="http://wiki.corp.internal/zanzibar")
    client.force_login(outsider)
    assert add(client, other_team, url="http://wiki.corp.internal/zanzibar").status_code == 302
    assert TeamSource.objects.count() == 2


def test_non_members_cannot_add_or_list(client: Client, team: Team, outsider: User) -> None:
    client.force_login(outsider)
    assert client.get(f"/teams/{team.slug}/sources/").status_code == 404
    assert add(client, team, url="http://wiki.corp.internal/x").status_code == 404
    assert not TeamSource.objects.exists()


def test_proposing_to_the_catalog_prefills_the_proposal_form_only(
    client: Client, team: Team, member: User
) -> None:
    client.force_login(member)
    add(client, team, url="https://example.com/open-writeup", file=markdown())
    row = TeamSource.objects.get()
    response = client.get(f"/teams/{team.slug}/sources/{row.pk}/propose/")
    assert response.status_code == 302
    assert response["Location"].startswith("/propose/?")
    assert "open-writeup" in response["Location"] and "team-sources" not in response["Location"]
    assert Source.objects.count() == 0  # nothing published


def test_the_form_still_needs_its_csrf_token(team: Team, member: User) -> None:
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    assert add(client, team, url="http://wiki.corp.internal/x").status_code == 403
    assert not TeamSource.objects.exists()


def test_an_upload_past_the_limit_is_dropped_while_it_arrives(
    team: Team, member: User, settings: Settings
) -> None:
    from django.test import Client

    from teamsources.uploads import SizeLimitHandler

    settings.TEAM_SOURCE_MAX_BYTES = 1000
    seen = []
    original = SizeLimitHandler.receive_data_chunk

    def spy(self: SizeLimitHandler, raw_data: bytes, start: int) -> bytes | None:
        seen.append(start)
        return original(self, raw_data, start)

    client = Client()
    client.force_login(member)
    big = SimpleUploadedFile("big.md", b"a" * 200_000, "text/markdown")
    from unittest import mock

    with mock.patch.object(SizeLimitHandler, "receive_data_chunk", spy):
        response = add(client, team, file=big)
    assert response.status_code == 400
    assert "This file is larger than" in response.content.decode()
    assert seen == [0]  # refused at the first chunk: nothing past it was kept
