"""A team lead's afternoon: a goal drafts a path, the lead edits it and shares it with the team,
a member follows it and reads two steps, the team page shows the progress line, and a session
is planned from the next steps."""

import re
from collections.abc import Callable

from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from catalog.services import LoadReport
from paths.models import Path
from teams.models import Membership, Session, Team
from tests.factories import UserFactory, join_team

GOAL = "get our team ready to serve a large model across several nodes"


def new_page(browser: Browser, live_server: LiveServer) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def draft_and_share(page: Page, team: Team) -> Path:
    page.goto("/paths/")
    page.get_by_label("What do you want to learn?").fill(GOAL)
    page.get_by_role("button", name="Draft a path").click()
    expect(page.locator(".draft-steps li").first).to_be_visible()
    page.get_by_label("Whose path").select_option(label=f"The team {team.name}")
    # "Private" on a team's path means its members only.
    page.get_by_label("Who can see it").select_option("private")
    page.get_by_role("button", name="Save as a path").click()
    expect(page.locator("ol#steps")).to_be_visible()
    return Path.objects.get(team=team)


def edit(page: Page, path: Path) -> list[str]:
    """Move the second step to the top; the page keeps the new order after a reload."""
    titles = page.locator("ol#steps a.step-title").all_inner_texts()
    assert len(titles) >= 4
    page.get_by_role("button", name=f"Move “{titles[1]}” up").click()
    expect(page.locator("ol#steps a.step-title").first).to_have_text(titles[1])
    page.reload()
    moved = page.locator("ol#steps a.step-title").all_inner_texts()
    assert moved[:2] == [titles[1], titles[0]]
    return moved


def mark_read(page: Page, path_url: str, position: int) -> None:
    page.goto(path_url)
    page.locator("ol#steps a.step-title").nth(position).click()
    page.get_by_role("button", name="Read", exact=True).first.click()
    expect(page.get_by_role("button", name="Read", exact=True).first).to_have_attribute(
        "aria-pressed", "true"
    )


def test_the_team_leads_afternoon(
    browser: Browser,
    live_server: LiveServer,
    full_catalog: LoadReport,
    log_in: Callable[[Page, User], None],
) -> None:
    lead, member = UserFactory(email="lead@example.com"), UserFactory(email="member@example.com")
    team = join_team(lead, member, slug="kernels")
    Membership.objects.filter(team=team, user=lead).update(role="owner")

    lead_context, lead_page = new_page(browser, live_server)
    log_in(lead_page, lead)
    path = draft_and_share(lead_page, team)
    assert path.visibility == "team" and path.steps.count() >= 4
    order = edit(lead_page, path)
    lead_page.get_by_role("button", name=f"Have {team.name} follow it").click()
    expect(lead_page.get_by_text(f"{team.name} follows this path")).to_be_visible()

    member_context, member_page = new_page(browser, live_server)
    log_in(member_page, User.objects.get(pk=member.pk))
    member_page.goto(path.get_absolute_url())
    member_page.get_by_role("button", name="Follow this path").click()
    expect(member_page.get_by_text("You follow this path")).to_be_visible()
    mark_read(member_page, path.get_absolute_url(), 0)
    mark_read(member_page, path.get_absolute_url(), 1)
    member_page.goto("/library/")
    expect(member_page.get_by_text(re.compile(rf"2 of {len(order)} read"))).to_be_visible()
    member_context.close()

    lead_page.goto(f"/teams/{team.slug}/")
    line = lead_page.locator("li.progress-line", has_text=path.title)
    expect(line).to_be_visible()
    expect(line.locator("progress")).to_have_attribute("value", "2")
    line.get_by_role("link", name="Plan a session from the next steps").click()
    # The member's next unread step is among the session's sources, chosen for the lead.
    chosen = lead_page.locator("#chosen-sources li")
    expect(chosen.filter(has_text=order[2])).to_have_count(1)
    lead_page.get_by_label("Title").fill("Next steps of the serving path")
    lead_page.get_by_label("Starts at").fill("2027-01-12T16:00")
    lead_page.get_by_role("button", name="Save session").click()
    expect(lead_page.locator(".messages")).to_contain_text(
        "The session “Next steps of the serving path” is planned."
    )
    session = Session.objects.get(team=team)
    assert order[2] in [source.title for source in session.sources.all()]
    lead_context.close()
