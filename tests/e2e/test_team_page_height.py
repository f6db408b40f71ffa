"""The team page of a team following the whole primary-source list (and a path of the same
sources) stays short: each followed list or path is one line, the member-by-step table lives on
its own paged page. At most 2,500 px tall on a 1,280 px desktop and 5,000 px on a 390 px phone."""

from collections.abc import Callable

import pytest
from django.db.models import Count
from playwright.sync_api import Browser, Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from catalog.models import ListEntry, ReadingList
from catalog.services import LoadReport
from library.models import Bookmark
from paths.models import Path, PathFollow, PathSection, PathStep
from teams.models import FollowedList, Membership, Team
from tests.factories import UserFactory
from tests.hints import present

from .conftest import DESKTOP, PHONE

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.urls("tests.paths.urls_with_detail"),
]

LIMITS = {DESKTOP["width"]: 2_500, PHONE["width"]: 5_000}


def primary_list() -> ReadingList:
    """The curated list with the most sources: the primary-source path."""
    return present(
        ReadingList.objects.annotate(n=Count("sections__entries")).order_by("-n", "pk").first()
    )


@pytest.fixture
def following_team(full_catalog: LoadReport, reader: User) -> Team:
    reading_list = primary_list()
    team = Team.objects.create(slug="kernels", name="Kernels")
    Membership.objects.create(team=team, user=reader, role="owner")
    members = [UserFactory() for _ in range(6)]
    Membership.objects.bulk_create(Membership(team=team, user=user) for user in members)
    FollowedList.objects.create(team=team, reading_list=reading_list, added_by=reader)
    source_ids = list(
        dict.fromkeys(
            ListEntry.objects.filter(section__reading_list=reading_list)
            .order_by("section__position", "position")
            .values_list("source_id", flat=True)
        )
    )
    assert len(source_ids) >= 100
    path = Path.objects.create(
        title="Every primary source", user=reader, team=team, visibility="team"
    )
    section = PathSection.objects.create(path=path, title="", position=0)
    PathStep.objects.bulk_create(
        PathStep(path=path, section=section, source_id=pk, position=n)
        for n, pk in enumerate(source_ids)
    )
    PathFollow.objects.create(path=path, team=team)
    Bookmark.objects.bulk_create(
        Bookmark(user=user, source_id=pk, status="read")
        for user in members
        for pk in source_ids[: 10 + members.index(user) * 5]
    )
    return team


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_team_page_stays_short(
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    reader: User,
    following_team: Team,
    viewport: ViewportSize,
) -> None:
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        log_in(page, reader)
        page.goto(f"/teams/{following_team.slug}/")
        assert page.locator("#progress .progress-line").count() == 2
        height = page.evaluate("document.documentElement.scrollHeight")
        print(f"team page at {viewport['width']} px: {height} px tall")
        assert height <= LIMITS[viewport["width"]]
        # The table is one click away, a page of steps at a time.
        page.get_by_role("link", name="Step by step").first.click()
        page.wait_for_load_state()
        assert page.locator("table tbody tr").count() == 25
    finally:
        context.close()
