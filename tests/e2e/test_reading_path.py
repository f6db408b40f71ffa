"""A newcomer signs up, builds a reading queue along the Start-here path and follows progress."""

import re
from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect
from pytest_django import Settings

from accounts.models import User
from catalog.lists import path_entries
from catalog.models import Source
from catalog.services import LoadReport
from library.models import Bookmark
from tests.conftest import PASSWORD
from tests.hints import SmallCatalog


def card(page: Page, source: Source) -> Locator:
    return page.locator(f"article.source-card:has(#src-{source.pk})")


def control_button(page: Page, source: Source, name: str) -> Locator:
    return card(page, source).get_by_role("button", name=name, exact=True)


def sign_up(page: Page, email: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=False).first.fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("link", name="My library")).to_be_visible()


def test_sign_up_build_a_queue_and_follow_the_path(
    page: Page, full_catalog: LoadReport, settings: Settings
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    steps = [entry.source for entry in path_entries()]
    assert len(steps) == 8
    sign_up(page, "newcomer@example.com")

    page.goto("/tiers/start-here/")
    progress = page.locator("#path-progress")
    expect(progress).to_contain_text("0 of 8 read")
    # The page is not reloaded by the controls: a marker on window survives every click.
    page.evaluate("window.__sameDocument = true")

    for source in steps[:3]:
        control_button(page, source, "To read").click()
        expect(control_button(page, source, "To read")).to_have_attribute("aria-pressed", "true")

    read = control_button(page, steps[0], "Read")
    read.click()
    expect(read).to_have_attribute("aria-pressed", "true")
    expect(progress).to_contain_text("1 of 8 read")
    expect(progress.get_by_role("link", name=steps[1].title)).to_be_visible()
    expect(page.locator("#path-steps li.path-step").first).to_have_class(re.compile("is-read"))
    expect(page.locator("progress").first).to_have_attribute("value", "1")
    assert page.evaluate("window.__sameDocument") is True

    page.reload()
    expect(page.locator("#path-progress")).to_contain_text("1 of 8 read")
    expect(page.locator("#path-progress").get_by_role("link", name=steps[1].title)).to_be_visible()
    expect(control_button(page, steps[0], "Read")).to_have_attribute("aria-pressed", "true")
    for source in steps[1:3]:
        expect(control_button(page, source, "To read")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#path-steps li.path-step.is-read")).to_have_count(1)

    page.get_by_role("link", name="My library").click()
    expect(page.locator("#group-to_read")).to_contain_text("2")
    expect(page.get_by_role("region", name="Recently finished")).to_contain_text(steps[0].title)

    statuses = dict(
        Bookmark.objects.filter(user__email="newcomer@example.com").values_list(
            "source_id", "status"
        )
    )
    assert statuses == {steps[0].pk: "read", steps[1].pk: "to_read", steps[2].pk: "to_read"}


def test_focus_stays_on_the_control_after_a_keyboard_toggle(
    page: Page, reader: User, small_catalog: SmallCatalog, log_in: Callable[[Page, User], None]
) -> None:
    log_in(page, reader)
    flash = small_catalog["flash"]
    page.goto("/sources/")
    button = control_button(page, flash, "Reading")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(control_button(page, flash, "Reading")).to_be_focused()

    page.keyboard.press("Tab")
    expect(control_button(page, flash, "Read")).to_be_focused()
    page.keyboard.press("Space")
    expect(control_button(page, flash, "Read")).to_have_attribute("aria-pressed", "true")
    expect(control_button(page, flash, "Read")).to_be_focused()

    remove = card(page, flash).get_by_role("button", name="Remove from your library")
    remove.focus()
    page.keyboard.press("Enter")
    expect(card(page, flash).get_by_role("button", name="Remove from your library")).to_have_count(
        0
    )
    expect(control_button(page, flash, "To read")).to_be_focused()
    assert not Bookmark.objects.filter(user=reader).exists()


def test_anonymous_save_logs_in_and_comes_back_with_it_done(
    page: Page, reader: User, small_catalog: SmallCatalog
) -> None:
    flash = small_catalog["flash"]
    page.goto("/topics/attention/")
    expect(card(page, flash).get_by_role("button")).to_have_count(1)
    card(page, flash).get_by_role("button", name="Save").click()
    # The way back names the card's anchor (its "#", encoded), so login returns to the card.
    expect(page).to_have_url(
        re.compile(rf"/accounts/login/\?next=%2Ftopics%2Fattention%2F%23src-{flash.pk}$")
    )
    page.get_by_label("Email").fill(reader.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(rf"/topics/attention/#src-{flash.pk}$"))
    expect(card(page, flash)).to_be_in_viewport()
    expect(page.get_by_text("Saved “FlashAttention” as To read.")).to_be_visible()
    expect(control_button(page, flash, "To read")).to_have_attribute("aria-pressed", "true")


def test_library_filters_without_reload_and_keep_the_url(
    page: Page, reader: User, small_catalog: SmallCatalog, log_in: Callable[[Page, User], None]
) -> None:
    from library.services import set_status

    for source in small_catalog["path"]:
        set_status(user=reader, source=source, status="to_read")
    set_status(user=reader, source=small_catalog["flash"], status="reading")
    log_in(page, reader)
    page.goto("/library/")
    page.evaluate("window.__sameDocument = true")
    page.get_by_label("Tier").select_option("core")
    expect(page).to_have_url(re.compile(r"tier=core"))
    expect(page.locator("#library-results h3.card-title")).to_have_text(["FlashAttention"])
    assert page.evaluate("window.__sameDocument") is True

    control_button(page, small_catalog["flash"], "Read").click()
    expect(page.locator("#library-counts")).to_contain_text(re.compile(r"Read\s*1"))
