"""In a browser: copying a formatted citation, and "Not for me" on For you, with and without
JavaScript."""

from collections.abc import Callable

from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from library.models import Bookmark, Dismissal
from tests.hints import SmallCatalog

from .conftest import DESKTOP
from .csp import watch_csp


def test_reader_copies_a_reference_and_switches_style(
    desktop_page: Page, live_server: LiveServer, small_catalog: SmallCatalog
) -> None:
    page = desktop_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    violations = watch_csp(page)
    page.goto("/sources/flashattention/")
    cite = page.locator("details.cite")
    cite.get_by_text("Cite", exact=True).click()
    text = cite.locator("textarea.cite-text")
    expect(text).to_be_visible()
    reference = text.input_value()
    assert "FlashAttention" in reference and "(2022)" in reference
    copy = cite.get_by_role("button", name="Copy")
    expect(copy).to_be_visible()
    copy.click()
    copied = ""
    for _ in range(50):  # the browser answers a rich write in its own time
        copied = page.evaluate("navigator.clipboard.readText()")
        if copied == reference:
            break
        page.wait_for_timeout(100)
    assert copied == reference

    cite.get_by_role("link", name="IEEE").click()
    expect(page).to_have_url(f"{live_server.url}/sources/flashattention/cite/?style=ieee")
    expect(page.get_by_label("Citation style")).to_have_value("ieee")
    expect(page.locator("#cite-text")).to_have_value(page.locator("#cite-text").input_value())
    assert page.locator("#cite-text").input_value().startswith("[1] ")
    page.get_by_label("Citation style").select_option("chicago")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_role("heading", level=2, name="Chicago (author-date)")).to_be_visible()
    assert violations == []


def test_without_javascript_the_reference_is_there_to_select(
    browser: Browser, live_server: LiveServer, small_catalog: SmallCatalog
) -> None:
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.goto("/sources/flashattention/cite/?style=acm")
    expect(page.locator("#cite-text")).to_be_visible()
    assert "FlashAttention" in page.locator("#cite-text").input_value()
    # A button that would do nothing stays hidden.
    expect(page.get_by_role("button", name="Copy text")).to_be_hidden()
    context.close()


def _new_reader_on_for_you(
    page: Page, log_in: Callable[[Page, User], None], reader: User, small_catalog: SmallCatalog
) -> None:
    Bookmark.objects.create(user=reader, source=small_catalog["path"][0], status="read")
    log_in(page, reader)
    page.goto("/library/for-you/")


def test_not_for_me_swaps_the_card_and_undo_brings_it_back(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    page = desktop_page
    violations = watch_csp(page)
    _new_reader_on_for_you(page, log_in, reader, small_catalog)
    step = small_catalog["path"][1]
    pick = page.locator(f"#pick-{step.pk}")
    expect(pick.locator(".card")).to_contain_text(step.title)
    pick.get_by_label("Not for me").select_option("too_basic")
    pick.get_by_role("button", name="Hide").click()
    expect(pick.get_by_role("status")).to_contain_text("(too basic)")
    assert page.url.endswith("/library/for-you/")
    assert Dismissal.objects.get(user=reader).reason == "too_basic"
    page.reload()
    expect(page.locator(f"#pick-{step.pk}")).to_have_count(0)

    page.goto(step.get_absolute_url())
    expect(page.get_by_text("You marked this “Not for me”")).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_text("can be recommended to you again")).to_be_visible()
    page.goto("/library/for-you/")
    expect(page.locator(f"#pick-{step.pk}")).to_have_count(1)
    assert violations == []


def test_not_for_me_without_javascript(
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    _new_reader_on_for_you(page, log_in, reader, small_catalog)
    step = small_catalog["path"][1]
    page.locator(f"#pick-{step.pk}").get_by_role("button", name="Hide").click()
    expect(page.get_by_text(f"Hidden “{step.title}” from your recommendations")).to_be_visible()
    expect(page.locator(f"#pick-{step.pk}")).to_have_count(0)
    page.goto("/library/")
    hidden = page.locator(".hidden-recommendations")
    expect(hidden).to_contain_text(step.title)
    hidden.get_by_role("button", name="Undo").click()
    expect(page.get_by_text("can be recommended to you again")).to_be_visible()
    assert not Dismissal.objects.exists()
    context.close()
