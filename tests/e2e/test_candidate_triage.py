"""A curator's morning in the admin: a candidate's own page offers the triage, and "Make a
proposal" opens the proposal form with the suggested tier chosen and its questions showing."""

from django.utils import timezone
from playwright.sync_api import Page, expect

from candidates.models import Candidate
from tests.conftest import PASSWORD
from tests.factories import UserFactory
from tests.hints import SmallCatalog


def test_make_a_proposal_from_a_candidate_keeps_its_tier(
    desktop_page: Page, small_catalog: SmallCatalog
) -> None:
    curator = UserFactory(email="curator@example.com", is_staff=True, is_superuser=True)
    one = Candidate.objects.create(
        key="arxiv:2511.00001",
        keys=["arxiv:2511.00001"],
        origin=Candidate.Origin.ARXIV,
        feed="arXiv",
        title="KVSwap: paging the KV cache to flash",
        url="https://arxiv.org/abs/2511.00001",
        relevance=0.6,
        relevant=True,
        suggested_tier="frontier",
        published=timezone.now(),
    )
    page = desktop_page
    page.goto("/admin/")
    page.locator("#id_username").fill(curator.email)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    page.goto(f"/admin/candidates/candidate/{one.pk}/change/")
    for label in ("Make a proposal", "Dismiss…", "Snooze for 30 days"):
        expect(page.get_by_role("button", name=label)).to_be_visible()
    page.get_by_role("button", name="Make a proposal").click()

    expect(page.get_by_label("Title")).to_have_value("KVSwap: paging the KV cache to flash")
    expect(page.get_by_label("Frontier")).to_be_checked()
    expect(page.locator(".form-group", has_text="For Core and Frontier")).to_be_visible()
