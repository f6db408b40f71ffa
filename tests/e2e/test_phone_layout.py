"""A 390 px phone: no page scrolls sideways, and the signed-in header is two rows with a menu."""

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from tests.factories import NoteFactory
from tests.hints import SmallCatalog, present

from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

LONG_CODE_LINE = ("acc += tile[i] * weight[i]; " * 11)[:300]
LONG_WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 3

ANONYMOUS_PAGES = [
    "/",
    "/sources/",
    "/sources/?q=attention",
    "/sources/flashattention/",
    "/lists/wafer/",
    "/tiers/start-here/",
    "/topics/attention/",
]
READER_PAGES = ["/", "/sources/flashattention/", "/library/", "/library/notes/"]


@pytest.fixture
def phone(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def page_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def header_rows(page: Page) -> int:
    """How many rows the header's parts sit on: the distinct tops of its visible children."""
    return page.evaluate(
        """() => {
          const tops = [...document.querySelector(".site-nav").children]
            .filter((part) => part.getClientRects().length)
            .map((part) => part.getBoundingClientRect().top);
          const rows = [];
          for (const top of tops) if (!rows.some((row) => Math.abs(row - top) < 12)) rows.push(top);
          return rows.length;
        }"""
    )


WIDEST = """() => [...document.querySelectorAll("body *")]
  .filter((element) => element.getBoundingClientRect().right > innerWidth + 1)
  .slice(0, 5)
  .map((element) => `${element.tagName}.${element.className}: ${element.scrollWidth} px`)"""


def assert_fits(page: Page, url: str) -> None:
    page.goto(url)
    width = page_width(page)
    assert width <= PHONE["width"], f"{url} is {width} px wide: {page.evaluate(WIDEST)}"


def test_no_page_is_wider_than_a_phone(
    phone: Page, small_catalog: SmallCatalog, reader: User, log_in: Callable[[Page, User], None]
) -> None:
    flash = small_catalog["flash"]
    # Filters list reading lists by title, and a select is as wide as its longest option.
    reading_list = small_catalog["list"]
    reading_list.title = "AI performance engineering: a primary-source reading list of the field"
    reading_list.save()
    NoteFactory(
        user=reader,
        source=flash,
        body=f"Kernel sketch {LONG_WORD}:\n\n```python\n{LONG_CODE_LINE}\n```\n",
    )
    for url in ANONYMOUS_PAGES:
        assert_fits(phone, url)
    assert header_rows(phone) <= 2, "a visitor's header is more than two rows"

    log_in(phone, reader)
    for url in READER_PAGES:
        assert_fits(phone, url)

    phone.goto(flash.get_absolute_url())
    code = phone.locator(".note-body pre").first
    expect(code).to_contain_text(LONG_CODE_LINE)
    # The code scrolls inside its own box, which stays within the screen.
    box = present(code.bounding_box())
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert code.evaluate("pre => pre.scrollWidth > pre.clientWidth")


def test_signed_in_header_is_two_rows_with_a_keyboard_menu(
    phone: Page, small_catalog: SmallCatalog, reader: User, log_in: Callable[[Page, User], None]
) -> None:
    log_in(phone, reader)
    phone.goto("/sources/flashattention/")
    assert header_rows(phone) <= 2
    header_height = present(phone.locator(".site-header").bounding_box())["height"]
    assert header_height < 110, f"the header is {header_height} px tall"

    menu = phone.locator(".site-menu")
    notes_link = menu.get_by_role("link", name="Your notes")
    expect(notes_link).to_be_hidden()
    menu.locator("summary").focus()
    phone.keyboard.press("Enter")
    expect(notes_link).to_be_visible()
    for name in ["My library", "Team notes", "Your proposals", "Profile"]:
        expect(menu.get_by_role("link", name=name, exact=True)).to_be_visible()
    assert page_width(phone) <= PHONE["width"], "the open menu widens the page"

    phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.closest('.menu-panel') !== null")
    phone.keyboard.press("Escape")
    expect(notes_link).to_be_hidden()
    assert phone.evaluate("document.activeElement.matches('.site-menu > summary')")

    phone.keyboard.press("Space")
    expect(notes_link).to_be_visible()
    notes_link.press("Enter")
    expect(phone).to_have_url(re.compile(r"/library/notes/$"))
