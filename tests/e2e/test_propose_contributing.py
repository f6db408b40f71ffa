"""Contributing without friction, in a real browser: a short form on a phone, a Further-reading
article proposed quickly, and an arXiv link that fills the form."""

import re
import time
from collections.abc import Callable, Iterator

import pytest
from django.core.cache import cache
from playwright.sync_api import Browser, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from catalog.services import LoadReport
from proposals.models import Proposal
from tests.e2e.conftest import PHONE
from tests.hints import SmallCatalog
from tests.proposals.metadata_server import MetadataServer

# The form measured 4,080 px on a 390 px phone before it fitted the tier.
PHONE_FORM_BUDGET = 2040


@pytest.fixture
def phone_page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _form_height(page: Page) -> float:
    return page.evaluate("document.querySelector('#proposal-form').getBoundingClientRect().height")


def test_on_a_phone_the_form_is_at_most_half_its_old_height(
    phone_page: Page, log_in: Callable[[Page, User], None], reader: User, full_catalog: LoadReport
) -> None:
    page = phone_page
    log_in(page, reader)
    page.goto("/propose/")
    height = _form_height(page)
    assert height <= PHONE_FORM_BUDGET, f"the form is {height:.0f} px tall on a phone"
    # Choosing a tier shows its questions; the optional parts stay closed and it still fits.
    page.get_by_label("Core").check()
    expect(page.get_by_label("What mechanism or idea it teaches")).to_be_visible()
    expect(page.get_by_label("Hardware and software versions")).to_be_hidden()
    assert _form_height(page) <= PHONE_FORM_BUDGET


def test_a_further_reading_article_is_proposed_in_under_a_minute(
    phone_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    page = phone_page
    log_in(page, reader)
    started = time.monotonic()
    page.goto("/propose/")
    page.get_by_label("Further reading").check()
    expect(page.get_by_label("What mechanism or idea it teaches")).to_be_hidden()
    page.get_by_label("URL").fill("https://example.org/blog/attention-kernels-explained")
    page.get_by_label("Title").fill("Attention kernels, explained")
    page.get_by_label("Kind").select_option("article")
    page.get_by_label("Attention", exact=True).check()
    page.get_by_label("Why it is worth a reader's time").fill(
        "The clearest walk through tiling and the online softmax, with diagrams."
    )
    page.locator("#propose-submit").click()
    expect(page).to_have_url(re.compile(r"/proposals/$"))
    assert time.monotonic() - started < 60
    proposal = Proposal.objects.get()
    assert proposal.tier.slug == "further-reading"
    assert proposal.after_source is None


def test_core_answers_are_required_in_the_browser_too(
    phone_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    page = phone_page
    log_in(page, reader)
    page.goto("/propose/")
    page.get_by_label("Core").check()
    page.get_by_label("URL").fill("https://example.org/papers/x")
    page.get_by_label("Title").fill("X")
    page.get_by_label("Kind").select_option("paper")
    page.get_by_label("Attention", exact=True).check()
    page.locator("#propose-submit").click()
    # The browser asks for the Core answers before sending anything.
    mechanism = page.get_by_label("What mechanism or idea it teaches")
    assert mechanism.evaluate("field => field.matches(':invalid')")
    expect(page).to_have_url(re.compile(r"/propose/$"))
    assert not Proposal.objects.exists()
    # Without that check (JavaScript off, or an old browser) the server says the same.
    page.evaluate("document.querySelector('#proposal-form').noValidate = true")
    page.locator("#propose-submit").click()
    expect(page.locator("body")).to_contain_text("Say what mechanism or idea it teaches.")
    assert not Proposal.objects.exists()


def test_pasting_an_arxiv_link_fills_the_form(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
    settings: Settings,
) -> None:
    with MetadataServer() as server:
        settings.ARXIV_API_URL = f"{server.base}/arxiv/query"
        settings.METADATA_ALLOWED_HOSTS = ["127.0.0.1"]
        cache.clear()
        page = desktop_page
        log_in(page, reader)
        page.goto("/propose/")
        page.get_by_label("URL").fill("https://arxiv.org/abs/2205.14135v2")
        page.get_by_role("button", name="Fill from link").click()
        expect(page.get_by_label("Title")).to_have_value(
            "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness"
        )
        expect(page.locator(".fill-result")).to_contain_text("Filled from arXiv")
        expect(page.get_by_label("Authors")).to_have_value("Tri Dao et al.")
        expect(page.get_by_label("URL")).to_have_value("https://arxiv.org/abs/2205.14135")
        # The same link for a paper already in the catalog says so instead.
        small_catalog["flash"].url = "https://arxiv.org/abs/2205.14135"
        small_catalog["flash"].save()
        page.get_by_role("button", name="Fill from link").click()
        expect(page.locator("#duplicate-check")).to_contain_text("Already in the catalog")
    cache.clear()
