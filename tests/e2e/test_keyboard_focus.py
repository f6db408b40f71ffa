"""Live updates with the keyboard only: after each one, focus is on its result or still on the
control that was used, and the page's polite live region says what happened."""

from collections.abc import Callable
from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from notes.models import Note
from teams import services as teams
from teams.models import Session
from tests.e2e.conftest import PHONE
from tests.hints import SmallCatalog, present
from tests.proposals.metadata_server import MetadataServer

SOURCE_URL = "/sources/flashattention/"
TAB_LIMIT = 200


def tab_to(page: Page, target: Locator) -> None:
    """Press Tab until the target has focus, as a keyboard user would."""
    for _ in range(TAB_LIMIT):
        page.keyboard.press("Tab")
        if target.evaluate("element => element === document.activeElement"):
            return
    raise AssertionError(f"Tab never reached {target}")


def live(page: Page) -> Locator:
    return page.locator("#live-status")


def test_saving_a_note_focuses_the_note_and_says_so(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    page = desktop_page
    log_in(page, reader)
    page.goto(SOURCE_URL)
    tab_to(page, page.locator("#note-add > summary"))
    page.keyboard.press("Enter")
    body = page.locator("#note-add").get_by_label("Note", exact=True)
    tab_to(page, body)
    page.keyboard.type("Written without a mouse.")
    tab_to(page, page.locator("#note-add").get_by_role("button", name="Save note"))
    page.keyboard.press("Enter")

    expect(live(page)).to_have_text("Note saved.")
    note = Note.objects.get()
    saved = page.locator(f"#note-{note.pk}")
    expect(saved).to_be_focused()
    expect(saved).to_contain_text("Written without a mouse.")

    tab_to(page, saved.get_by_role("link", name="Edit this note"))
    page.keyboard.press("Enter")
    editing = page.locator(f"#note-{note.pk}.is-editing").get_by_label("Note", exact=True)
    expect(editing).to_be_focused()
    page.keyboard.press("End")
    page.keyboard.type(" Edited too.")
    page.evaluate("document.getElementById('live-status').textContent = ''")
    tab_to(page, page.locator(f"#note-{note.pk}").get_by_role("button", name="Save note"))
    page.keyboard.press("Enter")
    expect(live(page)).to_have_text("Note saved.")
    expect(page.locator(f"#note-{note.pk}")).to_be_focused()
    expect(page.locator(f"#note-{note.pk}")).to_contain_text("Edited too.")


def test_deleting_a_note_focuses_undo_and_undo_focuses_the_note(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
    reader: User,
) -> None:
    page = desktop_page
    note = Note.objects.create(user=reader, source=small_catalog["flash"], body="Keep me.")
    log_in(page, reader)
    page.goto(SOURCE_URL)
    page.on("dialog", lambda dialog: dialog.accept())
    tab_to(page, page.locator(f"#note-{note.pk}").get_by_role("button", name="Delete this note"))
    page.keyboard.press("Enter")
    undo = page.locator(f"#note-{note.pk}").get_by_role("button", name="Undo")
    expect(undo).to_be_focused()
    expect(live(page)).to_have_text("Note deleted. Undo is offered for a few seconds.")
    page.keyboard.press("Enter")
    expect(page.locator(f"#note-{note.pk}")).to_be_focused()
    expect(live(page)).to_have_text("Note restored.")


def test_fill_from_link_focuses_its_result_which_clears_when_the_url_changes(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
    settings: Settings,
) -> None:
    with MetadataServer() as server:
        settings.ARXIV_API_URL = f"{server.base}/arxiv/query"
        settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]
        cache.clear()
        page = desktop_page
        log_in(page, reader)
        page.goto("/propose/")
        url = page.get_by_label("URL")
        tab_to(page, url)
        page.keyboard.type("https://arxiv.org/abs/2205.14135v2")
        tab_to(page, page.get_by_role("button", name="Fill from link"))
        page.keyboard.press("Enter")
        result = page.locator("#fill-result")
        expect(result).to_be_focused()
        expect(result).to_contain_text("Filled from arXiv")
        expect(live(page)).to_contain_text("Filled from arXiv")
        expect(page.get_by_label("Title")).to_have_value(
            "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness"
        )
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Shift+Tab")
        expect(url).to_be_focused()
        page.keyboard.press("End")
        page.keyboard.type("9")
        expect(result).to_have_count(0)
    cache.clear()


def test_duplicate_check_keeps_focus_and_announces_the_finding(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    flash = small_catalog["flash"]
    flash.url = "https://arxiv.org/abs/2205.14135"
    flash.save()
    page = desktop_page
    log_in(page, reader)
    page.goto("/propose/")
    url = page.get_by_label("URL")
    tab_to(page, url)
    page.keyboard.type("https://arxiv.org/pdf/2205.14135v2")
    expect(live(page)).to_have_text("Already in the catalog: FlashAttention.")
    expect(url).to_be_focused()

    page.evaluate("document.getElementById('live-status').textContent = ''")
    check = page.get_by_role("button", name="Check for duplicates")
    tab_to(page, check)
    with page.expect_response(lambda response: "/propose/check/" in response.url):
        page.keyboard.press("Enter")
    expect(live(page)).to_have_text("Already in the catalog: FlashAttention.")
    expect(check).to_be_focused()
    assert page.url.endswith("/propose/"), "the check ran in place, without a page load"


def test_a_status_change_keeps_focus_on_its_button_and_says_the_status(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    flash = small_catalog["flash"]
    page = desktop_page
    log_in(page, reader)
    page.goto(SOURCE_URL)
    reading = page.locator(f"#bookmark-{flash.pk}-reading")
    tab_to(page, reading)
    page.keyboard.press("Enter")
    expect(reading).to_have_attribute("aria-pressed", "true")
    expect(reading).to_be_focused()
    expect(live(page)).to_have_text("“FlashAttention” is in your library as Reading.")

    tab_to(page, page.locator(f"#bookmark-{flash.pk}-remove"))
    page.keyboard.press("Enter")
    expect(page.locator(f"#bookmark-{flash.pk}-to_read")).to_be_focused()
    expect(live(page)).to_have_text("“FlashAttention” is not in your library.")


def test_clicking_the_bookmarklet_on_its_page_explains_it(desktop_page: Page) -> None:
    page = desktop_page
    blocked = []
    page.on(
        "console",
        lambda message: (
            blocked.append(message.text) if "Content Security" in message.text else None
        ),
    )
    page.goto("/save/bookmarklet/")
    tab_to(page, page.locator("#bookmarklet"))
    page.keyboard.press("Enter")
    help = page.locator("#bookmarklet-help")
    expect(help).to_be_focused()
    expect(help).to_have_class("bookmarklet-help is-called")
    expect(live(page)).to_have_text("Drag the button to your bookmarks bar, then click it there.")
    page.locator("#bookmarklet").click()
    expect(help).to_be_focused()
    assert page.url.endswith("/save/bookmarklet/")
    assert blocked == []


def test_on_a_phone_the_next_session_comes_before_the_welcome(
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    team = teams.create_team(name="Kernel club", owner=reader)
    Session.objects.create(
        team=team, title="Week 3: paged attention", starts_at=timezone.now() + timedelta(days=2)
    )
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    try:
        page = context.new_page()
        log_in(page, reader)
        page.goto("/")
        sessions = page.locator(".next-sessions")
        expect(sessions).to_contain_text("Week 3: paged attention")
        assert (
            present(sessions.bounding_box())["y"]
            < present(page.locator(".hero").bounding_box())["y"]
        )
        # On a wide screen the welcome keeps its place at the top.
        page.set_viewport_size({"width": 1280, "height": 900})
        assert (
            present(sessions.bounding_box())["y"]
            > present(page.locator(".hero").bounding_box())["y"]
        )
    finally:
        context.close()


def test_following_opens_the_answer_on_its_message(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    page = desktop_page
    log_in(page, reader)
    page.goto("/topics/attention/")
    tab_to(page, page.get_by_role("button", name="Follow Attention"))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    messages = page.locator(".messages")
    expect(messages).to_be_focused()
    expect(live(page)).to_contain_text("You follow Attention.")
    expect(page.get_by_role("button", name="Unfollow")).to_be_visible()


def test_filtering_the_library_announces_no_status(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    from library.services import set_status

    set_status(user=reader, source=small_catalog["flash"], status="reading")
    set_status(user=reader, source=small_catalog["path"][0], status="read")
    page = desktop_page
    log_in(page, reader)
    page.goto("/library/")
    search = page.locator(".library-filters input[type=search], .library-filters input[name=q]")
    tab_to(page, search.first)
    with page.expect_response(lambda response: "/library/" in response.url):
        page.keyboard.type("Flash")
        page.keyboard.press("Enter")
    expect(page.locator("#library-results")).to_contain_text("FlashAttention")
    page.wait_for_timeout(300)
    expect(live(page)).to_have_text("")
