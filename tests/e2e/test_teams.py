"""Teams in a real browser: create, invite by email, share a note with one team, plan a session."""

import re
from collections.abc import Callable
from datetime import timedelta
from urllib.parse import urlsplit

from django.core import mail
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from tests.factories import UserFactory
from tests.hints import SmallCatalog, found, present

SOURCE_URL = "/sources/flashattention/"
INVITATION_LINK = re.compile(r"https?://\S+/teams/invitations/\S+/")


def create_team(page: Page, name: str) -> None:
    page.goto("/teams/")
    page.get_by_label("Team name").fill(name)
    page.get_by_role("button", name="Create team").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def invite(page: Page, email: str) -> str:
    """Send an invitation from the team page; the path of the link the email carries."""
    sent = len(mail.outbox)
    page.get_by_label("Email address").fill(email)
    page.get_by_role("button", name="Send invitation").click()
    expect(page.get_by_text(f"An invitation is on its way to {email}.")).to_be_visible()
    assert len(mail.outbox) == sent + 1
    message = mail.outbox[-1]
    assert message.to == [email]
    return urlsplit(found(INVITATION_LINK.search(str(message.body))).group(0)).path


def new_page(browser: Browser, live_server: LiveServer, viewport: ViewportSize) -> Page:
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def test_a_newcomer_builds_two_teams_shares_a_note_with_one_and_plans_a_session(
    desktop_page: Page,
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    small_catalog: SmallCatalog,
) -> None:
    newcomer = UserFactory(email="ada@example.com", display_name="Ada")
    colleague = UserFactory(email="grace@example.com", display_name="Grace")
    page = desktop_page
    log_in(page, newcomer)
    page.goto("/teams/")
    expect(page.get_by_text("You are not in a team yet.")).to_be_visible()

    create_team(page, "Kernels")
    kernels_invitation = invite(page, colleague.email)
    create_team(page, "Serving")
    serving_invitation = invite(page, colleague.email)

    other = new_page(browser, live_server, present(page.viewport_size))
    try:
        log_in(other, colleague)
        for path, name in ((kernels_invitation, "Kernels"), (serving_invitation, "Serving")):
            other.goto(path)
            other.get_by_role("button", name=f"Accept and join {name}").click()
            expect(other.get_by_text(f"Welcome to {name}.")).to_be_visible()
        other.goto("/teams/")
        teams = other.locator(".team-list > li")
        expect(teams).to_have_count(2)

        page.goto(SOURCE_URL)
        page.get_by_text("Add a note").click()
        page.get_by_label("Note", exact=True).fill("Tiling is what makes it IO-aware.")
        page.get_by_role("radio", name=re.compile("^Kernels")).check()
        page.get_by_role("button", name="Save note").click()
        expect(page.locator("#note-list > li").first.locator(".badge")).to_contain_text("Kernels")

        other.goto("/notes/team/")
        filters = other.get_by_role("navigation", name="Filter by team")
        filters.get_by_role("link", name="Kernels").click()
        expect(other.get_by_role("heading", level=1)).to_have_text("Kernels: team notes")
        expect(other.locator(".notes-list")).to_contain_text("Tiling is what makes it IO-aware.")
        filters.get_by_role("link", name="Serving").click()
        expect(other.get_by_role("heading", level=1)).to_have_text("Serving: team notes")
        expect(other.locator(".notes-list")).to_contain_text("Nobody has shared a note")
        expect(other.locator(".notes-list")).not_to_contain_text("Tiling is what makes")
    finally:
        other.context.close()

    page.goto("/teams/")
    page.get_by_role("link", name="Kernels").click()
    page.get_by_role("link", name="Plan a session").click()
    page.get_by_label("Title").fill("FlashAttention, part one")
    starts = timezone.localtime() + timedelta(days=7)
    page.get_by_label("Starts at").fill(starts.strftime("%Y-%m-%dT18:00"))
    page.get_by_label("Sources to read").fill("flashattention")
    page.get_by_role("button", name="Save session").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kernels")
    expect(page.locator("#main")).to_contain_text("FlashAttention, part one")

    feed = page.get_by_label("Calendar address").input_value()
    response = page.request.get(urlsplit(feed).path)
    assert response.ok
    assert response.headers["content-type"].startswith("text/calendar")
    events = Calendar.from_ical(response.body()).walk("VEVENT")
    assert [str(event["summary"]) for event in events] == ["FlashAttention, part one"]
    assert "FlashAttention" in str(events[0]["description"])


CONFIRM_LINK = re.compile(r"https?://\S+(/accounts/confirm-email/\S+/)")


def test_a_newcomer_signs_up_from_a_join_link_and_lands_on_the_team(
    page: Page, live_server: LiveServer
) -> None:
    from teams import services

    owner = UserFactory(email="lead@example.com", display_name="Lead")
    team = services.create_team(name="Kernels", owner=owner)
    link = services.create_join_link(team=team, by=owner)

    # One address per viewport: allauth sends an address one confirmation mail per few minutes.
    email = f"newcomer{present(page.viewport_size)['width']}@example.com"
    page.goto(link.get_absolute_url())
    expect(page.get_by_role("heading", level=1)).to_have_text("Join Kernels")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").first.fill("a long enough passphrase 42")
    page.get_by_label("Password (again)").fill("a long enough passphrase 42")
    page.get_by_role("button", name="Sign up and join Kernels").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Verify your address to join Kernels")

    confirm = found(CONFIRM_LINK.search(str(mail.outbox[-1].body))).group(1)
    page.goto(confirm)
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kernels")
    expect(page.get_by_text("Welcome to Kernels.")).to_be_visible()
    assert team.memberships.filter(user__email=email).exists()


def test_an_owners_team_pages_have_no_serious_accessibility_violations(
    browser: Browser,
    live_server: LiveServer,
    small_catalog: SmallCatalog,
    log_in: Callable[[Page, User], None],
) -> None:
    from catalog.models import ReadingList
    from teams import services
    from teams.models import FollowedList

    from .conftest import DESKTOP
    from .test_accessibility import axe_problems

    owner = UserFactory(email="lead@example.com", display_name="Lead")
    team = services.create_team(name="Kernels", owner=owner)
    services.create_join_link(team=team, by=owner)
    FollowedList.objects.create(team=team, reading_list=present(ReadingList.objects.first()))
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, owner)
        urls = ["/teams/kernels/", "/teams/kernels/sessions/new/", "/teams/kernels/delete/"]
        problems = [problem for url in urls for problem in axe_problems(page, url)]
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
