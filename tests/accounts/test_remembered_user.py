"""The signed-in reader's row is remembered beside the session, and never outlives a change."""

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.remembered_user import USER_KEY
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LIBRARY = "/library/"


@pytest.fixture
def session_cache(settings):
    """Sessions in a cache of their own, as with Redis (REDIS_URL)."""
    memory = "django.core.cache.backends.locmem.LocMemCache"
    settings.CACHES = {
        "default": {"BACKEND": memory, "LOCATION": "remembered-default"},
        "pages": {"BACKEND": memory, "LOCATION": "remembered-pages"},
        "sessions": {"BACKEND": memory, "LOCATION": "remembered-sessions"},
    }
    settings.SESSION_CACHE_ALIAS = "sessions"
    settings.CATALOG_PAGE_CACHE = False
    caches["sessions"].clear()
    yield caches["sessions"]
    caches["sessions"].clear()


def user_reads(client, path=LIBRARY):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    reads = [q["sql"] for q in ctx.captured_queries if 'FROM "accounts_user"' in q["sql"]]
    return response, reads


def signed_in_as(client, user):
    client.force_login(user)
    return client


def test_the_second_request_reads_no_user_row(client, session_cache):
    reader = UserFactory()
    signed_in_as(client, reader)
    response, reads = user_reads(client)
    assert response.status_code == 200 and reads
    assert session_cache.get(USER_KEY.format(reader.pk)).pk == reader.pk
    response, reads = user_reads(client)
    assert response.status_code == 200
    assert reads == []
    assert response.wsgi_request.user.pk == reader.pk


def test_deactivating_the_reader_signs_them_out_at_once(client, session_cache):
    reader = UserFactory()
    signed_in_as(client, reader)
    user_reads(client)
    reader.is_active = False
    reader.save()
    assert session_cache.get(USER_KEY.format(reader.pk)) is None
    response, _ = user_reads(client)
    assert response.status_code == 302


def test_a_password_change_elsewhere_signs_this_session_out(client, session_cache):
    reader = UserFactory()
    signed_in_as(client, reader)
    user_reads(client)
    changed = User.objects.get(pk=reader.pk)
    changed.set_password("a new long passphrase for this test")
    changed.save()
    response, _ = user_reads(client)
    assert response.status_code == 302


def test_a_stale_copy_is_not_trusted_when_its_hash_no_longer_matches(client, session_cache):
    reader = UserFactory()
    signed_in_as(client, reader)
    user_reads(client)
    # A copy the signal could not reach (a queryset update): its hash is the old password's.
    User.objects.filter(pk=reader.pk).update(password="argon2$changed-elsewhere")
    session_cache.set(USER_KEY.format(reader.pk), User.objects.get(pk=reader.pk), 60)
    response, _ = user_reads(client)
    assert response.status_code == 302


def test_a_deleted_reader_is_anonymous(client, session_cache):
    reader = UserFactory()
    signed_in_as(client, reader)
    user_reads(client)
    reader.delete()
    response, _ = user_reads(client)
    assert response.status_code == 302


def test_another_readers_copy_is_never_served(client, session_cache):
    reader, other = UserFactory(), UserFactory()
    signed_in_as(client, reader)
    session_cache.set(USER_KEY.format(reader.pk), other, 60)
    response, reads = user_reads(client)
    assert response.wsgi_request.user.pk == reader.pk
    assert reads


def test_without_a_session_cache_nothing_is_remembered(client, settings):
    assert "sessions" not in settings.CACHES
    settings.CATALOG_PAGE_CACHE = False
    reader = UserFactory()
    signed_in_as(client, reader)
    user_reads(client)
    _, reads = user_reads(client)
    assert reads
