"""A source listed in two sections of one list: unique ids, and a change shows in both copies."""

from collections import Counter
from collections.abc import Callable

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from accounts.models import User
from catalog.models import ListEntry, ListSection, Source
from catalog.services import LoadReport
from library.models import Bookmark
from tests.hints import present

WAFER = "wafer-gpu-performance"
HX = {"HX-Request": "true"}


def twice_listed(reading_list_slug: str) -> tuple[Source, list[str]]:
    """A source that two sections of the list hold, with those sections' slugs in page order."""
    entries = ListEntry.objects.filter(section__reading_list__slug=reading_list_slug).order_by(
        "section__position", "position"
    )
    counts = Counter(entry.source_id for entry in entries)
    source_id = next(pk for pk, count in counts.items() if count > 1)
    sections = [entry.section.slug for entry in entries if entry.source_id == source_id]
    return present(entries.filter(source_id=source_id).first()).source, sections


def test_every_copy_of_a_control_has_its_own_ids(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    source, sections = twice_listed(WAFER)
    client.force_login(reader)
    html = client.get(f"/lists/{WAFER}/").content.decode()
    for section in sections:
        assert html.count(f'id="bookmark-{source.pk}-in-{section}"') == 1
    # The buttons name their source and status; each section's one form names the section.
    assert html.count(f'value="{source.pk}:read"') == len(sections)
    for section in sections:
        assert html.count(f'name="occurrence" value="{section}"') == 1


def test_each_section_has_one_form_and_each_entry_its_buttons_alone(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    client.force_login(reader)
    html = client.get(f"/lists/{WAFER}/").content.decode()
    sections = ListSection.objects.filter(reading_list__slug=WAFER).count()
    assert html.count('<form class="bookmark-form"') == sections
    assert html.count('name="csrfmiddlewaretoken"') <= sections + 3  # follow, fork, sign out
    assert 'class="bookmark-control compact"' in html and '<form id="bookmark-' not in html


def test_a_change_returns_every_copy_out_of_band(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    source, (first, second, *_) = twice_listed(WAFER)
    client.force_login(reader)
    response = client.post(
        "/library/bookmarks/",
        {
            "choice": f"{source.pk}:reading",
            "next": f"/lists/{WAFER}/",
            "occurrence": second,
            "copies": [first, second],
        },
        headers=HX,
    )
    html = response.content.decode()
    assert response["HX-Trigger"] == "bookmarks-changed"
    # The shared form swaps nothing itself: both copies, the changed one first, out of band.
    assert html.count("data-hx-swap-oob") == 2
    assert html.index(f'id="bookmark-{source.pk}-in-{second}"') < html.index(
        f'id="bookmark-{source.pk}-in-{first}"'
    )
    for section in (first, second):
        assert f'<div id="bookmark-{source.pk}-in-{section}" data-hx-swap-oob="innerHTML">' in html
    assert html.count('aria-pressed="true"') == 2
    assert html.count(f'value="{source.pk}:remove"') == 2
    assert "csrfmiddlewaretoken" not in html  # the form's token stays
    assert Bookmark.objects.get(user=reader, source=source).status == "reading"


def test_without_javascript_a_change_returns_to_the_entry(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    source, (_, second, *_) = twice_listed(WAFER)
    client.force_login(reader)
    response = client.post(
        "/library/bookmarks/",
        {"choice": f"{source.pk}:read", "next": f"/lists/{WAFER}/", "occurrence": second},
    )
    assert response.status_code == 302
    assert response["Location"] == f"/lists/{WAFER}/#bookmark-{source.pk}-in-{second}"
    assert Bookmark.objects.get(user=reader, source=source).status == "read"


@pytest.mark.parametrize("choice", ["", "x:read", "999999:read", "1:eaten"])
def test_a_choice_that_names_no_source_or_status_changes_nothing(
    client: Client, reader: User, full_catalog: LoadReport, choice: str
) -> None:
    client.force_login(reader)
    response = client.post("/library/bookmarks/", {"choice": choice, "next": f"/lists/{WAFER}/"})
    assert response.status_code in (400, 404)
    assert not Bookmark.objects.filter(user=reader).exists()


def test_copies_that_are_not_occurrence_names_are_ignored(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    source, (_, second, *_) = twice_listed(WAFER)
    client.force_login(reader)
    html = client.post(
        "/library/bookmarks/",
        {"choice": f"{source.pk}:read", "occurrence": second, "copies": ['"><script>', second]},
        headers=HX,
    ).content.decode()
    assert "<script>" not in html and html.count("data-hx-swap-oob") == 1


def test_a_single_control_still_answers_in_place(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    source, (first, second, *_) = twice_listed(WAFER)
    client.force_login(reader)
    html = client.post(
        f"/library/bookmarks/{source.slug}/",
        {
            "status": "reading",
            "next": f"/lists/{WAFER}/#bookmark-{source.pk}-in-{second}",
            "occurrence": second,
            "copies": [first, second],
        },
        headers=HX,
    ).content.decode()
    assert html.count("data-hx-swap-oob") == 1
    assert f'value="/lists/{WAFER}/#bookmark-{source.pk}-in-{second}"' in html


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}], ids=["desktop"])
def test_marking_the_second_copy_updates_the_first(
    page: Page, log_in: Callable[[Page, User], None], reader: User, full_catalog: LoadReport
) -> None:
    source, (first, second, *_) = twice_listed(WAFER)
    log_in(page, reader)
    page.goto(f"/lists/{WAFER}/")
    page.evaluate("window.__sameDocument = true")
    first_copy = page.locator(f"#bookmark-{source.pk}-in-{first}")
    second_copy = page.locator(f"#bookmark-{source.pk}-in-{second}")
    expect(first_copy.get_by_role("button", name="Reading", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )

    second_copy.get_by_role("button", name="Reading", exact=True).click()

    for copy in (second_copy, first_copy):
        expect(copy.get_by_role("button", name="Reading", exact=True)).to_have_attribute(
            "aria-pressed", "true"
        )
    assert page.evaluate("window.__sameDocument") is True
    assert Bookmark.objects.get(user=reader, source=source).status == "reading"
    assert page.evaluate("document.querySelectorAll('[id]').length") == page.evaluate(
        "new Set(Array.from(document.querySelectorAll('[id]'), e => e.id)).size"
    )


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}], ids=["desktop"])
def test_keyboard_focus_stays_on_the_pressed_button_and_remove_lands_on_to_read(
    page: Page, log_in: Callable[[Page, User], None], reader: User, full_catalog: LoadReport
) -> None:
    source, (first, *_) = twice_listed(WAFER)
    log_in(page, reader)
    page.goto(f"/lists/{WAFER}/")
    control = page.locator(f"#bookmark-{source.pk}-in-{first}")
    control.get_by_role("button", name="Read", exact=True).focus()
    page.keyboard.press("Enter")
    expect(control.get_by_role("button", name="Read", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(control.get_by_role("button", name="Read", exact=True)).to_be_focused()
    expect(page.locator("#live-status")).to_contain_text("is in your library as Read")

    control.get_by_role("button", name="Remove from your library").focus()
    page.keyboard.press("Enter")
    expect(control.get_by_role("button", name="To read", exact=True)).to_be_focused()
    assert not Bookmark.objects.filter(user=reader, source=source).exists()
