"""Without JavaScript, saving from far down a long list comes back to the same control."""

from collections.abc import Callable

from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from catalog.models import ListEntry
from catalog.services import LoadReport
from library.models import Bookmark
from tests.e2e.conftest import DESKTOP
from tests.hints import present

WAFER = "wafer-gpu-performance"


def test_saving_without_javascript_keeps_the_place_on_the_page(
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    reader: User,
    full_catalog: LoadReport,
) -> None:
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, reader)
        page.goto(f"/lists/{WAFER}/")
        entry = present(
            ListEntry.objects.filter(section__reading_list__slug=WAFER)
            .order_by("-section__position", "-position")
            .select_related("section", "source")
            .first()
        )
        control = page.locator(f"#bookmark-{entry.source.pk}-in-{entry.section.slug}")
        control.scroll_into_view_if_needed()
        assert page.evaluate("window.scrollY") > 1000

        control.get_by_role("button", name="To read", exact=True).click()
        page.wait_for_load_state()

        assert page.url.endswith(f"#bookmark-{entry.source.pk}-in-{entry.section.slug}")
        assert page.evaluate("window.scrollY") > 1000
        expect(control.get_by_role("button", name="To read", exact=True)).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(control).to_be_in_viewport()
        assert Bookmark.objects.get(user=reader, source=entry.source).status == "to_read"
    finally:
        context.close()
