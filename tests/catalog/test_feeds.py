import feedparser
import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from tests.factories import ListEntryFactory, SourceFactory, TopicFactory
from tests.hints import Grow, Response, SmallCatalog, Tiers

ATOM = "application/atom+xml"


def parse(response: Response) -> feedparser.FeedParserDict:
    assert response.status_code == 200
    assert response["Content-Type"].startswith(ATOM)
    feed = feedparser.parse(response.content)
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    # Atom's required elements: feed id, title, updated; entry id, title, updated, link.
    assert feed.feed.id and feed.feed.title and feed.feed.updated
    for entry in feed.entries:
        assert entry.id and entry.title and entry.updated and entry.link
    return feed


@pytest.mark.django_db
class TestFeeds:
    def test_sources_feed_lists_newest_changes_first(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        flash = small_catalog["flash"]
        flash.summary = "Changed just now."
        flash.save()
        feed = parse(client.get("/feeds/sources/"))
        assert feed.feed.title == "readinglist: new and changed sources"
        assert feed.entries[0].title == "FlashAttention"
        # On the configured domain (SITE_DOMAIN), never the sites framework's example.com.
        assert feed.entries[0].link == "http://readinglist.test/sources/flashattention/"
        assert "Changed just now." in feed.entries[0].summary
        assert {tag.term for tag in feed.entries[0].tags} == {"Attention"}
        assert len(feed.entries) == 4

    def test_retired_sources_leave_the_feed(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        flash = small_catalog["flash"]
        flash.status = "retired"
        flash.save()
        titles = [entry.title for entry in parse(client.get("/feeds/sources/")).entries]
        assert "FlashAttention" not in titles

    def test_topic_feed_includes_subtopics(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        feed = parse(client.get("/feeds/topics/kernels/"))
        assert feed.feed.title == "readinglist: Kernel engineering"
        assert {entry.title for entry in feed.entries} == {
            "Roofline",
            "Attention Is All You Need",
            "FlashAttention",
        }
        assert feed.feed.link.endswith("/topics/kernels/")

    def test_list_feed(self, client: Client, small_catalog: SmallCatalog) -> None:
        slug = small_catalog["list"].slug
        feed = parse(client.get(f"/feeds/lists/{slug}/"))
        assert len(feed.entries) == 4
        other = SourceFactory(title="Not in any list")
        titles = {e.title for e in parse(client.get(f"/feeds/lists/{slug}/")).entries}
        assert other.title not in titles

    def test_unknown_topic_or_list_is_404(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        assert client.get("/feeds/topics/no-such-topic/").status_code == 404
        assert client.get("/feeds/lists/no-such-list/").status_code == 404

    def test_titles_with_markup_are_escaped_text(self, client: Client, tiers: Tiers) -> None:
        SourceFactory(title="<script>alert(1)</script> & Co", summary="a < b")
        response = client.get("/feeds/sources/")
        assert b"<script>" not in response.content
        feed = parse(response)
        assert feed.entries[0].title == "<script>alert(1)</script> & Co"

    @pytest.mark.parametrize(
        ("page", "feed"),
        [
            ("/", "/feeds/sources/"),
            ("/topics/kernels/", "/feeds/topics/kernels/"),
            ("/sources/flashattention/", "/feeds/sources/"),
        ],
    )
    def test_pages_announce_their_feed(
        self, client: Client, small_catalog: SmallCatalog, page: str, feed: str
    ) -> None:
        html = client.get(page).content.decode()
        assert f'<link rel="alternate" type="{ATOM}"' in html
        assert f'href="{feed}"' in html

    def test_list_page_announces_its_feed(
        self, client: Client, small_catalog: SmallCatalog
    ) -> None:
        slug = small_catalog["list"].slug
        html = client.get(f"/lists/{slug}/").content.decode()
        assert f'<link rel="alternate" type="{ATOM}"' in html
        assert f'href="/feeds/lists/{slug}/"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/feeds/sources/", "/feeds/topics/bulk/", "/feeds/lists/{list}/"])
def test_feed_queries_are_constant(
    client: Client,
    many_sources: Grow,
    django_assert_max_num_queries: DjangoAssertNumQueries,
    url: str,
) -> None:
    sources = many_sources(5)
    TopicFactory(slug="bulk")
    reading_list = sources[0].entries.get().section.reading_list
    url = url.format(list=reading_list.slug)
    client.get(url)  # the current Site is cached after the first request
    with django_assert_max_num_queries(4):
        small = client.get(url)
    section = sources[0].entries.get().section
    for position, source in enumerate(many_sources(40), start=100):
        ListEntryFactory(section=section, source=source, position=position)
    with django_assert_max_num_queries(4):
        large = client.get(url)
    assert large.content.count(b"<entry>") > small.content.count(b"<entry>")
