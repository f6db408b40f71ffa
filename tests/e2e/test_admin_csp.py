"""Maintainers curate in the admin under the site's strict Content-Security-Policy."""

import importlib
import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.conftest import PASSWORD
from tests.hints import SmallCatalog

from .csp import watch_csp


@pytest.fixture
def maintainers_group(transactional_db: None) -> None:
    """Browser tests flush the database, which drops the group its data migration made."""
    from django.apps import apps

    migration = importlib.import_module("catalog.migrations.0002_maintainers_group")
    migration.create_group(apps, None)


@pytest.mark.usefixtures("maintainers_group")
def test_a_maintainer_curates_in_the_admin_with_no_csp_violation(
    desktop_page: Page, small_catalog: SmallCatalog, maintainer: User
) -> None:
    page = desktop_page
    violations = watch_csp(page)

    response = page.goto("/admin/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator("#id_username").fill(maintainer.email)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Curate the catalog")).to_be_visible()

    page.goto("/admin/catalog/source/")
    expect(page.locator("#result_list")).to_be_visible()
    filters = page.locator("#changelist-filter")
    filters.get_by_role("link", name="Published").first.click()
    expect(page).to_have_url(re.compile(r"status__exact=published"))
    expect(page.locator("#result_list tbody tr")).to_have_count(4)

    page.locator("#result_list").get_by_role("link", name="FlashAttention").click()
    expect(page.get_by_role("heading", name="Change source")).to_be_visible()
    title = page.locator("#id_title")
    title.fill("FlashAttention (revised)")
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    expect(page.locator("#result_list")).to_contain_text("FlashAttention (revised)")

    # The admin's own scripts ran (its theme toggle and the changelist's actions are JS).
    assert page.evaluate("typeof window.django === 'object'")
    assert violations == []


def test_the_watcher_reports_a_violation(desktop_page: Page, small_catalog: SmallCatalog) -> None:
    # Guards the test above: an inline style attribute must show up as a violation.
    violations = watch_csp(desktop_page)
    desktop_page.goto("/")
    desktop_page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')"
    )
    desktop_page.wait_for_timeout(200)
    assert any("style-src" in v for v in violations), violations
