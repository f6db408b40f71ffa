"""Signed-in readers' pages are kept per reader, and dropped by any change they could show.

Writes replace the cache's versions after commit. Test transactions never commit, so the tests
run the commit hooks themselves (`with commits():`), as production's autocommit would at the end
of each write; one test runs outside a test transaction altogether.
"""

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Protocol

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group, Permission
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import csp, timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from catalog.changelog import record_change
from catalog.models import ChangeLogEntry, ChangeLogSeen, Source
from library.models import Bookmark
from library.services import remove_bookmark, set_status
from notes.models import Note
from readinglist.pagecache import splice
from readinglist.pagecache.store import process_pages
from readinglist.pagecache.versions import (
    READER_VERSION_KEY,
    READERS_EPOCH_KEY,
    TEAM_VERSION_KEY,
    TEAMS_VERSION_KEY,
    VERSION_KEY,
    page_versions,
)
from teams.models import Team
from tests.factories import NoteFactory, join_team
from tests.hints import Response, SmallCatalog, found, present

from .controls import pressed

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
SOURCE = "/sources/flashattention/"
# Every reader page (views declaring page_cache(reader=True)) at one of its URLs.
READER_PAGES = [
    "/",
    "/sources/",
    "/sources/?q=FlashAttention",
    SOURCE,
    "/topics/attention/",
    "/tiers/start-here/",
    "/lists/wafer/",
    "/library/",
    "/library/notes/",
]


# `with commits(): ...`: the commit hooks of the writes inside run at the end.
Commits = Callable[[], AbstractContextManager[object]]


class Watch(Protocol):
    """`with watch(user) as seen:`; seen() is then the version keys the writes replaced."""

    def __call__(self, user: User = ...) -> AbstractContextManager[Callable[[], set[str]]]: ...


@pytest.fixture
def commits(django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks) -> Commits:
    """`with commits(): ...` runs the commit hooks of the writes inside, as a commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def catalog(
    small_catalog: SmallCatalog, reader: User, other_reader: User, commits: Commits
) -> SmallCatalog:
    with commits():
        reader.display_name = "Alice Reader"
        reader.save()
        other_reader.display_name = "Bob Teammate"
        other_reader.save()
    return small_catalog


@pytest.fixture
def alice(client: Client, reader: User, catalog: SmallCatalog) -> Client:
    client.force_login(reader)
    return client


@pytest.fixture
def bob(other_reader: User, catalog: SmallCatalog) -> Client:
    client = Client()
    client.force_login(other_reader)
    return client


def get(client: Client, url: str, **headers: str) -> Response:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return response


def html(response: Response) -> str:
    return response.content.decode()


def account(response: Response) -> str:
    return found(re.search(r'title="Your account">([^<]+)</a>', html(response))).group(1)


def state(response: Response, source: Source) -> list[str]:
    return pressed(html(response), source)


def without_slots(content: bytes) -> bytes:
    return re.sub(rb'("x-csrftoken": "|nonce="|value=")[^"]*"', b"", content)


@pytest.mark.parametrize("url", READER_PAGES)
def test_a_readers_second_visit_is_served_from_their_cache(alice: Client, url: str) -> None:
    first = get(alice, url)
    assert first["X-Page-Cache"] == "miss"
    with CaptureQueriesContext(connection) as queries:
        second = get(alice, url)
    assert second["X-Page-Cache"] == "hit"
    assert without_slots(second.content) == without_slots(first.content)
    assert account(second) == "Alice Reader"
    # No render and not even the user row: the session names the reader (see the next test).
    assert len(queries.captured_queries) <= 3
    assert not [q for q in queries.captured_queries if re.search(r"catalog_|accounts_", q["sql"])]


def test_a_session_that_no_longer_authenticates_gets_no_cached_page(
    alice: Client, reader: User, commits: Commits
) -> None:
    elsewhere = Client()
    elsewhere.force_login(reader)
    for client in (alice, elsewhere):
        get(client, "/library/")
    assert get(elsewhere, "/library/")["X-Page-Cache"] == "hit"
    # The reader changes their password in the first browser (which stays signed in): the
    # other session's auth hash is now wrong.
    with commits():
        reader.set_password("a-new-password-9876")
        reader.save()
    page = elsewhere.get("/library/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    assert "_auth_user_id" not in elsewhere.session


def test_another_reader_never_gets_a_readers_page(
    alice: Client, bob: Client, reader: User, catalog: SmallCatalog
) -> None:
    flash = catalog["flash"]
    set_status(user=reader, source=flash, status="read")
    NoteFactory(user=reader, source=flash, body="Alice's own thoughts")
    for url in (SOURCE, "/library/", "/library/notes/"):
        get(alice, url)
        assert get(alice, url)["X-Page-Cache"] == "hit"
    page = get(alice, SOURCE)
    assert state(page, flash) == ["read"] and "Alice's own thoughts" in html(page)

    for url in (SOURCE, "/library/", "/library/notes/"):
        theirs = get(bob, url)
        assert theirs["X-Page-Cache"] == "miss"
        # Bob's own account link (Alice's name shows on the source page only as a teammate's).
        assert account(theirs) == "Bob Teammate"
        assert "Alice's own thoughts" not in html(theirs)
        assert flash.title not in html(theirs) or url == SOURCE
        again = get(bob, url)
        assert again["X-Page-Cache"] == "hit" and "Alice's own thoughts" not in html(again)
    assert state(get(bob, SOURCE), flash) == []
    # Each keeps their own entry: Bob's visits did not replace Alice's.
    for url in (SOURCE, "/library/", "/library/notes/"):
        mine = get(alice, url)
        assert mine["X-Page-Cache"] == "hit" and account(mine) == "Alice Reader"


def test_a_bookmark_click_shows_on_the_readers_next_page(
    alice: Client, catalog: SmallCatalog, commits: Commits
) -> None:
    flash = catalog["flash"]
    pages = ["/sources/?q=FlashAttention", SOURCE, "/lists/wafer/", "/library/"]
    for url in pages:
        get(alice, url)
        assert get(alice, url)["X-Page-Cache"] == "hit"
        assert state(get(alice, url), flash) == []
    with commits():
        clicked = alice.post(f"/library/bookmarks/{flash.slug}/", {"status": "reading"}, headers=HX)
    assert clicked.status_code == 200
    for url in pages:
        page = get(alice, url)
        assert page["X-Page-Cache"] == "miss"
        assert state(page, flash) == ["reading"], url
        assert state(get(alice, url), flash) == ["reading"], url


def test_a_teammates_team_note_and_progress_show_on_the_next_request(
    alice: Client, bob: Client, catalog: SmallCatalog, commits: Commits
) -> None:
    flash = catalog["flash"]
    for url in (SOURCE, "/lists/wafer/"):
        get(alice, url)
        assert get(alice, url)["X-Page-Cache"] == "hit"
    with commits():
        bob.post(
            f"{SOURCE}notes/new/",
            {"body": "Read section 3 first.", "visibility": "readers"},
            headers=HX,
        )
    page = html(get(alice, SOURCE))
    assert "Read section 3 first." in page and "Bob Teammate" in page
    with commits():
        bob.post(f"/library/bookmarks/{flash.slug}/", {"status": "read"}, headers=HX)
    page = html(get(alice, SOURCE))
    assert re.search(r"1 teammate read it:</strong> Bob Teammate", page)
    assert "Readers: 1 teammate finished" in html(get(alice, "/lists/wafer/"))


def test_a_teammates_private_note_never_shows(
    alice: Client, bob: Client, catalog: SmallCatalog, commits: Commits
) -> None:
    get(alice, SOURCE)
    with commits():
        bob.post(
            f"{SOURCE}notes/new/", {"body": "Only for me.", "visibility": "private"}, headers=HX
        )
    assert Note.objects.filter(body="Only for me.").exists()
    assert "Only for me." not in html(get(alice, SOURCE))
    cache.clear()
    process_pages.clear()
    fresh = get(alice, SOURCE)
    assert fresh["X-Page-Cache"] == "miss" and "Only for me." not in html(fresh)
    assert "Only for me." in html(get(bob, SOURCE))


def test_a_maintainers_edit_shows_on_every_reader_page(
    alice: Client, reader: User, catalog: SmallCatalog, commits: Commits
) -> None:
    flash = catalog["flash"]
    set_status(user=reader, source=flash, status="to_read")
    NoteFactory(user=reader, source=flash, body="Worth it.")
    pages = [SOURCE, "/sources/", "/lists/wafer/", "/library/", "/library/notes/"]
    for url in pages:
        get(alice, url)
        assert get(alice, url)["X-Page-Cache"] == "hit"
    with commits():
        source = Source.objects.get(pk=flash.pk)
        source.title = "FlashAttention, the IO-aware paper"
        source.save()
    for url in pages:
        assert "FlashAttention, the IO-aware paper" in html(get(alice, url)), url


def test_after_logging_out_the_same_url_is_not_the_readers_page(
    alice: Client, commits: Commits
) -> None:
    for url in ("/", SOURCE):
        get(alice, url)
        assert get(alice, url)["X-Page-Cache"] == "hit"
    with commits():
        alice.post("/accounts/logout/")
    for url in ("/", SOURCE, "/", SOURCE):
        page = get(alice, url)
        assert "Alice Reader" not in html(page) and "Log in" in html(page)
        assert not re.search(r'aria-label="Your progress', html(page))


def test_flash_messages_are_never_cached(
    alice: Client, catalog: SmallCatalog, commits: Commits
) -> None:
    get(alice, SOURCE)
    assert get(alice, SOURCE)["X-Page-Cache"] == "hit"
    with commits():
        saved = alice.post(
            f"/library/bookmarks/{catalog['flash'].slug}/", {"status": "read", "next": SOURCE}
        )
    assert saved["Location"] == SOURCE
    message = "Saved “FlashAttention” as Read."
    shown = get(alice, SOURCE)
    assert message in html(shown) and shown.get("X-Page-Cache") != "hit"
    after = get(alice, SOURCE)
    assert message not in html(after) and after["X-Page-Cache"] == "miss"
    hit = get(alice, SOURCE)
    assert hit["X-Page-Cache"] == "hit" and message not in html(hit)
    assert state(hit, catalog["flash"]) == ["read"]
    # A message waiting with no data change behind it (the page itself is still cached).
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(constants.INFO, "A word from the team.")
    response = HttpResponse()
    storage.update(response)
    alice.cookies.update(response.cookies)
    waiting = get(alice, SOURCE)
    assert "A word from the team." in html(waiting) and waiting.get("X-Page-Cache") != "hit"
    assert "A word from the team." not in html(get(alice, SOURCE))


def test_a_bulk_change_shows_on_the_next_page(
    alice: Client, bob: Client, reader: User, catalog: SmallCatalog, commits: Commits
) -> None:
    path = catalog["path"]
    bookmarks = [set_status(user=reader, source=s, status="to_read") for s in path]
    for client, url in ((alice, "/library/"), (bob, "/lists/wafer/")):
        get(client, url)
        assert get(client, url)["X-Page-Cache"] == "hit"
    with commits():
        done = alice.post(
            "/library/bulk/", {"action": "read", "bookmarks": [b.pk for b in bookmarks]}
        )
    assert done.status_code == 302
    get(alice, "/library/")  # shows the message
    library = get(alice, "/library/")
    assert library["X-Page-Cache"] == "miss"
    assert all(state(library, source) == ["read"] for source in path)
    # Bulk updates send no signals: the team's pages are dropped as well.
    assert html(get(bob, "/lists/wafer/")).count("Readers: 1 teammate finished") == 3


@pytest.mark.django_db(transaction=True)
def test_changes_since_the_last_visit_show_once(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    """Outside a test transaction: every write commits and replaces the versions at once."""
    reader.date_joined = timezone.now() - timedelta(days=30)
    reader.save()
    client.force_login(reader)
    nothing = "Nothing has changed in the catalog since your last visit."
    assert nothing in html(get(client, "/"))
    assert get(client, "/")["X-Page-Cache"] == "hit"
    # A maintainer changes the catalog.
    source = Source.objects.get(slug="roofline")
    source.summary = "Now with a worked example."
    source.save()
    record_change(
        source=source, kind=ChangeLogEntry.Kind.UPDATED, detail="Changed summary.", via="admin"
    )
    news = get(client, "/")
    assert news["X-Page-Cache"] == "miss" and "Changed summary." in html(news)
    assert ChangeLogSeen.objects.filter(user=reader).exists()
    # Seen: the next visit must not announce it again, from the cache or otherwise.
    again = get(client, "/")
    assert "Changed summary." not in html(again) and nothing in html(again)
    later = get(client, "/")
    assert later["X-Page-Cache"] == "hit" and "Changed summary." not in html(later)


def test_the_csrf_token_in_a_cached_page_is_the_visitors(
    reader: User, catalog: SmallCatalog
) -> None:
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.force_login(reader)
    second.force_login(reader)  # the same reader in another browser
    get(first, SOURCE)
    hit = get(second, SOURCE)
    assert hit["X-Page-Cache"] == "hit"
    tokens = set(
        re.findall(r'(?:"x-csrftoken": "|name="csrfmiddlewaretoken" value=")([^"]+)"', html(hit))
    )
    assert len(tokens) == 1
    token = tokens.pop()
    own = found(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html(get(first, SOURCE))))
    assert own.group(1) != token
    response = second.post(
        f"/library/bookmarks/{catalog['flash'].slug}/",
        {"status": "read", "csrfmiddlewaretoken": token},
        headers=HX,
    )
    assert response.status_code == 200
    assert Bookmark.objects.get(user=reader).status == "read"


def test_a_page_offering_to_undo_a_deletion_is_not_kept(
    alice: Client, reader: User, catalog: SmallCatalog, commits: Commits
) -> None:
    note = NoteFactory(user=reader, source=catalog["flash"], body="Changed my mind.")
    get(alice, SOURCE)
    with commits():
        alice.post(f"/notes/{note.pk}/delete/", headers=HX)
    for _ in range(2):
        page = get(alice, SOURCE)
        assert "Note deleted." in html(page) and page["X-Page-Cache"] == "miss"
    # The undo window passes (no write marks it).
    Note.objects.filter(pk=note.pk).update(deleted_at=timezone.now() - timedelta(seconds=30))
    assert "Note deleted." not in html(get(alice, SOURCE))


def test_htmx_fragments_are_kept_apart_by_their_target(alice: Client) -> None:
    counts = get(alice, "/library/", **HX, **{"HX-Target": "library-counts"})
    results = get(alice, "/library/", **HX, **{"HX-Target": "library-results"})
    assert results["X-Page-Cache"] == "miss"
    assert 'id="library-results"' in html(results) and 'id="library-results"' not in html(counts)
    full = get(alice, "/library/")
    assert full["X-Page-Cache"] == "miss" and html(full).count("<html") == 1
    again = get(alice, "/library/", **HX, **{"HX-Target": "library-counts"})
    assert again["X-Page-Cache"] == "hit" and 'id="library-results"' not in html(again)


def test_the_switch_turns_the_reader_cache_off(alice: Client, settings: Settings) -> None:
    settings.CATALOG_PAGE_CACHE = False
    get(alice, "/")
    assert "X-Page-Cache" not in get(alice, "/")


# Which writes replace which versions.


@pytest.fixture(autouse=True)
def _teammates(reader: User, other_reader: User) -> None:
    """Alice and Bob are teammates: both in the team "Readers"."""
    join_team(reader, other_reader)


def team_key() -> str:
    return TEAMS_VERSION_KEY.format(Team.objects.get(slug="readers").pk)


def versions(user: User) -> dict[str, str]:
    keys = [
        VERSION_KEY,
        READERS_EPOCH_KEY,
        READER_VERSION_KEY.format(user.pk),
        TEAM_VERSION_KEY,
        team_key(),
    ]
    # As a page reads them: missing ones are created.
    return dict(zip(keys, present(page_versions(keys))[1:], strict=True))


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {key for key in before if before[key] != after[key]}


@pytest.fixture
def watch(reader: User, commits: Commits) -> Watch:
    """`with watch() as seen: ...`; then seen() is the set of version keys the writes replaced."""
    from contextlib import contextmanager

    @contextmanager
    def watching(user: User = reader) -> Iterator[Callable[[], set[str]]]:
        before = versions(user)
        result: dict[str, set[str]] = {}
        with commits():
            yield lambda: result["changed"]
        result["changed"] = changed(before, versions(user))

    return watching


def reader_key(user: User) -> str:
    return READER_VERSION_KEY.format(user.pk)


def test_signing_in_changes_the_readers_pages_only(
    reader: User, watch: Watch, client: Client
) -> None:
    with watch() as seen:
        client.force_login(reader)  # writes last_login
    assert seen() == {reader_key(reader)}


def test_a_new_display_name_changes_the_teams_pages(reader: User, watch: Watch) -> None:
    with watch() as seen:
        reader.display_name = "Renamed"
        reader.save()
    assert seen() == {reader_key(reader), team_key()}


def test_a_private_note_changes_its_authors_pages_only(
    reader: User, other_reader: User, watch: Watch, catalog: SmallCatalog
) -> None:
    with watch(other_reader) as seen:
        note = NoteFactory(user=reader, source=catalog["flash"], visibility="private")
    assert seen() == set()
    with watch() as seen:
        NoteFactory(user=reader, source=catalog["flash"], visibility="private")
    assert seen() == {reader_key(reader)}
    # Saving a note that was never shared concerns no team.
    with watch(other_reader) as seen:
        note.save()
    assert seen() == set()
    # An edit that takes a team note private: its team's pages go too.
    shared = NoteFactory(user=reader, source=catalog["flash"], visibility="team")
    shared = Note.objects.get(pk=shared.pk)
    with watch(other_reader) as seen:
        shared.visibility, shared.team = "private", None
        shared.save()
    assert seen() == {team_key()}


def test_team_notes_and_bookmarks_change_the_teams_pages(
    reader: User, other_reader: User, watch: Watch, catalog: SmallCatalog
) -> None:
    with watch(other_reader) as seen:
        NoteFactory(user=reader, source=catalog["flash"], visibility="team")
    assert seen() == {team_key()}
    with watch(other_reader) as seen:
        set_status(user=reader, source=catalog["flash"], status="read")
    assert seen() == {team_key()}
    with watch() as seen:
        Bookmark.objects.get(user=reader).delete()
    assert seen() == {reader_key(reader), team_key()}


def test_one_statement_bookmark_writes_change_the_readers_and_teams_pages(
    reader: User, other_reader: User, watch: Watch, catalog: SmallCatalog
) -> None:
    """set_status and remove_bookmark send no signal: they bump the same versions themselves."""
    with watch() as seen:
        set_status(user=reader, source=catalog["flash"], status="reading")
    assert seen() == {reader_key(reader), team_key()}
    with watch() as seen:
        set_status(user=reader, source=catalog["flash"], status="reading")
    assert seen() == set()  # nothing changed
    with watch(other_reader) as seen:
        assert remove_bookmark(user=reader, source=catalog["flash"])
    assert seen() == {team_key()}
    with watch() as seen:
        assert not remove_bookmark(user=reader, source=catalog["flash"])
    assert seen() == set()


def membership_lookups(queries: list[dict[str, str]]) -> list[dict[str, str]]:
    return [q for q in queries if q["sql"].startswith('SELECT "teams_membership"."team_id"')]


def test_a_readers_team_ids_outlive_their_writes_but_not_their_memberships(
    alice: Client, reader: User, catalog: SmallCatalog, commits: Commits
) -> None:
    """The team ids a page is keyed by are read from the database once: neither the reader's
    bookmark (its bump included) nor their next page asks again, until a membership changes."""
    get(alice, SOURCE)
    with CaptureQueriesContext(connection) as ctx, commits():
        alice.post(f"/library/bookmarks/{catalog['flash'].slug}/", {"status": "read"}, headers=HX)
    assert membership_lookups(ctx.captured_queries) == []
    with CaptureQueriesContext(connection) as ctx:
        assert get(alice, SOURCE)["X-Page-Cache"] == "miss"
    assert membership_lookups(ctx.captured_queries) == []
    with commits():
        join_team(reader, slug="kernels")
    with CaptureQueriesContext(connection) as ctx:
        page = html(get(alice, SOURCE))
    assert len(membership_lookups(ctx.captured_queries)) == 1
    assert "Kernels (its members, with your name)" in page


def test_email_addresses_and_groups_change_their_readers_pages(
    reader: User, other_reader: User, watch: Watch
) -> None:
    with watch() as seen:
        EmailAddress.objects.create(user=reader, email="alice@example.org")
    assert seen() == {reader_key(reader), team_key()}
    group = Group.objects.create(name="curators")
    with watch() as seen:
        reader.groups.add(group)
    assert seen() == {reader_key(reader)}
    with watch(other_reader) as seen:
        group.user_set.add(other_reader)
    assert seen() == {reader_key(other_reader)}


def test_a_change_with_no_single_owner_changes_every_readers_pages(
    reader: User, watch: Watch
) -> None:
    group = Group.objects.create(name="curators")
    with watch() as seen:
        group.permissions.add(Permission.objects.get(codename="view_source"))
    assert seen() == {READERS_EPOCH_KEY, TEAM_VERSION_KEY}
    with watch() as seen:
        Group.objects.create(name="editors")
    assert seen() == {READERS_EPOCH_KEY, TEAM_VERSION_KEY}


def test_sessions_change_no_page(reader: User, watch: Watch, client: Client) -> None:
    client.force_login(reader)
    with watch() as seen:
        session = Session.objects.get()
        session.save()
    assert seen() == set()


def test_versions_change_only_after_commit(
    reader: User,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    catalog: SmallCatalog,
) -> None:
    before = versions(reader)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        set_status(user=reader, source=catalog["flash"], status="read")
    assert versions(reader) == before
    for callback in callbacks:
        callback()
    assert changed(before, versions(reader)) == {reader_key(reader), team_key()}


def test_versions_are_read_before_the_readers_own_row(alice: Client) -> None:
    """The home page shows the changes since the reader last saw them: the user row and that
    moment, like every other row a page shows, are read after the versions they are stored
    under."""
    with CaptureQueriesContext(connection) as queries:
        assert get(alice, "/")["X-Page-Cache"] == "miss"
    sql = [q["sql"] for q in queries.captured_queries]
    versions_read = next(i for i, q in enumerate(sql) if "catalog:version" in q)
    user_read = next(i for i, q in enumerate(sql) if 'FROM "accounts_user"' in q)
    seen_read = next(i for i, q in enumerate(sql) if 'FROM "catalog_changelogseen"' in q)
    assert versions_read < user_read < seen_read


def test_reader_text_that_looks_like_a_slot_renders_the_same_on_a_hit(
    alice: Client,
    bob: Client,
    reader: User,
    catalog: SmallCatalog,
    commits: Commits,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Placeholders come from the template alone: a team note quoting the markup around the
    per-visitor values, or the placeholder itself, is text on a hit exactly as on a miss."""
    placeholders = f"{splice.CSRF_PLACEHOLDER} {splice.NONCE_PLACEHOLDER}"
    if connection.vendor == "postgresql":  # its text columns refuse NUL: the rest of it, then
        placeholders = placeholders.replace("\x00", "")
    body = f'Ends with nonce=" and name="csrfmiddlewaretoken" value="x" {placeholders} nonce="'
    with commits():
        NoteFactory(user=reader, source=catalog["flash"], visibility="team", body=body)
    monkeypatch.setattr(splice, "get_token", lambda request: "T" * 64)
    monkeypatch.setattr(csp, "generate_nonce", lambda: "the-nonce")
    process_pages.clear()
    miss = get(bob, SOURCE)
    hit = get(bob, SOURCE)
    assert (miss["X-Page-Cache"], hit["X-Page-Cache"]) == ("miss", "hit")
    assert hit.content == miss.content
    assert 'Ends with nonce=" and name="csrfmiddlewaretoken" value="x" ' in html(hit)
    # No placeholder left: at most the note's own text (which sanitising may drop).
    assert html(hit).count(":csrf") <= 1 and html(hit).count(":nonce") <= 1
    assert html(hit).count('nonce="the-nonce"') >= 1
    assert "'nonce-the-nonce'" in hit["Content-Security-Policy"]
