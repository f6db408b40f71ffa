"""Editing a path in a browser: the keyboard moves a step through its drag handle, the up and
down buttons work with JavaScript on (htmx swaps the steps), and axe finds nothing serious on
the path's pages."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from paths.models import Path
from paths.services import add_step, create_path
from tests.factories import SourceFactory
from tests.hints import Tiers, present

from .test_accessibility import SERIOUS, axe_problems

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def path(reader: User, tiers: Tiers) -> Path:
    path = create_path(reader, "Attention kernels", description="Fundamentals *first*.")
    for n in range(1, 4):
        source = SourceFactory(title=f"Paper {n}", slug=f"paper-{n}", tier=tiers["core"])
        add_step(path, reader, source, note=f"Why **{n}**.")
    return path


def titles(page: Page) -> list[str]:
    return page.locator("#steps li.path-item .step-title").all_inner_texts()


def test_the_keyboard_moves_a_step_and_keeps_focus(
    desktop_page: Page, reader: User, log_in: Callable[[Page, User], None], path: Path
) -> None:
    page = desktop_page
    log_in(page, reader)
    page.goto(path.get_absolute_url())
    handle = page.get_by_role("button", name=re.compile("Reorder “Paper 3”"))
    handle.focus()
    page.keyboard.press("Alt+ArrowUp")
    page.wait_for_function(
        "() => document.querySelector('#steps li.path-item:nth-of-type(2) .step-title')"
        ".textContent === 'Paper 3'"
    )
    assert titles(page) == ["Paper 1", "Paper 3", "Paper 2"]
    focused = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert "Paper 3" in focused
    assert "Paper 3 is now step 2." in page.locator("#reorder-status").inner_text()


def test_the_buttons_move_a_step_with_javascript_on(
    desktop_page: Page, reader: User, log_in: Callable[[Page, User], None], path: Path
) -> None:
    page = desktop_page
    log_in(page, reader)
    page.goto(path.get_absolute_url())
    page.get_by_role("button", name="Move “Paper 1” down").click()
    page.wait_for_function(
        "() => document.querySelector('#steps li.path-item .step-title').textContent === 'Paper 2'"
    )
    assert titles(page) == ["Paper 2", "Paper 1", "Paper 3"]
    assert page.url.endswith(path.get_absolute_url())


def test_path_pages_have_no_serious_accessibility_problems(
    browser: Browser,
    live_server: LiveServer,
    reader: User,
    log_in: Callable[[Page, User], None],
    path: Path,
) -> None:
    from .conftest import DESKTOP

    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, reader)
        step = present(path.steps.first())
        urls = [
            "/paths/",
            path.get_absolute_url(),
            f"{path.get_absolute_url()}edit/",
            f"{path.get_absolute_url()}steps/{step.pk}/edit/",
            "/sources/paper-1/",
        ]
        problems = [problem for url in urls for problem in axe_problems(page, url)]
    finally:
        context.close()
    assert SERIOUS and problems == [], "\n".join(problems)


def test_dragging_a_step_by_its_handle_moves_it(
    desktop_page: Page, reader: User, log_in: Callable[[Page, User], None], path: Path
) -> None:
    page = desktop_page
    log_in(page, reader)
    page.goto(path.get_absolute_url())
    handle = page.get_by_role("button", name=re.compile("Reorder “Paper 1”"))
    handle.drag_to(page.locator("#steps li.path-item").nth(2))
    page.wait_for_function(
        "() => document.querySelector('#steps li.path-item:last-child .step-title')"
        ".textContent === 'Paper 1'"
    )
    assert titles(page) == ["Paper 2", "Paper 3", "Paper 1"]


def test_the_editors_page_fits_a_phone(
    browser: Browser,
    live_server: LiveServer,
    reader: User,
    log_in: Callable[[Page, User], None],
    path: Path,
) -> None:
    from .conftest import PHONE

    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    try:
        log_in(page, reader)
        page.goto(path.get_absolute_url())
        page.wait_for_selector(".drag-handle")
        page.screenshot(path="/tmp/path-phone.png", full_page=True)
        width = page.evaluate("() => document.documentElement.scrollWidth")
    finally:
        context.close()
    assert width <= PHONE["width"]
