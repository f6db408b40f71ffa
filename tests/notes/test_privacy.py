"""Nobody reads another reader's private note, nobody changes another reader's note."""

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains

from accounts.models import User
from catalog.models import Source
from notes.models import Note
from tests.factories import NoteFactory

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
SECRET = "secret-private-note-text"


@pytest.fixture
def private_note(other_reader: User, flash: Source) -> Note:
    return NoteFactory(user=other_reader, source=flash, body=SECRET, quote="secret quote")


@pytest.fixture
def team_note(other_reader: User, flash: Source) -> Note:
    return NoteFactory(user=other_reader, source=flash, body="team-readable", visibility="team")


@pytest.mark.parametrize(
    "url",
    [
        "/sources/flashattention/",
        "/notes/team/",
        "/library/notes/",
        "/library/notes/export.md",
        "/library/notes/export.json",
    ],
)
def test_private_note_is_invisible_everywhere(
    signed_in: Client, private_note: Note, url: str
) -> None:
    response = signed_in.get(url)
    assert response.status_code == 200
    assertNotContains(response, SECRET)
    assertNotContains(response, "secret quote")


def test_private_note_is_not_found_by_search(signed_in: Client, private_note: Note) -> None:
    response = signed_in.get("/library/notes/?q=secret")
    assertContains(response, "0 notes matching")
    assertNotContains(response, f"<p>{SECRET}")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/notes/{}/"),
        ("get", "/notes/{}/edit/"),
        ("post", "/notes/{}/edit/"),
        ("get", "/notes/{}/delete/"),
        ("post", "/notes/{}/delete/"),
        ("post", "/notes/{}/restore/"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_private_note_id_is_404_for_others(
    signed_in: Client, private_note: Note, method: str, path: str, htmx: bool
) -> None:
    data = {"body": "hijacked", "visibility": "readers"} if method == "post" else None
    response = getattr(signed_in, method)(
        path.format(private_note.pk), data, headers=HTMX if htmx else {}
    )
    assert response.status_code == 404
    private_note.refresh_from_db()
    assert (private_note.body, private_note.deleted_at) == (SECRET, None)


def test_someone_elses_deleted_note_cannot_be_restored(
    signed_in: Client, other_reader: User, flash: Source
) -> None:
    note = NoteFactory(user=other_reader, source=flash, visibility="team")
    Note.objects.filter(pk=note.pk).update(deleted_at=note.created)
    assert signed_in.post(f"/notes/{note.pk}/restore/").status_code == 404


def test_team_note_can_be_read_by_teammates(signed_in: Client, team_note: Note) -> None:
    assert signed_in.get(f"/notes/{team_note.pk}/").status_code == 200
    page = signed_in.get("/sources/flashattention/").content.decode()
    assert "team-readable" in page
    assert f"/notes/{team_note.pk}/edit/" not in page
    assert f"/notes/{team_note.pk}/delete/" not in page


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/notes/{}/edit/"),
        ("post", "/notes/{}/edit/"),
        ("get", "/notes/{}/delete/"),
        ("post", "/notes/{}/delete/"),
    ],
)
def test_team_note_cannot_be_changed_by_teammates(
    signed_in: Client, team_note: Note, method: str, path: str
) -> None:
    data = {"body": "hijacked", "visibility": "private"} if method == "post" else None
    response = getattr(signed_in, method)(path.format(team_note.pk), data)
    assert response.status_code == 404
    team_note.refresh_from_db()
    assert (team_note.body, team_note.visibility, team_note.deleted_at) == (
        "team-readable",
        "team",
        None,
    )


def test_team_notes_stay_out_of_my_notes_and_exports(signed_in: Client, team_note: Note) -> None:
    for url in ("/library/notes/", "/library/notes/export.md", "/library/notes/export.json"):
        assertNotContains(signed_in.get(url), "team-readable")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/library/notes/"),
        ("get", "/library/notes/export.md"),
        ("get", "/library/notes/export.json"),
        ("get", "/notes/team/"),
        ("get", "/sources/flashattention/notes/new/"),
        ("post", "/sources/flashattention/notes/new/"),
        ("get", "/notes/{}/"),
        ("get", "/notes/{}/edit/"),
        ("post", "/notes/{}/edit/"),
        ("get", "/notes/{}/delete/"),
        ("post", "/notes/{}/delete/"),
        ("post", "/notes/{}/restore/"),
    ],
)
def test_visitors_are_sent_to_log_in(
    client: Client, team_note: Note, method: str, path: str
) -> None:
    url = path.format(team_note.pk)
    response = getattr(client, method)(url, {"body": "x", "visibility": "readers"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert Note.objects.get().body == "team-readable"
    assert Note.objects.count() == 1


def test_visitors_using_htmx_get_a_client_redirect_back_to_the_page(
    client: Client, team_note: Note
) -> None:
    response = client.post(
        f"/notes/{team_note.pk}/delete/",
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="http://testserver/sources/flashattention/",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=%2Fsources%2Fflashattention%2F"


def test_visitors_see_no_notes_on_the_source_page(
    client: Client, team_note: Note, private_note: Note
) -> None:
    page = client.get("/sources/flashattention/")
    assertNotContains(page, "team-readable")
    assertNotContains(page, SECRET)
