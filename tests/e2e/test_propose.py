"""A reader proposes a source in a real browser; a maintainer accepts it in the admin."""

import importlib
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from tests.conftest import PASSWORD
from tests.e2e.conftest import DESKTOP
from tests.hints import SmallCatalog


@pytest.fixture
def maintainers_group(transactional_db: None) -> None:
    """Browser tests flush the database, which drops the group its data migrations made."""
    from django.apps import apps

    importlib.import_module("catalog.migrations.0002_maintainers_group").create_group(apps, None)
    importlib.import_module("proposals.migrations.0001_initial").grant_moderation(apps, None)


@pytest.mark.usefixtures("maintainers_group")
def test_reader_proposes_and_maintainer_accepts(
    browser: Browser,
    live_server: LiveServer,
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    maintainer: User,
    small_catalog: SmallCatalog,
) -> None:
    flash = small_catalog["flash"]
    flash.url = "https://arxiv.org/abs/2205.14135"
    flash.save()
    page = desktop_page
    log_in(page, reader)
    page.goto("/proposals/decisions/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Propose").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Propose a source")
    submit = page.locator("#propose-submit")
    page.get_by_label("Core").check()

    # A variant spelling of a source already in the catalog is caught as it is typed.
    url_box = page.get_by_label("URL")
    url_box.press_sequentially("https://arxiv.org/pdf/2205.14135v2")
    check = page.locator("#duplicate-check")
    expect(check).to_contain_text("Already in the catalog")
    expect(check.get_by_role("link", name="FlashAttention")).to_have_attribute(
        "href", "/sources/flashattention/"
    )
    expect(submit).to_be_disabled()

    # A new source passes; a similar title is only a warning.
    url_box.fill("")
    url_box.press_sequentially("https://example.org/papers/speculative-kernels")
    expect(check).to_contain_text("Not in the catalog or proposed yet.")
    expect(submit).to_be_enabled()
    page.get_by_label("Title").fill("Speculative decoding kernels")
    page.get_by_label("Kind").select_option("paper")
    page.get_by_label("Filter topics").fill("atten")
    expect(page.get_by_label("Serving", exact=True)).to_be_hidden()
    page.get_by_label("Attention", exact=True).check()
    page.get_by_label("What mechanism or idea it teaches").fill(
        "How to verify draft tokens in one batched attention pass."
    )
    page.get_by_label("Paper that introduced the mechanism").check()
    page.get_by_label("How it meets that bar").fill("The paper that introduced the kernel.")
    page.get_by_label("Belongs after").fill("FlashAttention")
    submit.click()
    expect(page).to_have_url(re.compile(r"/proposals/$"))
    card = page.locator(".proposal-card", has_text="Speculative decoding kernels")
    expect(card).to_contain_text("Pending")

    # The maintainer accepts it in the admin, correcting the title first.
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    admin = context.new_page()
    admin.set_default_timeout(10_000)
    admin.goto("/admin/login/")
    admin.locator("#id_username").fill(maintainer.email)
    admin.locator("#id_password").fill(PASSWORD)
    admin.get_by_role("button", name="Log in").click()
    expect(admin.get_by_text("1 proposal waiting for a decision")).to_be_visible()
    admin.get_by_text("1 proposal waiting for a decision").click()
    admin.get_by_role("link", name="Speculative decoding kernels").click()
    expect(admin.locator("body")).to_contain_text("How to verify draft tokens")
    admin.get_by_role("link", name="Accept…").click()
    admin.get_by_label("Title").fill("Speculative decoding attention kernels")
    admin.get_by_label("Summary").fill("Verifying draft tokens in one attention pass.")
    admin.get_by_role("button", name="Accept and create the source").click()
    expect(admin.locator(".messagelist")).to_contain_text("is in the catalog")
    context.close()

    # Readers find it in the catalog and in search.
    page.goto("/sources/speculative-decoding-attention-kernels/")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Speculative decoding attention kernels"
    )
    expect(page.locator("dl.facts")).to_contain_text("Attention")
    page.goto("/sources/?q=speculative")
    expect(page.get_by_role("link", name="Speculative decoding attention kernels")).to_be_visible()
    page.goto("/proposals/")
    expect(page.locator(".proposal-card").first).to_contain_text("Accepted")


def test_duplicate_cannot_be_submitted_without_javascript(
    browser: Browser,
    live_server: LiveServer,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    context = browser.new_context(
        viewport=DESKTOP, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, reader)
    page.goto("/propose/")
    page.get_by_label("URL").fill(
        "https://example.org/papers/" + small_catalog["flash"].url.rsplit("/", 1)[1]
    )
    page.get_by_label("Title").fill("Flash again")
    page.get_by_role("button", name="Check for duplicates").click()
    expect(page.locator("#duplicate-check")).to_contain_text("Already in the catalog")
    expect(page.get_by_label("Title")).to_have_value("Flash again")
    context.close()


def test_propose_form_fits_the_screen(
    page: Page, log_in: Callable[[Page, User], None], reader: User, small_catalog: SmallCatalog
) -> None:
    log_in(page, reader)
    page.goto("/propose/")
    questions = page.locator(".form-group", has_text="For Core and Frontier")
    expect(questions).to_be_hidden()
    page.get_by_label("Frontier").check()
    expect(questions).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
