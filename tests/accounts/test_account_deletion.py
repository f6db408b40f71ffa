"""Deleting an account asks for confirmation, then removes the reader and all they kept."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import User
from library.models import Bookmark
from library.services import set_status
from tests.conftest import PASSWORD
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db
DELETE = "/accounts/delete/"


@pytest.fixture
def kept(reader: User, other_reader: User, small_catalog: SmallCatalog) -> SmallCatalog:
    EmailAddress.objects.create(user=reader, email=reader.email, primary=True, verified=True)
    for source in small_catalog["path"]:
        set_status(user=reader, source=source, status="read")
    set_status(user=other_reader, source=small_catalog["flash"], status="reading")
    return small_catalog


def test_get_asks_for_confirmation_and_deletes_nothing(
    client: Client, reader: User, kept: SmallCatalog
) -> None:
    client.force_login(reader)
    html = client.get(DELETE).content.decode()
    assert "Delete your account" in html
    assert "cannot be undone" in html
    assert get_user_model().objects.filter(pk=reader.pk).exists()


def test_without_confirmation_nothing_is_deleted(
    client: Client, reader: User, kept: SmallCatalog
) -> None:
    client.force_login(reader)
    response = client.post(DELETE, {"password": PASSWORD})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    response = client.post(DELETE, {"password": "wrong", "confirm": "on"})
    assert "That is not your password." in response.content.decode()
    assert Bookmark.objects.filter(user=reader).count() == 3


def test_confirmed_deletion_removes_the_reader_and_their_data_only(
    client: Client, reader: User, other_reader: User, kept: SmallCatalog
) -> None:
    client.force_login(reader)
    response = client.post(DELETE, {"password": PASSWORD, "confirm": "on"}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert "Your account, bookmarks and notes are deleted." in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert not get_user_model().objects.filter(email=reader.email).exists()
    assert not EmailAddress.objects.filter(email=reader.email).exists()
    assert list(Bookmark.objects.values_list("user__email", flat=True)) == [other_reader.email]
    # The catalog is untouched.
    assert all(type(s).objects.filter(pk=s.pk).exists() for s in kept["path"])


def test_password_guessing_is_rate_limited(
    client: Client, reader: User, kept: SmallCatalog
) -> None:
    client.force_login(reader)
    codes = [
        client.post(DELETE, {"password": f"guess {n}", "confirm": "on"}).status_code
        for n in range(12)
    ]
    assert 429 in codes
    assert get_user_model().objects.filter(pk=reader.pk).exists()


def test_delete_is_linked_from_the_account_menu(client: Client, reader: User) -> None:
    client.force_login(reader)
    html = client.get("/accounts/password/change/").content.decode()
    assert 'href="/accounts/delete/"' in html
