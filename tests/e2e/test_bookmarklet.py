"""Save from anywhere: the bookmarklet, run on another site's page, brings the reader here."""

from collections.abc import Callable
from urllib.parse import unquote

from playwright.sync_api import Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from library.models import Bookmark
from tests.hints import SmallCatalog


def _bookmarklet(page: Page) -> str:
    page.goto("/save/bookmarklet/")
    href = page.locator("#bookmarklet").get_attribute("href")
    assert href is not None and href.startswith("javascript:")
    return unquote(href.removeprefix("javascript:"))


def _run_on(page: Page, url: str, title: str, code: str) -> None:
    """Open a page on another origin and run the bookmarklet there, as the browser would."""
    page.goto(url)
    page.evaluate(f"document.title = {title!r}")
    with page.expect_navigation():
        page.evaluate(code)


def test_the_bookmarklet_saves_a_catalogued_page(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    live_server: LiveServer,
    reader: User,
    small_catalog: SmallCatalog,
    settings: Settings,
) -> None:
    settings.SITE_DOMAIN = live_server.url.removeprefix("http://")
    flash = small_catalog["flash"]
    page = desktop_page
    log_in(page, reader)
    code = _bookmarklet(page)
    other_origin = live_server.url.replace("localhost", "127.0.0.1") + "/sources/flashattention/"
    flash.url = other_origin.rstrip("/")
    flash.save()
    _run_on(page, other_origin, "FlashAttention, elsewhere", code)
    expect(page.get_by_role("heading", level=1)).to_have_text("Save to your library")
    expect(page.get_by_role("link", name="FlashAttention").first).to_be_visible()
    with page.expect_response(lambda response: "/library/bookmarks/" in response.url):
        page.locator(".save-source").get_by_role("button").first.click()
    assert Bookmark.objects.filter(user=reader, source=flash).exists()


def test_the_bookmarklet_opens_the_proposal_form_for_a_new_page(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    live_server: LiveServer,
    reader: User,
    small_catalog: SmallCatalog,
    settings: Settings,
) -> None:
    settings.SITE_DOMAIN = live_server.url.removeprefix("http://")
    page = desktop_page
    log_in(page, reader)
    code = _bookmarklet(page)
    elsewhere = live_server.url.replace("localhost", "127.0.0.1") + "/proposals/decisions/"
    _run_on(page, elsewhere, "A page worth reading", code)
    expect(page.get_by_role("heading", level=1)).to_have_text("Propose a source")
    expect(page.get_by_label("URL")).to_have_value(elsewhere.rstrip("/"))
    expect(page.get_by_label("Title")).to_have_value("A page worth reading")
