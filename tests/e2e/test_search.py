import re

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import DESKTOP, PHONE
from tests.hints import SmallCatalog, present


def result_titles(page: Page) -> Locator:
    return page.locator("#results .card-title a")


def show_filters(page: Page) -> None:
    """On a phone the facets wait behind a "Filters" button above the results; wide screens
    show them beside the results with no button."""
    button = page.locator(".facets summary")
    first_facet = page.locator(".facets .facet a").first
    if present(page.viewport_size)["width"] <= PHONE["width"]:
        expect(first_facet).to_be_hidden()
        button.click()
    else:
        expect(button).to_be_hidden()
    expect(first_facet).to_be_visible()


def test_live_search_facets_history_and_reload(page: Page, small_catalog: SmallCatalog) -> None:
    page.goto("/sources/")
    expect(result_titles(page)).to_have_count(4)
    page.evaluate("window.stillTheSamePage = true")

    box = page.get_by_label("Search titles, authors and topics")
    box.press_sequentially("attention", delay=30)
    # Results follow the typing, the URL follows the results, and the page never reloads.
    expect(page).to_have_url(re.compile(r"/sources/\?q=attention$"))
    expect(result_titles(page)).to_have_text(["Attention Is All You Need", "FlashAttention"])
    expect(page.locator("#result-count")).to_contain_text("2 sources matching “attention”")
    assert page.evaluate("window.stillTheSamePage") is True
    expect(box).to_be_focused()
    expect(page.locator("#results mark").first).to_be_visible()

    # A facet narrows the results; the active filter shows as a removable chip.
    show_filters(page)
    page.locator(".facets").get_by_role("link", name=re.compile(r"^Core\s+1")).click()
    expect(page).to_have_url(re.compile(r"\?q=attention&tier=core$"))
    expect(result_titles(page)).to_have_text(["FlashAttention"])
    expect(page.locator(".chips")).to_contain_text("Tier: Core")
    expect(page.locator(".facets summary")).to_contain_text("1 active")
    assert page.evaluate("window.stillTheSamePage") is True

    # Typing again keeps the facet, which lives in the swapped region.
    box.fill("flashattention")
    expect(page).to_have_url(re.compile(r"\?q=flashattention&tier=core$"))
    expect(result_titles(page)).to_have_text(["FlashAttention"])

    # Back restores the earlier states from their URLs.
    page.go_back()
    expect(page).to_have_url(re.compile(r"\?q=attention&tier=core$"))
    expect(result_titles(page)).to_have_text(["FlashAttention"])
    page.go_back()
    expect(page).to_have_url(re.compile(r"\?q=attention$"))
    expect(result_titles(page)).to_have_count(2)
    expect(page.get_by_label("Search titles, authors and topics")).to_have_value("attention")

    page.reload()
    expect(result_titles(page)).to_have_text(["Attention Is All You Need", "FlashAttention"])
    expect(page.get_by_label("Search titles, authors and topics")).to_have_value("attention")

    # The chip removes its filter.
    page.goto("/sources/?q=attention&tier=core")
    page.locator(".chips").get_by_role("link", name=re.compile("Tier: Core")).click()
    expect(page).to_have_url(re.compile(r"\?q=attention$"))
    expect(result_titles(page)).to_have_count(2)


def test_keyboard_slash_and_arrows(desktop_page: Page, small_catalog: SmallCatalog) -> None:
    page = desktop_page
    page.goto("/sources/?q=attention")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("/")
    box = page.get_by_label("Search titles, authors and topics")
    expect(box).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(result_titles(page).nth(0)).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(result_titles(page).nth(1)).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(result_titles(page).nth(0)).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(box).to_be_focused()


def test_no_results_suggest_titles(desktop_page: Page, small_catalog: SmallCatalog) -> None:
    page = desktop_page
    page.goto("/sources/?q=flashatention&tier=start-here")
    expect(page.get_by_text("No sources match")).to_be_visible()
    expect(page.get_by_role("link", name="FlashAttention")).to_be_visible()
    page.get_by_role("link", name="Clear filters and search everything").click()
    expect(page).to_have_url(re.compile(r"\?q=flashatention$"))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_search_works_without_javascript(
    browser: Browser, live_server: LiveServer, small_catalog: SmallCatalog, viewport: ViewportSize
) -> None:
    context = browser.new_context(
        viewport=viewport, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    try:
        page.goto("/sources/")
        page.get_by_label("Search titles, authors and topics").fill("roofline")
        page.locator("#search-form").get_by_role("button", name="Search").click()
        expect(page).to_have_url(re.compile(r"/sources/\?q=roofline"))
        expect(result_titles(page)).to_have_text(["Roofline"])
        show_filters(page)
        page.locator(".facets").get_by_role("link", name=re.compile(r"^Start here")).click()
        expect(page).to_have_url(re.compile(r"tier=start-here"))
        expect(result_titles(page)).to_have_text(["Roofline"])
    finally:
        context.close()
