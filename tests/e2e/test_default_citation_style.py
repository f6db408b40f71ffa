"""A reader's default citation style, chosen on a cite page without JavaScript: the source page's
Cite, the cite page without a style and the library's cite page then use it."""

from collections.abc import Callable

from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from tests.hints import SmallCatalog

from .conftest import DESKTOP


def test_a_reader_makes_ieee_their_default(
    browser: Browser,
    live_server: LiveServer,
    small_catalog: SmallCatalog,
    reader: User,
    log_in: Callable[[Page, User], None],
) -> None:
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    try:
        log_in(page, reader)
        page.goto("/sources/flashattention/cite/")
        expect(page.get_by_role("heading", name="APA (7th edition)")).to_be_visible()
        expect(page.get_by_text("APA (7th edition) is your default citation style")).to_be_visible()

        page.goto("/sources/flashattention/cite/?style=ieee")
        page.get_by_role("button", name="Make IEEE my default").click()
        expect(page.get_by_text("IEEE is now your default citation style.")).to_be_visible()
        expect(page).to_have_url(f"{live_server.url}/sources/flashattention/cite/")
        expect(page.get_by_role("heading", name="IEEE", exact=True)).to_be_visible()
        assert page.locator("#cite-text").input_value().startswith("[1] ")

        # A style in the address still wins, and offers to become the default.
        page.goto("/sources/flashattention/cite/?style=acm")
        expect(page.get_by_role("button", name="Make ACM my default")).to_be_visible()

        page.goto("/sources/flashattention/")
        expect(page.locator("#cite-formatted")).to_have_text("IEEE")
        page.goto("/library/export/cite/")
        expect(page.get_by_label("Citation style")).to_have_value("ieee")
    finally:
        context.close()


def test_a_visitor_is_offered_no_default(page: Page, small_catalog: SmallCatalog) -> None:
    page.goto("/sources/flashattention/cite/?style=ieee")
    expect(page.get_by_role("heading", name="IEEE", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Make IEEE my default")).to_have_count(0)
