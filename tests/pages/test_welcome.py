"""A new account is welcomed on the home page, not told that nothing has changed."""

from datetime import timedelta

import pytest
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from catalog.changelog import record_change
from catalog.models import ChangeLogEntry
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db
Kind, Via = ChangeLogEntry.Kind, ChangeLogEntry.Via


def test_a_new_account_is_welcomed_until_the_catalog_changes(
    client: Client,
    reader: User,
    small_catalog: SmallCatalog,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    client.force_login(reader)

    first = client.get("/").content.decode()
    assert "Welcome to readinglist" in first
    assert "Nothing has changed" not in first

    with django_capture_on_commit_callbacks(execute=True):
        record_change(source=small_catalog["flash"], kind=Kind.REVERIFIED, via=Via.LOADER)
    with django_capture_on_commit_callbacks(execute=True):
        news = client.get("/").content.decode()
    assert "Welcome to readinglist" not in news
    assert "What changed since your last visit" in news

    later = client.get("/").content.decode()
    assert "Nothing has changed in the catalog since your last visit." in later


def test_an_older_account_is_told_nothing_changed(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    reader.date_joined -= timedelta(days=2)
    reader.save()
    client.force_login(reader)
    html = client.get("/").content.decode()
    assert "Welcome to readinglist" not in html
    assert "Nothing has changed in the catalog since your last visit." in html


def test_visitors_get_no_welcome(client: Client, small_catalog: SmallCatalog) -> None:
    html = client.get("/").content.decode()
    assert "Welcome to readinglist" not in html
    assert "since your last visit" not in html
