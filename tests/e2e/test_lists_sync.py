"""A source listed in two sections of one list: unique ids, and a change shows in both copies."""

from collections import Counter
from collections.abc import Callable

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from accounts.models import User
from catalog.models import ListEntry, Source
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
        assert html.count(f'id="bookmark-{source.pk}-in-{section}-read"') == 1


def test_a_change_returns_the_other_copies_out_of_band(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    source, (first, second, *_) = twice_listed(WAFER)
    client.force_login(reader)
    response = client.post(
        f"/library/bookmarks/{source.slug}/",
        {
            "status": "reading",
            "next": f"/lists/{WAFER}/#bookmark-{source.pk}-in-{second}",
            "occurrence": second,
            "copies": [first, second],
        },
        headers=HX,
    )
    html = response.content.decode()
    assert html.count("data-hx-swap-oob") == 1
    assert f'<div id="bookmark-{source.pk}-in-{first}" data-hx-swap-oob="innerHTML">' in html
    # Each copy shows the new status under its own ids and returns to its own anchor.
    for section in (first, second):
        assert f'id="bookmark-{source.pk}-in-{section}-reading"' in html
        assert f'value="/lists/{WAFER}/#bookmark-{source.pk}-in-{section}"' in html
    assert html.count('aria-pressed="true"') == 2


def test_copies_that_are_not_occurrence_names_are_ignored(
    client: Client, reader: User, full_catalog: LoadReport
) -> None:
    source, (_, second, *_) = twice_listed(WAFER)
    client.force_login(reader)
    html = client.post(
        f"/library/bookmarks/{source.slug}/",
        {"status": "read", "occurrence": second, "copies": ['"><script>', second]},
        headers=HX,
    ).content.decode()
    assert "<script>" not in html and "data-hx-swap-oob" not in html


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
