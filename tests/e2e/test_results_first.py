"""A search's results come first: the skip link goes to them, a few Tab presses reach the first
result's Save, a finished search puts focus on its summary, and a phone shows the first result
without scrolling."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from tests.e2e.conftest import PHONE
from tests.hints import SmallCatalog

SEARCH = "/sources/?q=attention"


def first_save(page: Page) -> Locator:
    card = page.locator("#results > li").first
    return card.locator(".save-link, .status-button").first


def presses_to(page: Page, target: Locator, limit: int = 60) -> int:
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if target.evaluate("element => element === document.activeElement"):
            return presses
    raise AssertionError(f"{limit} Tab presses never reached {target}")


def follow_skip_link(page: Page) -> None:
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    skip.press("Enter")


@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "reader"])
def test_the_first_save_is_a_few_presses_past_the_skip_link(
    page: Page,
    small_catalog: SmallCatalog,
    reader: User,
    log_in: Callable[[Page, User], None],
    signed_in: bool,
) -> None:
    if signed_in:
        log_in(page, reader)
    page.goto(SEARCH)
    follow_skip_link(page)
    expect(page.locator("#result-count")).to_be_focused()
    assert presses_to(page, first_save(page)) <= 5


def test_a_submitted_search_puts_focus_on_its_summary(
    desktop_page: Page, small_catalog: SmallCatalog
) -> None:
    page = desktop_page
    page.goto("/sources/")
    page.get_by_label("Search titles, authors and topics").fill("flashattention")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page).to_have_url(re.compile(r"/sources/\?q=flashattention$"))
    summary = page.locator("#result-count")
    expect(summary).to_contain_text("matching “flashattention”")
    expect(summary).to_be_focused()

    # A filter chosen from the facets lands there too, not on the page's start.
    page.locator(".facets").get_by_role("link", name=re.compile(r"^Core\s+1")).click()
    expect(page).to_have_url(re.compile(r"\?q=flashattention&tier=core$"))
    expect(page.locator(".chips")).to_contain_text("Tier: Core")
    expect(summary).to_be_focused()
    # Past "Save this search" and the chip that removes the filter, the results.
    assert presses_to(page, page.locator("#results .card-title a").first) <= 4


def test_typing_keeps_focus_in_the_box(desktop_page: Page, small_catalog: SmallCatalog) -> None:
    page = desktop_page
    page.goto("/sources/")
    box = page.get_by_label("Search titles, authors and topics")
    box.press_sequentially("attention", delay=20)
    expect(page.locator("#result-count")).to_contain_text("matching “attention”")
    expect(box).to_be_focused()


def test_a_phone_shows_the_first_result_without_scrolling(
    browser: Browser, live_server: LiveServer, small_catalog: SmallCatalog
) -> None:
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(SEARCH)
        first = page.locator("#results > li").first
        expect(first).to_be_visible()
        box = first.bounding_box()
        assert box is not None  # visible, so laid out
        top = box["y"]
        assert top < PHONE["height"] - 100, f"the first result starts {top:.0f} px down"
        # Keyboard shortcuts are not offered on a touch screen.
        assert "arrow keys" not in page.locator("#search-help").inner_text()
    finally:
        context.close()
