"""Writing notes on the source page, with HTMX and as plain forms, and the notes pages."""

import json
import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import Settings
from pytest_django.asserts import assertContains, assertNotContains

from accounts.models import User
from catalog.models import Source
from notes.models import Note
from notes.querysets import UNDO_WINDOW
from notes.services import note_limit_problem
from tests.factories import NoteFactory, UserFactory
from tests.hints import SmallCatalog, found

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def test_source_page_shows_own_and_team_notes_newest_first(
    signed_in: Client, reader: User, other_reader: User, flash: Source
) -> None:
    NoteFactory(user=reader, source=flash, body="my older note")
    NoteFactory(
        user=UserFactory(display_name="Grace"), source=flash, body="graces", visibility="team"
    )
    NoteFactory(user=other_reader, source=flash, body="other private note")
    response = signed_in.get(flash.get_absolute_url())
    html = response.content.decode()
    assert html.index("graces") < html.index("my older note")
    assertContains(response, "Grace")
    assertNotContains(response, "other private note")
    assertContains(response, "Add a note")


def test_visitors_see_no_notes_and_a_login_link(
    client: Client, reader: User, flash: Source
) -> None:
    NoteFactory(user=reader, source=flash, body="shared with the team", visibility="team")
    response = client.get(flash.get_absolute_url())
    assertNotContains(response, "shared with the team")
    assertNotContains(response, "Add a note")
    assertContains(response, f'/accounts/login/?next=/sources/{flash.slug}/">Log in to take notes')


def test_add_without_javascript_redirects_to_the_note(
    signed_in: Client, reader: User, flash: Source
) -> None:
    response = signed_in.post(
        f"/sources/{flash.slug}/notes/new/",
        {
            "body": "IO-aware *tiling*",
            "quote": "We argue",
            "locator": "p. 2",
            "visibility": "readers",
        },
    )
    note = Note.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/sources/{flash.slug}/#note-{note.pk}"
    assert (note.user, note.source, note.visibility, note.locator) == (
        reader,
        flash,
        "team",
        "p. 2",
    )
    page = signed_in.get(response["Location"])
    assertContains(page, "IO-aware <em>tiling</em>", html=False)
    assertContains(page, "Note saved.")


def test_add_with_htmx_returns_a_fresh_form_and_the_note_out_of_band(
    signed_in: Client, flash: Source
) -> None:
    response = signed_in.post(
        f"/sources/{flash.slug}/notes/new/",
        {"body": "hello", "visibility": "private"},
        headers=HTMX,
    )
    note = Note.objects.get()
    html = response.content.decode()
    assert html.lstrip().startswith('<details class="note-add" id="note-add">')
    assert 'hx-swap-oob="afterbegin:#note-list"' in html
    assert f'id="note-{note.pk}"' in html
    assert "<p>hello</p>" in html
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_the_fresh_form_after_an_add_is_remembered_with_this_visitors_token(
    signed_in: Client, reader: User, flash: Source, settings: Settings
) -> None:
    """The empty form is rendered once per process and team list; each response puts its own
    CSRF token in, and renaming a team shows at once."""
    from notes.views import _TOKEN_SLOT

    def fresh_form(body: str) -> str:
        response = signed_in.post(
            f"/sources/{flash.slug}/notes/new/",
            {"body": body, "visibility": "private"},
            headers=HTMX,
        )
        form = response.content.decode().split("data-hx-swap-oob")[0]
        assert _TOKEN_SLOT not in form and body not in form
        token = found(re.search(r'name="csrfmiddlewaretoken" value="(\w{64})"', form)).group(1)
        return form.replace(token, "TOKEN")

    team = reader.teams.get()
    remembered = fresh_form("first")
    assert fresh_form("second") == remembered
    assert f"{team.name} (its members, with your name)" in remembered
    settings.DEBUG = True  # rendered afresh from the template
    assert fresh_form("third") == remembered
    settings.DEBUG = False
    team.name = "Renamed"
    team.save()
    assert "Renamed (its members, with your name)" in fresh_form("fourth")


def test_add_form_page_without_javascript(signed_in: Client, flash: Source) -> None:
    response = signed_in.get(f"/sources/{flash.slug}/notes/new/")
    assertContains(response, "<h1>Add a note on FlashAttention</h1>", html=True)
    assertContains(response, 'name="body"')
    assertNotContains(response, "hx-post")


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_too_long_body_keeps_the_draft_and_explains(
    signed_in: Client, flash: Source, htmx: bool
) -> None:
    draft = "A long draft. " * 1500 + "the end"
    response = signed_in.post(
        f"/sources/{flash.slug}/notes/new/",
        {"body": draft, "quote": "kept quote", "visibility": "readers"},
        headers=HTMX if htmx else {},
    )
    assert response.status_code == 200
    assert not Note.objects.exists()
    assertContains(response, "Your note is 21,007 characters long; the limit is 20,000.")
    assertContains(response, "the end</textarea>")
    assertContains(response, "kept quote</textarea>")
    assertContains(response, 'value="readers" id="note-new-visibility_1" required checked')
    if htmx:
        assertContains(response, '<details class="note-add" id="note-add" open>')


def test_too_long_quote_is_explained(signed_in: Client, flash: Source) -> None:
    response = signed_in.post(
        f"/sources/{flash.slug}/notes/new/",
        {"body": "ok", "quote": "q" * 2_500, "visibility": "private"},
    )
    assertContains(response, "The quote is 2,500 characters long; the limit is 2,000.")
    assert not Note.objects.exists()


def test_limits_count_line_breaks_once(signed_in: Client, flash: Source) -> None:
    body = ("x" * 99 + "\r\n") * 199  # 19,900 characters once CRLF is one break
    signed_in.post(f"/sources/{flash.slug}/notes/new/", {"body": body, "visibility": "private"})
    assert len(Note.objects.get().body) == 19_900


def test_empty_body_is_explained(signed_in: Client, flash: Source) -> None:
    response = signed_in.post(
        f"/sources/{flash.slug}/notes/new/", {"body": "   ", "visibility": "private"}
    )
    assertContains(response, "Write something in the note.")


def test_bad_visibility_is_refused(signed_in: Client, flash: Source) -> None:
    response = signed_in.post(
        f"/sources/{flash.slug}/notes/new/", {"body": "x", "visibility": "world"}
    )
    assertContains(response, "Select a valid choice")
    assert not Note.objects.exists()


def test_unknown_source_is_404(signed_in: Client) -> None:
    assert signed_in.get("/sources/nope/notes/new/").status_code == 404


def test_edit_in_place_with_htmx(signed_in: Client, reader: User, flash: Source) -> None:
    note = NoteFactory(user=reader, source=flash, body="before")
    form = signed_in.get(f"/notes/{note.pk}/edit/", headers=HTMX)
    assertContains(form, f'<li class="note is-editing" id="note-{note.pk}">')
    assertContains(form, "before</textarea>")
    assertContains(form, f'hx-get="/notes/{note.pk}/"')  # cancel swaps the note back
    saved = signed_in.post(
        f"/notes/{note.pk}/edit/", {"body": "after **all**", "visibility": "readers"}, headers=HTMX
    )
    assertContains(saved, "<p>after <strong>all</strong></p>", html=False)
    assertContains(saved, "Team")
    assertContains(saved, "edited")
    note.refresh_from_db()
    assert (note.body, note.visibility) == ("after **all**", "team")


def test_edit_error_keeps_the_draft_in_place(
    signed_in: Client, reader: User, flash: Source
) -> None:
    note = NoteFactory(user=reader, source=flash, body="before")
    response = signed_in.post(
        f"/notes/{note.pk}/edit/", {"body": "y" * 20_001, "visibility": "private"}, headers=HTMX
    )
    assertContains(response, f'<li class="note is-editing" id="note-{note.pk}">')
    assertContains(response, "the limit is 20,000")
    assertContains(response, "y" * 100)
    note.refresh_from_db()
    assert note.body == "before"


def test_edit_without_javascript(signed_in: Client, reader: User, flash: Source) -> None:
    note = NoteFactory(user=reader, source=flash, body="before")
    page = signed_in.get(f"/notes/{note.pk}/edit/")
    assertContains(page, "<h1>Edit your note on FlashAttention</h1>", html=True)
    response = signed_in.post(f"/notes/{note.pk}/edit/", {"body": "after", "visibility": "private"})
    assert response["Location"] == f"/sources/{flash.slug}/#note-{note.pk}"


def test_delete_with_htmx_offers_undo_and_restore_swaps_the_note_back(
    signed_in: Client, reader: User, flash: Source
) -> None:
    note = NoteFactory(user=reader, source=flash, body="keep me")
    response = signed_in.post(f"/notes/{note.pk}/delete/", headers=HTMX)
    assertContains(response, "Note deleted.")
    assertContains(response, f'hx-post="/notes/{note.pk}/restore/"')
    assertContains(response, 'data-dismiss-after="10"')
    assert not Note.objects.visible_to(reader).exists()
    restored = signed_in.post(f"/notes/{note.pk}/restore/", headers=HTMX)
    assertContains(restored, "<p>keep me</p>", html=False)
    assert Note.objects.visible_to(reader).get() == note


def test_delete_without_javascript_confirms_then_offers_undo(
    signed_in: Client, reader: User, flash: Source
) -> None:
    note = NoteFactory(user=reader, source=flash, body="keep me")
    confirm = signed_in.get(f"/notes/{note.pk}/delete/")
    assertContains(confirm, "Delete this note?")
    assert Note.objects.visible_to(reader).exists()  # GET changes nothing
    response = signed_in.post(f"/notes/{note.pk}/delete/")
    assert response["Location"] == f"/sources/{flash.slug}/#note-{note.pk}"
    page = signed_in.get(response["Location"])
    assertContains(page, "Note deleted.")
    assertContains(page, f'action="/notes/{note.pk}/restore/"')
    assertNotContains(page, "<p>keep me</p>", html=False)
    back = signed_in.post(f"/notes/{note.pk}/restore/")
    assert back.status_code == 302
    assert [str(m) for m in get_messages(back.wsgi_request)][-1] == "Note restored."


def test_undo_offer_disappears_after_the_window(
    signed_in: Client, reader: User, flash: Source
) -> None:
    note = NoteFactory(user=reader, source=flash)
    Note.objects.filter(pk=note.pk).update(deleted_at=timezone.now() - UNDO_WINDOW * 2)
    assertNotContains(signed_in.get(flash.get_absolute_url()), "Note deleted.")


def test_restore_is_post_only(signed_in: Client, reader: User, flash: Source) -> None:
    note = NoteFactory(user=reader, source=flash)
    signed_in.post(f"/notes/{note.pk}/delete/")
    assert signed_in.get(f"/notes/{note.pk}/restore/").status_code == 405


def test_detail_page(signed_in: Client, reader: User, flash: Source) -> None:
    note = NoteFactory(user=reader, source=flash, body="solo")
    assertContains(signed_in.get(f"/notes/{note.pk}/"), "<p>solo</p>", html=False)
    partial = signed_in.get(f"/notes/{note.pk}/", headers=HTMX).content.decode()
    # Shown back in place of a cancelled edit, the note takes keyboard focus.
    assert partial.lstrip().startswith(
        f'<li class="note" id="note-{note.pk}" tabindex="-1" autofocus>'
    )


def test_my_notes_lists_only_mine_with_sources(
    signed_in: Client, reader: User, other_reader: User, flash: Source
) -> None:
    NoteFactory(user=reader, source=flash, body="mine on flash")
    NoteFactory(user=other_reader, source=flash, body="theirs", visibility="team")
    response = signed_in.get("/library/notes/")
    assertContains(response, "mine on flash")
    assertContains(response, f'href="/sources/{flash.slug}/#note-')
    assertNotContains(response, "theirs")
    assertContains(response, "1 note")


def test_my_notes_search_and_filters(
    signed_in: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    flash, roofline = small_catalog["flash"], small_catalog["path"][2]
    NoteFactory(user=reader, source=flash, body="online softmax", visibility="team")
    NoteFactory(user=reader, source=roofline, body="arithmetic intensity")
    assertContains(signed_in.get("/library/notes/?q=softmax"), "1 note matching")
    by_topic = signed_in.get("/library/notes/?topic=attention")
    assertContains(by_topic, "online softmax")
    assertNotContains(by_topic, "arithmetic intensity")
    private = signed_in.get("/library/notes/?visibility=private")
    assertContains(private, "arithmetic intensity")
    assertNotContains(private, "online softmax")
    listed = signed_in.get(f"/library/notes/?list={small_catalog['list'].slug}")
    assertContains(listed, "2 notes")
    partial = signed_in.get("/library/notes/?q=intensity", headers=HTMX).content.decode()
    assert partial.lstrip().startswith('<div id="notes-results">')


def test_my_notes_bad_filter_is_explained_not_a_500(
    signed_in: Client, reader: User, flash: Source
) -> None:
    NoteFactory(user=reader, source=flash, body="still listed")
    response = signed_in.get("/library/notes/?topic=no-such-topic&visibility=everyone")
    assert response.status_code == 200
    assertContains(response, "Select a valid choice")
    assertContains(response, "still listed")


def test_export_markdown(signed_in: Client, reader: User, flash: Source) -> None:
    NoteFactory(
        user=reader, source=flash, body="Body *md*", quote="line one\nline two", locator="p. 4"
    )
    response = signed_in.get("/library/notes/export.md")
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="readinglist-notes-')
    text = response.content.decode()
    assert "## FlashAttention" in text
    assert f"- Catalog: <http://testserver/sources/{flash.slug}/>" in text
    assert f"- Source: <{flash.url}>" in text
    assert "- Where: p. 4" in text
    assert "> line one\n> line two" in text
    assert "Body *md*" in text


def test_export_json(signed_in: Client, reader: User, flash: Source) -> None:
    NoteFactory(user=reader, source=flash, body="Body", quote="Q", locator="Fig. 1")
    response = signed_in.get("/library/notes/export.json")
    assert response["Content-Disposition"].endswith('.json"')
    document = json.loads(response.content)
    assert document["reader"] == reader.email
    (note,) = document["notes"]
    assert note["source"]["title"] == "FlashAttention"
    assert note["source"]["page"] == f"http://testserver/sources/{flash.slug}/"
    assert (note["body"], note["quote"], note["locator"]) == ("Body", "Q", "Fig. 1")


def test_team_feed_shows_team_notes_with_author_names(
    signed_in: Client, other_reader: User, flash: Source
) -> None:
    other_reader.display_name = "Ada"
    other_reader.save()
    NoteFactory(user=other_reader, source=flash, body="shared insight", visibility="team")
    NoteFactory(user=other_reader, source=flash, body="private thought")
    response = signed_in.get("/notes/team/")
    assertContains(response, "shared insight")
    assertContains(response, "Ada")
    assertContains(response, "FlashAttention")
    assertNotContains(response, "private thought")
    assertNotContains(response, "/edit/")


def test_team_feed_is_paginated(signed_in: Client, other_reader: User, flash: Source) -> None:
    NoteFactory.create_batch(30, user=other_reader, source=flash, visibility="team")
    assertContains(signed_in.get("/notes/team/"), "Older notes")
    assert signed_in.get("/notes/team/?page=2").status_code == 200
    assert signed_in.get("/notes/team/?page=zzz").status_code == 200


def test_notes_beyond_the_hourly_limit_are_refused_and_the_text_kept(
    signed_in: Client, reader: User, other_reader: User, flash: Source, settings: Settings
) -> None:
    settings.NOTES_MAX_PER_HOUR = 2
    NoteFactory(user=reader, source=flash)
    gone = NoteFactory(user=reader, source=flash)
    gone.deleted_at = timezone.now()  # deleting and adding again is still adding
    gone.save()
    NoteFactory(user=reader, source=flash, created=timezone.now() - timedelta(minutes=61))
    NoteFactory.create_batch(2, user=other_reader, source=flash)  # someone else's count

    url = f"/sources/{flash.slug}/notes/new/"
    data = {"body": "A thought I *must* keep", "visibility": "readers"}
    for headers in ({}, HTMX):
        response = signed_in.post(url, data, headers=headers)
        assert response.status_code == 200
        html = response.content.decode()
        assert "You have added 2 notes in the last hour" in html
        assert "A thought I *must* keep</textarea>" in html
        assert re.search(
            r'<input type="radio" name="visibility" value="readers"[^>]* checked>', html
        )
    assert Note.objects.filter(user=reader).count() == 3

    # The hour passes for the oldest: one more fits.
    Note.objects.filter(user=reader).update(created=timezone.now() - timedelta(minutes=61))
    assert signed_in.post(url, data).status_code == 302


@pytest.mark.parametrize("limit", [1, 3])
def test_the_hourly_limit_lets_the_last_note_in_and_refuses_the_next(
    signed_in: Client, reader: User, flash: Source, settings: Settings, limit: int
) -> None:
    settings.NOTES_MAX_PER_HOUR = limit
    NoteFactory.create_batch(limit - 1, user=reader, source=flash)
    url = f"/sources/{flash.slug}/notes/new/"
    assert signed_in.post(url, {"body": "The last", "visibility": "private"}).status_code == 302
    refused = signed_in.post(url, {"body": "One too many", "visibility": "private"})
    assertContains(refused, f"You have added {limit} notes in the last hour")
    assert Note.objects.filter(user=reader).count() == limit


def test_a_limit_of_zero_refuses_every_note(
    signed_in: Client, reader: User, flash: Source, settings: Settings
) -> None:
    settings.NOTES_MAX_PER_HOUR = 0
    refused = signed_in.post(
        f"/sources/{flash.slug}/notes/new/", {"body": "No", "visibility": "private"}
    )
    assertContains(refused, "You have added 0 notes in the last hour")
    assert not Note.objects.filter(user=reader).exists()


def test_the_hourly_count_stops_at_the_limit_without_sorting_the_hour(
    reader: User, flash: Source, settings: Settings
) -> None:
    # Ordered, the database would sort every note of the hour before it could stop.
    settings.NOTES_MAX_PER_HOUR = 3
    NoteFactory.create_batch(5, user=reader, source=flash)
    with CaptureQueriesContext(connection) as queries:
        assert "You have added 3 notes" in note_limit_problem(reader)
    (count,) = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"]]
    assert "ORDER BY" not in count
    assert "LIMIT 3" in count
