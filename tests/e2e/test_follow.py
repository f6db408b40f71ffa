"""A reader follows a topic; a maintainer adds a source there; the reader hears about it on the
home page and in the digest."""

from collections.abc import Callable

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.management import call_command
from playwright.sync_api import Page

from accounts.models import User
from catalog.changelog import record_source_edit
from catalog.models import ChangeLogEntry
from tests.hints import SmallCatalog

from ..factories import SourceFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_follow_a_topic_then_see_the_new_source(
    desktop_page: Page,
    log_in: Callable[[Page, User], None],
    reader: User,
    small_catalog: SmallCatalog,
) -> None:
    EmailAddress.objects.create(user=reader, email=reader.email, verified=True, primary=True)
    page = desktop_page
    log_in(page, reader)
    page.goto("/topics/attention/")
    page.get_by_role("button", name="Follow Attention").click()
    page.wait_for_load_state()
    assert page.get_by_text("You follow Attention.").first.is_visible()

    added = SourceFactory(title="Tree Attention", topics=[small_catalog["topics"][1]])
    record_source_edit(before=None, source=added, via=ChangeLogEntry.Via.ADMIN)

    page.goto("/")
    followed = page.locator("#followed-changes-heading + ol")
    assert followed.get_by_role("link", name="Tree Attention").is_visible()

    call_command("send_digests")
    (digest,) = mail.outbox
    assert digest.to == [reader.email]
    assert "Tree Attention" in digest.body
