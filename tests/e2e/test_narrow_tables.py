"""Tables on a phone: headings break between words, the curator's inbox fits the screen, and the
admin's proposal page names every column; an invitation says only what the newcomer will meet."""

from collections.abc import Callable

from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from candidates.models import Candidate
from proposals.models import Decision
from teams import services as teams
from teams.models import FollowedList
from tests.conftest import PASSWORD
from tests.e2e.conftest import PHONE
from tests.e2e.test_accessibility import AXE
from tests.factories import (
    ListEntryFactory,
    ListSectionFactory,
    ReadingListFactory,
    SourceFactory,
    UserFactory,
)
from tests.hints import SmallCatalog
from tests.proposals.helpers import make_proposal

# For each header cell, whether its text is broken inside a word: a word wider than the cell.
BROKEN_HEADINGS = """() => Array.from(document.querySelectorAll('thead th')).filter(th => {
  const style = getComputedStyle(th);
  const room = th.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return th.textContent.trim().split(/\\s+/).some(word => {
    const probe = document.createElement('span');
    probe.style.whiteSpace = 'nowrap';
    probe.textContent = word;
    th.appendChild(probe);
    const wide = probe.getBoundingClientRect().width;
    probe.remove();
    return wide > room + 0.5;
  });
}).map(th => th.textContent.trim())"""


def phone_context(browser: Browser, live_server: LiveServer) -> BrowserContext:
    return browser.new_context(viewport=PHONE, base_url=live_server.url, bypass_csp=True)


def admin_log_in(page: Page, user: User) -> None:
    page.goto("/admin/login/")
    page.locator("#id_username").fill(user.email)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def serious_axe(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']}: {v['help']}: {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
    ]


def test_progress_headings_break_between_words_on_a_phone(
    browser: Browser, live_server: LiveServer, log_in: Callable[[Page, User], None], db: None
) -> None:
    owner = UserFactory(email="lead@example.com", display_name="Lead")
    team = teams.create_team(name="Inference", owner=owner)
    reading_list = ReadingListFactory(slug="serving", title="Serving path")
    section = ListSectionFactory(reading_list=reading_list, position=1)
    for n in range(1, 4):
        # Long titles squeeze the count columns, as on a real list.
        title = f"A rather long title of a paper about attention kernels, part {n}"
        ListEntryFactory(section=section, position=n, source=SourceFactory(title=title))
    followed = FollowedList.objects.create(team=team, reading_list=reading_list, added_by=owner)
    context = phone_context(browser, live_server)
    page = context.new_page()
    try:
        log_in(page, owner)
        page.goto(f"/library/teams/inference/progress/{followed.pk}/")
        expect(page.get_by_role("columnheader", name="Finished", exact=True)).to_be_visible()
        assert page.evaluate(BROKEN_HEADINGS) == []
    finally:
        context.close()


def test_the_candidate_inbox_fits_a_phone(
    browser: Browser, live_server: LiveServer, small_catalog: SmallCatalog
) -> None:
    curator = UserFactory(email="curator@example.com", is_staff=True, is_superuser=True)
    for n in range(3):
        Candidate.objects.create(
            key=f"arxiv:2511.0000{n}",
            keys=[f"arxiv:2511.0000{n}"],
            origin=Candidate.Origin.ARXIV,
            feed="arXiv",
            title="KVSwap: paging the KV cache to flash",
            url=f"https://arxiv.org/abs/2511.0000{n}",
            relevance=0.6,
            relevant=True,
            suggested_tier="frontier",
            published=timezone.now(),
        )
    context = phone_context(browser, live_server)
    page = context.new_page()
    try:
        admin_log_in(page, curator)
        page.goto("/admin/candidates/candidate/")
        table = page.locator("#result_list")
        expect(table.get_by_role("columnheader", name="Status")).to_be_in_viewport()
        box = table.bounding_box()
        assert box is not None  # shown, so laid out
        assert box["x"] + box["width"] <= PHONE["width"], f"the table is {box['width']:.0f} px"
        # ...and not by squeezing titles to a letter a line.
        title = table.locator("td.field-title_link").first.bounding_box()
        assert title is not None
        assert title["width"] >= 140, f"the title column is {title['width']:.0f} px"
    finally:
        context.close()


def test_the_proposal_admin_names_every_column(
    browser: Browser, live_server: LiveServer, small_catalog: SmallCatalog, reader: User
) -> None:
    curator = UserFactory(email="curator@example.com", is_staff=True, is_superuser=True)
    proposal = make_proposal(small_catalog, reader)
    Decision.objects.create(
        proposal=proposal, maintainer=curator, action="changes_requested", reason="Cite the paper."
    )
    context = phone_context(browser, live_server)
    page = context.new_page()
    try:
        admin_log_in(page, curator)
        page.goto(f"/admin/proposals/proposal/{proposal.pk}/change/")
        expect(page.get_by_text("Cite the paper.")).to_be_visible()
        assert serious_axe(page) == []
    finally:
        context.close()
