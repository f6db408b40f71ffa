import re

from playwright.sync_api import Page, expect

from tests.hints import SmallCatalog


def test_home_path_leads_to_a_source(page: Page, small_catalog: SmallCatalog) -> None:
    page.goto("/")
    path = page.locator("ol.path")
    expect(path.locator("li")).to_have_count(3)
    expect(path.locator("li").first).to_contain_text("How to Scale Your Model")
    path.get_by_role("link", name="Attention Is All You Need").click()
    expect(page).to_have_url(re.compile(r"/sources/attention-paper/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Attention Is All You Need")
    expect(page.get_by_role("link", name="Read the source ↗")).to_have_attribute(
        "href", re.compile(r"^https://example\.org/")
    )
    expect(page.locator("dl.facts")).to_contain_text("2017")


def test_list_page_shows_sections_in_order(page: Page, small_catalog: SmallCatalog) -> None:
    page.goto("/lists/wafer/")
    headings = page.locator("section.list-section h2")
    expect(headings).to_have_text(["Start here", "Attention kernels"])
    expect(page.locator("#start-here ol.entries li")).to_have_count(3)
    expect(page.get_by_role("heading", name="Contribution rules")).to_be_visible()


def test_skip_link_and_no_horizontal_scroll(page: Page, small_catalog: SmallCatalog) -> None:
    page.goto("/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0


def test_unknown_page_shows_styled_404(page: Page, db: None) -> None:
    response = page.goto("/sources/no-such-source/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("We could not find that page")
    expect(page.get_by_role("link", name="searching the catalog")).to_be_visible()
