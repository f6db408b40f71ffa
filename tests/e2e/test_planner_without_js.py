"""The session planner without JavaScript shows no finder that cannot find: the titles typed in
"Sources to read" are the picker, and a session planned that way lists its sources."""

from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from teams import services as teams
from tests.factories import UserFactory
from tests.hints import SmallCatalog

from .conftest import DESKTOP


def planner_page(browser: Browser, live_server: LiveServer, *, javascript: bool) -> Page:
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, java_script_enabled=javascript
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def test_without_javascript_the_titles_are_the_picker(
    browser: Browser,
    live_server: LiveServer,
    small_catalog: SmallCatalog,
    log_in: Callable[[Page, User], None],
) -> None:
    owner = UserFactory(email="lead@example.com", display_name="Lead")
    team = teams.create_team(name="Kernels", owner=owner)
    page = planner_page(browser, live_server, javascript=False)
    try:
        log_in(page, owner)
        page.goto(f"/teams/{team.slug}/sessions/new/")
        expect(page.get_by_label("Search the catalog for a source")).to_be_hidden()
        expect(page.get_by_role("link", name="search the catalog in a new tab")).to_be_visible()
        expect(page.locator("main")).not_to_contain_text("{#")
        page.get_by_label("Title").fill("Tiling")
        starts = timezone.localtime() + timedelta(days=7)
        page.get_by_label("Starts at").fill(starts.strftime("%Y-%m-%dT18:00"))
        page.get_by_label("Sources to read").fill("FlashAttention")
        page.get_by_role("button", name="Save session").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Kernels")
        session = team.sessions.get()
        assert [source.slug for source in session.sources.all()] == ["flashattention"]
    finally:
        page.context.close()


def test_with_javascript_the_finder_adds_a_title(
    browser: Browser,
    live_server: LiveServer,
    small_catalog: SmallCatalog,
    log_in: Callable[[Page, User], None],
) -> None:
    owner = UserFactory(email="lead@example.com", display_name="Lead")
    team = teams.create_team(name="Kernels", owner=owner)
    page = planner_page(browser, live_server, javascript=True)
    try:
        log_in(page, owner)
        page.goto(f"/teams/{team.slug}/sessions/new/")
        finder = page.get_by_label("Search the catalog for a source")
        expect(finder).to_be_visible()
        finder.press_sequentially("flashatt", delay=20)
        page.get_by_role("button", name="Add FlashAttention").click()
        expect(page.get_by_label("Sources to read")).to_have_value("FlashAttention")
    finally:
        page.context.close()
