"""A long library: "Show more" appends a group's next cards in place, and they can be selected
for a bulk change like the first ones."""

from collections.abc import Callable

from playwright.sync_api import Page, expect
from pytest_django import Settings

from accounts.models import User
from library.models import Bookmark
from library.page import GROUP_SIZE
from tests.hints import Grow


def test_show_more_appends_cards_that_bulk_changes_reach(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    many_sources: Grow,
    settings: Settings,
) -> None:
    settings.CATALOG_PAGE_CACHE = False
    sources = many_sources(GROUP_SIZE + 4)
    Bookmark.objects.bulk_create([Bookmark(user=reader, source=s) for s in sources])
    page = desktop_page
    log_in(page, reader)
    page.goto("/library/")
    queue = page.locator("section.library-group:has(#group-to_read) li.library-item")
    expect(queue).to_have_count(GROUP_SIZE)
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("link", name="Show more to read").click()
    expect(queue).to_have_count(GROUP_SIZE + 4)
    expect(page.get_by_role("link", name="Show more to read")).to_have_count(0)
    assert page.evaluate("window.__sameDocument") is True

    oldest = sources[0]
    page.get_by_label(f"Select “{oldest.title}”").check()
    page.get_by_label("Change the selected sources to").select_option("read")
    page.get_by_role("button", name="Change selected").click()
    expect(page.get_by_text("Marked 1 source as Read.")).to_be_visible()
    assert Bookmark.objects.get(user=reader, source=oldest).status == "read"
