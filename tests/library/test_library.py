"""/library/: grouped, counted, filtered, sorted, searched, bulk-changed; the reader's own only."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from library.models import Bookmark
from library.services import set_status
from tests.factories import ListEntryFactory, ListSectionFactory, SourceFactory, TopicFactory
from tests.hints import SmallCatalog, Tiers, present

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
LIBRARY = "/library/"


def titles(html: str) -> list[str]:
    return re.findall(r'<h3 class="card-title"[^>]*><a [^>]*>([^<]+)</a>', html)


def group_titles(html: str, status: str) -> list[str]:
    start = html.index(f'id="group-{status}"')
    end = html.find('class="library-group"', start)
    return titles(html[start : end if end != -1 else len(html)])


@pytest.fixture
def library(reader: User, other_reader: User, small_catalog: SmallCatalog) -> SmallCatalog:
    scaling, attention, roofline = small_catalog["path"]
    flash = small_catalog["flash"]
    set_status(user=reader, source=scaling, status="read")
    set_status(user=reader, source=attention, status="reading")
    set_status(user=reader, source=roofline, status="to_read")
    set_status(user=reader, source=flash, status="to_read")
    secret = SourceFactory(title="Only the other reader saved this")
    set_status(user=other_reader, source=secret, status="read")
    set_status(user=other_reader, source=flash, status="read")
    return small_catalog


def test_anonymous_is_sent_to_log_in(client: Client) -> None:
    response = client.get(LIBRARY)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/library/"


def test_a_filter_after_the_session_ended_sends_the_whole_page_to_log_in(client: Client) -> None:
    """An HTMX filter request must not swap the login page into the results."""
    response = client.get(
        f"{LIBRARY}?status=read",
        headers={"HX-Request": "true", "HX-Current-URL": "http://testserver/library/?q=kernels"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=%2Flibrary%2F%3Fq%3Dkernels"


def test_groups_with_counts_and_only_the_readers_sources(
    client: Client, reader: User, library: SmallCatalog
) -> None:
    client.force_login(reader)
    html = client.get(LIBRARY).content.decode()
    assert "Only the other reader saved this" not in html
    assert group_titles(html, "reading") == ["Attention Is All You Need"]
    assert group_titles(html, "read") == ["How to Scale Your Model"]
    assert sorted(group_titles(html, "to_read")) == ["FlashAttention", "Roofline"]
    assert re.search(r"All <span class=\"count\">4</span>", html)
    assert re.search(r"To read <span class=\"count\">2</span>", html)
    # Currently reading and recently finished come first.
    assert (
        html.index("Currently reading")
        < html.index("Recently finished")
        < html.index('id="group-reading"')
    )


def test_other_reader_sees_their_own_library(
    client: Client, other_reader: User, library: SmallCatalog
) -> None:
    client.force_login(other_reader)
    html = client.get(LIBRARY).content.decode()
    assert set(titles(html)) == {"Only the other reader saved this", "FlashAttention"}


@pytest.mark.parametrize(
    "query, expected",
    [
        ("status=to_read", {"FlashAttention", "Roofline"}),
        ("topic=attention", {"FlashAttention", "Attention Is All You Need"}),
        ("topic=kernels", {"FlashAttention", "Attention Is All You Need", "Roofline"}),
        ("tier=core", {"FlashAttention"}),
        (
            "list=wafer",
            {"FlashAttention", "Attention Is All You Need", "Roofline", "How to Scale Your Model"},
        ),
        ("q=dao", {"FlashAttention"}),
        ("q=io-aware", {"FlashAttention"}),
        ("q=SCALE", {"How to Scale Your Model"}),
        ("status=read&q=flash", set()),
    ],
)
def test_filters(
    client: Client, reader: User, library: SmallCatalog, query: str, expected: set[str]
) -> None:
    client.force_login(reader)
    html = client.get(f"{LIBRARY}?{query}").content.decode()
    assert set(titles(html)) == expected


def test_bad_filter_values_are_reported_and_others_still_apply(
    client: Client, reader: User, library: SmallCatalog
) -> None:
    client.force_login(reader)
    response = client.get(f"{LIBRARY}?topic=nope&status=to_read&sort=sideways")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Select a valid choice" in html
    assert set(titles(html)) == {"FlashAttention", "Roofline"}


def test_sorts(client: Client, reader: User, library: SmallCatalog) -> None:
    roofline = library["path"][2]
    extra_list_section = ListSectionFactory(slug="reverse")
    for position, source in enumerate([roofline, library["flash"]], start=1):
        ListEntryFactory(section=extra_list_section, source=source, position=position)
    client.force_login(reader)

    by_title = client.get(f"{LIBRARY}?status=to_read&sort=title").content.decode()
    assert group_titles(by_title, "to_read") == ["FlashAttention", "Roofline"]

    # List order: the Wafer list has its path section first, then FlashAttention.
    by_list = client.get(f"{LIBRARY}?status=to_read&sort=list").content.decode()
    assert group_titles(by_list, "to_read") == ["Roofline", "FlashAttention"]

    in_other_list = client.get(
        f"{LIBRARY}?status=to_read&sort=list&list={extra_list_section.reading_list.slug}"
    ).content.decode()
    assert group_titles(in_other_list, "to_read") == ["Roofline", "FlashAttention"]

    newest_first = client.get(f"{LIBRARY}?status=to_read&sort=saved").content.decode()
    assert group_titles(newest_first, "to_read") == ["FlashAttention", "Roofline"]


def test_htmx_filter_returns_the_results_region(
    client: Client, reader: User, library: SmallCatalog
) -> None:
    client.force_login(reader)
    response = client.get(f"{LIBRARY}?status=read", headers=HX | {"HX-Target": "library-results"})
    html = response.content.decode()
    assert "HX-Request" in response["Vary"]
    assert html.lstrip().startswith('<div id="library-results">')
    assert titles(html) == ["How to Scale Your Model"]
    assert "<html" not in html


def test_htmx_counts_refresh_returns_the_counts_only(
    client: Client, reader: User, library: SmallCatalog
) -> None:
    client.force_login(reader)
    response = client.get(LIBRARY, headers=HX | {"HX-Target": "library-counts"})
    html = response.content.decode()
    # The nav stays (it holds the trigger); its list of counts is swapped in.
    assert html.lstrip().startswith("<ul>")
    assert 'id="library-counts"' not in html
    assert "card-title" not in html


def test_bulk_change(client: Client, reader: User, library: SmallCatalog) -> None:
    client.force_login(reader)
    ids = list(Bookmark.objects.filter(user=reader, status="to_read").values_list("pk", flat=True))
    response = client.post(
        reverse("library:bulk"),
        {"action": "read", "bookmarks": ids, "next": "/library/?status=read"},
    )
    assert response["Location"] == "/library/?status=read"
    assert Bookmark.objects.filter(user=reader, status="read").count() == 3
    html = client.get(response["Location"]).content.decode()
    assert "Marked 2 sources as Read." in html


def test_bulk_remove(client: Client, reader: User, library: SmallCatalog) -> None:
    client.force_login(reader)
    ids = list(Bookmark.objects.filter(user=reader).values_list("pk", flat=True))
    client.post(reverse("library:bulk"), {"action": "remove", "bookmarks": ids})
    assert not Bookmark.objects.filter(user=reader).exists()
    assert Bookmark.objects.filter(user__email="other@example.com").count() == 2


def test_bulk_with_another_readers_bookmark_is_404_and_changes_nothing(
    client: Client, reader: User, other_reader: User, library: SmallCatalog
) -> None:
    client.force_login(reader)
    mine = present(Bookmark.objects.filter(user=reader).first())
    theirs = present(Bookmark.objects.filter(user=other_reader).first())
    for action in ["read", "remove"]:
        response = client.post(
            reverse("library:bulk"), {"action": action, "bookmarks": [mine.pk, theirs.pk]}
        )
        assert response.status_code == 404
    theirs_after = Bookmark.objects.get(pk=theirs.pk)
    assert theirs_after.status == theirs.status
    assert Bookmark.objects.get(pk=mine.pk).status == mine.status


def test_bulk_with_a_missing_id_is_404(client: Client, reader: User, library: SmallCatalog) -> None:
    client.force_login(reader)
    response = client.post(reverse("library:bulk"), {"action": "read", "bookmarks": [999999]})
    assert response.status_code == 404


def test_bulk_bad_input_is_explained(client: Client, reader: User, library: SmallCatalog) -> None:
    client.force_login(reader)
    mine = present(Bookmark.objects.filter(user=reader).first())
    response = client.post(
        reverse("library:bulk"), {"action": "burn", "bookmarks": [mine.pk]}, follow=True
    )
    assert "“burn” is not a reading status" in response.content.decode()
    response = client.post(reverse("library:bulk"), {"action": "read"}, follow=True)
    assert "Select at least one source to change." in response.content.decode()
    response = client.post(
        reverse("library:bulk"), {"action": "read", "bookmarks": ["x"]}, follow=True
    )
    assert response.status_code == 200
    assert Bookmark.objects.get(pk=mine.pk).status == mine.status


def test_bulk_is_post_only_and_members_only(
    client: Client, reader: User, library: SmallCatalog
) -> None:
    assert client.post(reverse("library:bulk"), {"action": "read"}).status_code == 302
    client.force_login(reader)
    assert client.get(reverse("library:bulk")).status_code == 405


def test_empty_library_explains_how_to_start(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    html = client.get(LIBRARY).content.decode()
    assert "Your library is empty." in html


def test_user_text_is_escaped(client: Client, reader: User, tiers: Tiers) -> None:
    source = SourceFactory(
        title="<script>alert(1)</script>", tier=tiers["core"], topics=[TopicFactory()]
    )
    set_status(user=reader, source=source, status="read")
    client.force_login(reader)
    html = client.get(LIBRARY).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_nav_links_to_the_library_for_members_only(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    assert "My library" not in client.get("/tiers/core/").content.decode()
    client.force_login(reader)
    assert 'href="/library/"' in client.get("/tiers/core/").content.decode()
