"""Browser tests: Debian's Chromium driven by Playwright, kept off the network (DESIGN.md §7)."""

import os
import shutil
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from accounts.models import User

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]",
]
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip(
            f"Chromium is not installed at {CHROMIUM} (CI installs it: apt-get install chromium)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def viewport(request: pytest.FixtureRequest) -> ViewportSize:
    return request.param


@pytest.fixture
def page(browser: Browser, live_server: LiveServer, viewport: ViewportSize) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def desktop_page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def log_in(live_server: LiveServer) -> Callable[[Page, User], None]:
    """Log a Playwright page in as a user through the real login form."""
    from tests.conftest import PASSWORD

    def do(page: Page, user: User) -> None:
        page.goto("/accounts/login/")
        page.get_by_label("Email").fill(user.email)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()

    return do
