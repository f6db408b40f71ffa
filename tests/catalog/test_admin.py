import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from tests.hints import SmallCatalog, present

pytestmark = pytest.mark.django_db

ADMIN_PAGES = [
    "/admin/",
    "/admin/catalog/source/",
    "/admin/catalog/source/?tier__id__exact=1&has_url=no",
    "/admin/catalog/source/add/",
    "/admin/catalog/topic/",
    "/admin/catalog/tier/",
    "/admin/catalog/readinglist/",
    "/admin/catalog/listsection/",
]


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_admin_pages_load_for_a_maintainer(
    client: Client, maintainer: User, small_catalog: SmallCatalog, url: str
) -> None:
    client.force_login(maintainer)
    assert client.get(url).status_code == 200


def test_admin_change_pages_load(
    client: Client, maintainer: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(maintainer)
    flash = small_catalog["flash"]
    section = present(flash.entries.first()).section
    for url in [
        f"/admin/catalog/source/{flash.pk}/change/",
        f"/admin/catalog/listsection/{section.pk}/change/",
        f"/admin/catalog/readinglist/{section.reading_list.pk}/change/",
    ]:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_admin_is_refused_to_readers(client: Client, reader: User, url: str) -> None:
    client.force_login(reader)
    response = client.get(url)
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_maintainers_group_can_curate_but_not_delete_sources(maintainer: User) -> None:
    group = Group.objects.get(name="Maintainers")
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"change_source", "add_source", "change_topic", "change_listentry"} <= codenames
    assert "delete_source" not in codenames
    assert maintainer.has_perm("catalog.change_source")
    assert not maintainer.has_perm("catalog.delete_source")


def test_create_maintainer_promotes_existing_user(reader: User) -> None:
    call_command("create_maintainer", reader.email, verbosity=0)
    reader.refresh_from_db()
    assert reader.is_staff
    assert reader.groups.filter(name="Maintainers").exists()


def test_create_maintainer_rejects_bad_email(db: None) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="not a valid email"):
        call_command("create_maintainer", "not-an-email")
