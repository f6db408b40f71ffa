"""Admin: a saved source cannot be deleted (retire it); bookmarks are superusers' to read only."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import User
from catalog.models import Source
from library.models import Bookmark
from library.services import set_status
from tests.hints import SmallCatalog

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(db: None) -> User:
    return get_user_model().objects.create_superuser("root@example.com", "pw-root-123456")


def test_deleting_a_saved_source_is_refused_with_the_way_out(
    client: Client, superuser: User, reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    set_status(user=reader, source=source, status="read")
    set_status(user=other_reader, source=source, status="reading")
    client.force_login(superuser)
    url = f"/admin/catalog/source/{source.pk}/delete/"
    page = client.get(url).content.decode()
    assert "2 bookmarks" in page
    assert "retired, not deleted" in page
    # Whose bookmarks they are is nobody's business here.
    assert reader.email not in page and "reader ·" not in page
    response = client.post(url, {"post": "yes"})
    assert Source.objects.filter(pk=source.pk).exists()
    assert response.status_code in (200, 403)


def test_bulk_delete_action_is_refused_too(
    client: Client, superuser: User, reader: User, small_catalog: SmallCatalog
) -> None:
    source = small_catalog["flash"]
    set_status(user=reader, source=source, status="read")
    client.force_login(superuser)
    response = client.post(
        "/admin/catalog/source/",
        {"action": "delete_selected", "_selected_action": [source.pk], "post": "yes"},
    )
    assert "1 bookmark" in response.content.decode()
    assert Source.objects.filter(pk=source.pk).exists()


def test_superuser_reads_bookmarks_but_cannot_change_them(
    client: Client, superuser: User, reader: User, small_catalog: SmallCatalog
) -> None:
    bookmark = set_status(user=reader, source=small_catalog["flash"], status="read")
    client.force_login(superuser)
    assert client.get("/admin/library/bookmark/").status_code == 200
    change = client.get(f"/admin/library/bookmark/{bookmark.pk}/change/").content.decode()
    assert 'name="status"' not in change
    client.post(f"/admin/library/bookmark/{bookmark.pk}/change/", {"status": "to_read"})
    assert client.get("/admin/library/bookmark/add/").status_code == 403
    assert (
        client.post(f"/admin/library/bookmark/{bookmark.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert Bookmark.objects.get(pk=bookmark.pk).status == "read"


def test_maintainers_do_not_see_readers_bookmarks(
    client: Client, maintainer: User, reader: User, small_catalog: SmallCatalog
) -> None:
    set_status(user=reader, source=small_catalog["flash"], status="read")
    client.force_login(maintainer)
    assert client.get("/admin/library/bookmark/").status_code == 403
    assert "Bookmarks" not in client.get("/admin/").content.decode()
