"""Notes in a real browser: write, edit, share, delete and undo; hostile notes stay inert."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Dialog, Locator, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from catalog.models.sources import Source
from notes.models import Note
from tests.factories import NoteFactory, UserFactory, join_team
from tests.hints import SmallCatalog
from tests.notes.xss_corpus import XSS_BODIES, XSS_LOCATOR, XSS_QUOTE

SOURCE_URL = "/sources/flashattention/"


def notes(page: Page) -> Locator:
    return page.locator("#note-list > li")


def test_reader_writes_edits_and_shares_a_note_a_teammate_reads_it(
    desktop_page: Page,
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    page = desktop_page
    teammate = UserFactory(email="grace@example.com", display_name="Grace Hopper")
    join_team(reader, teammate)
    log_in(page, reader)
    page.goto(SOURCE_URL)
    page.evaluate("window.__sameDocument = true")  # gone if anything reloads the page

    page.get_by_text("Add a note").click()
    page.get_by_label("Note", exact=True).fill("Tiling keeps **Q, K, V** blocks in SRAM.")
    page.get_by_label("Quote (optional)").fill("IO-aware exact attention")
    page.get_by_label("Where (optional)").fill("Section 3.1")
    page.get_by_role("button", name="Save note").click()

    note = notes(page).first
    expect(note).to_contain_text("Tiling keeps Q, K, V blocks in SRAM.")
    expect(note.locator("strong")).to_have_text("Q, K, V")
    expect(note.locator("blockquote")).to_contain_text("IO-aware exact attention")
    expect(note).to_contain_text("Section 3.1")
    expect(note.locator(".badge")).to_have_text("Private")
    expect(page.locator("#note-add")).not_to_have_attribute("open", "")
    assert page.evaluate("window.__sameDocument") is True

    note.get_by_role("link", name="Edit this note").click()
    editing = page.locator("#note-list > li.is-editing")
    body = editing.get_by_label("Note", exact=True)
    expect(body).to_be_focused()
    expect(body).to_have_value("Tiling keeps **Q, K, V** blocks in SRAM.")
    body.fill("Tiling keeps Q, K, V blocks in _on-chip_ SRAM.")
    editing.get_by_role("radio", name=re.compile("^Readers")).check()
    editing.get_by_role("button", name="Save note").click()

    expect(notes(page)).to_have_count(1)
    expect(note.locator("em")).to_have_text("on-chip")
    expect(note.locator(".badge")).to_have_text("Team: Readers")
    expect(note).to_contain_text("edited")
    assert page.evaluate("window.__sameDocument") is True
    assert Note.objects.get().visibility == "team"

    context = browser.new_context(base_url=live_server.url)
    try:
        other = context.new_page()
        other.set_default_timeout(10_000)
        log_in(other, teammate)
        other.goto(SOURCE_URL)
        shared = notes(other).first
        expect(shared).to_contain_text("on-chip SRAM")
        expect(shared.locator(".note-author")).to_have_text("reader")
        expect(shared.get_by_role("link", name="Edit this note")).to_have_count(0)
        other.goto("/notes/team/")
        expect(other.locator(".notes-list > li").first).to_contain_text("FlashAttention")
        expect(other.locator(".notes-list > li").first).to_contain_text("reader")
    finally:
        context.close()


def test_delete_asks_then_can_be_undone(
    page: Page, log_in: Callable[[Page, User], None], small_catalog: SmallCatalog, reader: User
) -> None:
    NoteFactory(user=reader, source=small_catalog["flash"], body="Worth keeping.")
    log_in(page, reader)
    page.clock.install()
    page.goto(SOURCE_URL)
    dialogs: list[str] = []

    def answer(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)

    notes(page).first.get_by_role("button", name="Delete this note").click()
    expect(notes(page).first).to_contain_text("Note deleted.")
    assert dialogs == ["Delete this note? You can undo it for a few seconds."]
    notes(page).first.get_by_role("button", name="Undo").click()
    expect(notes(page).first).to_contain_text("Worth keeping.")
    page.reload()
    expect(notes(page).first).to_contain_text("Worth keeping.")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0

    notes(page).first.get_by_role("button", name="Delete this note").click()
    expect(notes(page).first).to_contain_text("Note deleted.")
    page.clock.run_for(11_000)
    expect(notes(page)).to_have_count(0)
    expect(page.get_by_text("No notes here yet.")).to_be_visible()
    assert not Note.objects.live().exists()


def test_dismissing_the_confirmation_keeps_the_note(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    page = desktop_page
    NoteFactory(user=reader, source=small_catalog["flash"], body="Still here.")
    log_in(page, reader)
    page.goto(SOURCE_URL)
    page.on("dialog", lambda dialog: dialog.dismiss())
    notes(page).first.get_by_role("button", name="Delete this note").click()
    page.wait_for_timeout(300)
    expect(notes(page).first).to_contain_text("Still here.")
    assert Note.objects.live().count() == 1


def test_a_draft_over_the_limit_is_kept_with_a_message(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    page = desktop_page
    log_in(page, reader)
    page.goto(SOURCE_URL)
    page.get_by_text("Add a note").click()
    draft = "x" * 20_000 + " and a bit more"
    page.get_by_label("Note", exact=True).fill(draft)
    page.get_by_role("button", name="Save note").click()
    expect(page.locator("#note-add")).to_contain_text(
        "Your note is 20,015 characters long; the limit is 20,000."
    )
    expect(page.get_by_label("Note", exact=True)).to_have_value(draft)
    expect(page.get_by_label("Note", exact=True)).to_be_focused()
    assert not Note.objects.exists()


def test_notes_work_without_javascript(
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, reader)
        page.goto(SOURCE_URL)
        page.get_by_text("Add a note").click()  # <details> opens without JavaScript
        page.get_by_label("Note", exact=True).fill("Written with scripts off.")
        page.get_by_role("button", name="Save note").click()
        expect(page).to_have_url(re.compile(r"/sources/flashattention/#note-\d+$"))
        expect(notes(page).first).to_contain_text("Written with scripts off.")

        notes(page).first.get_by_role("link", name="Edit this note").click()
        page.get_by_label("Note", exact=True).fill("Edited with scripts off.")
        page.get_by_role("button", name="Save note").click()
        expect(notes(page).first).to_contain_text("Edited with scripts off.")

        notes(page).first.get_by_role("button", name="Delete this note").click()
        expect(page.get_by_role("heading", name="Delete this note?")).to_be_visible()
        page.get_by_role("button", name="Delete note").click()
        expect(notes(page).first).to_contain_text("Note deleted.")
        notes(page).first.get_by_role("button", name="Undo").click()
        expect(notes(page).first).to_contain_text("Edited with scripts off.")
    finally:
        context.close()


@pytest.fixture
def hostile_notes(small_catalog: SmallCatalog, reader: User, other_reader: User) -> Source:
    flash = small_catalog["flash"]
    join_team(reader, other_reader)
    for n, body in enumerate(XSS_BODIES):
        author, visibility = (other_reader, "team") if n % 2 else (reader, "private")
        NoteFactory(user=author, source=flash, body=body, visibility=visibility)
    NoteFactory(
        user=other_reader,
        source=flash,
        body="q",
        quote=XSS_QUOTE,
        locator=XSS_LOCATOR,
        visibility="team",
    )
    NoteFactory(user=reader, source=flash, body="l", quote=XSS_QUOTE, locator=XSS_LOCATOR)
    return flash


def test_hostile_notes_render_inert(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    settings: Settings,
    hostile_notes: Source,
    reader: User,
) -> None:
    # Without the site's CSP, so this shows the sanitiser alone keeps the payloads inert.
    settings.SECURE_CSP = {}
    page = desktop_page
    log_in(page, reader)
    for url in (SOURCE_URL, "/notes/team/", "/library/notes/"):
        response = page.goto(url)
        assert response is not None
        assert "Content-Security-Policy" not in response.headers
        page.wait_for_timeout(200)
        assert page.evaluate("window.__xss") is None, url
        entries = page.locator(".notes-list > li.note")
        expect(entries.first).to_be_visible()
        for index in range(entries.count()):
            entries.nth(index).hover()
        assert page.evaluate("window.__xss") is None, url
        hrefs = page.locator(".note-body a").evaluate_all("links => links.map(a => a.href)")
        assert all(href.startswith(("http:", "https:", "mailto:")) for href in hrefs), hrefs
        assert page.locator(".note-body img, .note-body svg, .note-body iframe").count() == 0
        expect(page.locator(".note-quote").first).to_contain_text("<script>window.__xss = 1")

    # The check can fail: a handler that does reach this page sets the flag.
    page.evaluate(
        """() => { const div = document.createElement('div');
        div.innerHTML = '<img src="data:," onerror="window.__xss = 1">';
        document.body.append(div); }"""
    )
    page.wait_for_function("window.__xss === 1")
