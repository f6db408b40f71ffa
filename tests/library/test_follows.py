"""Following topics, tiers, lists and searches, and what the home page then shows."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from catalog.changelog import record_source_edit
from catalog.models import ChangeLogEntry, ChangeLogSeen
from library.models import DigestSettings, Follow
from tests.hints import SmallCatalog

from ..factories import SourceFactory, TopicFactory

pytestmark = pytest.mark.django_db


def test_a_reader_follows_a_topic_from_its_page(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    page = client.get("/topics/attention/").content.decode()
    assert 'action="/library/following/topic/attention/"' in page
    response = client.post("/library/following/topic/attention/", {"next": "/topics/attention/"})
    assert response.status_code == 302 and response["Location"] == "/topics/attention/"
    assert Follow.objects.filter(user=reader, kind="topic", target="attention").exists()
    assert "You follow Attention." in client.get("/topics/attention/").content.decode()
    # Following is what turns the digest on.
    assert DigestSettings.objects.get(user=reader).frequency == "weekly"


def test_following_twice_keeps_one_follow(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    client.post("/library/following/tier/core/")
    client.post("/library/following/tier/core/")
    assert Follow.objects.filter(user=reader).count() == 1


@pytest.mark.parametrize(
    "url",
    [
        "/library/following/topic/no-such-topic/",
        "/library/following/list/no-such-list/",
        "/library/following/tier/no-such-tier/",
        "/library/following/planet/attention/",
    ],
)
def test_following_something_unknown_is_not_found(
    client: Client, reader: User, small_catalog: SmallCatalog, url: str
) -> None:
    client.force_login(reader)
    assert client.post(url).status_code == 404
    assert not Follow.objects.exists()


def test_following_needs_a_login_and_a_post(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    assert client.post("/library/following/topic/attention/").status_code == 302
    client.force_login(reader)
    assert client.get("/library/following/topic/attention/").status_code == 405
    assert not Follow.objects.exists()


def test_list_and_tier_pages_offer_to_follow(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    assert "Follow Primary sources" in client.get("/lists/wafer/").content.decode()
    assert "Follow Core" in client.get("/tiers/core/").content.decode()


def test_save_a_search_and_read_its_feed(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    page = client.get("/sources/?q=attention").content.decode()
    assert "Save this search" in page
    response = client.post("/library/following/search/", {"q": "  attention ", "page": "3"})
    assert response.status_code == 302
    saved = Follow.objects.get(user=reader, kind="search")
    assert saved.target == "q=attention"
    following = client.get("/library/following/").content.decode()
    assert "Saved search: attention" in following
    feed_path = following.split('href="/library/following/feeds/')[1].split('"')[0]
    client.logout()
    feed = client.get(f"/library/following/feeds/{feed_path}")
    assert feed.status_code == 200
    assert "FlashAttention" in feed.content.decode()
    assert "Roofline" not in feed.content.decode()
    assert client.get("/library/following/feeds/forged:token/").status_code == 404


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"q": "attention", "year": "last summer"}, "is not a year"),
        ({"q": "attention", "topic": "no-such-topic"}, "There is no topic"),
        ({"q": "   "}, "Type a search or choose a filter"),
        ({"q": "attention " * 30}, "cut to its first 200 characters"),
    ],
)
def test_a_malformed_saved_search_is_refused_with_the_reason(
    client: Client, reader: User, small_catalog: SmallCatalog, data: dict[str, str], reason: str
) -> None:
    client.force_login(reader)
    response = client.post("/library/following/search/", data)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not Follow.objects.exists()


def test_unfollow_only_your_own(
    client: Client, reader: User, other_reader: User, small_catalog: SmallCatalog
) -> None:
    theirs = Follow.objects.create(user=other_reader, kind="topic", target="attention")
    client.force_login(reader)
    assert client.post(f"/library/following/{theirs.pk}/unfollow/").status_code == 404
    assert Follow.objects.filter(pk=theirs.pk).exists()
    client.force_login(other_reader)
    client.post(f"/library/following/{theirs.pk}/unfollow/")
    assert not Follow.objects.filter(pk=theirs.pk).exists()


def test_home_shows_changes_in_what_the_reader_follows(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    ChangeLogSeen.objects.create(user=reader, seen_at=timezone.now() - timedelta(minutes=5))
    Follow.objects.create(user=reader, kind="topic", target="kernels")
    inside = SourceFactory(title="Paged kernels", topics=[small_catalog["topics"][1]])
    outside = SourceFactory(title="Unfollowed thing", topics=[TopicFactory(name="Other")])
    for source in (inside, outside):
        record_source_edit(before=None, source=source, via=ChangeLogEntry.Via.ADMIN)
    client.force_login(reader)
    html = client.get("/").content.decode()
    followed = html[html.index("In what you follow") : html.index("What you follow</a>")]
    # A sub-topic of a followed topic counts; the rest of the catalog shows only above.
    assert "Paged kernels" in followed
    assert "Unfollowed thing" not in followed
    assert "Unfollowed thing" in html


def test_the_digest_turns_off_with_one_click(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    client.post("/library/following/topic/attention/")
    page = client.get("/library/following/").content.decode()
    assert "Turn the digest off" in page
    client.post("/library/digest/", {"frequency": "off"})
    assert DigestSettings.objects.get(user=reader).frequency == "off"
    client.post("/library/digest/", {"frequency": "daily"})
    assert DigestSettings.objects.get(user=reader).frequency == "daily"
    client.post("/library/digest/", {"frequency": "hourly"})
    assert DigestSettings.objects.get(user=reader).frequency == "daily"


def test_a_saved_search_says_so_and_can_be_stopped(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    response = client.post("/library/following/search/", {"topic": "attention", "q": "flash"})
    page = client.get(response["Location"]).content.decode()
    saved = Follow.objects.get(user=reader, kind="search")
    assert "Search saved" in page
    assert f'action="/library/following/{saved.pk}/unfollow/"' in page
    assert "Save this search" not in page
    # The same search, its parameters in another order, is the same saved search.
    assert "Search saved" in client.get("/sources/?topic=attention&q=flash").content.decode()
    # Another search is not.
    other = client.get("/sources/?q=flash").content.decode()
    assert "Save this search" in other and "Search saved" not in other
    back = client.post(
        f"/library/following/{saved.pk}/unfollow/", {"next": "/sources/?q=flash&topic=attention"}
    )
    assert back["Location"] == "/sources/?q=flash&topic=attention"
    assert "Save this search" in client.get(back["Location"]).content.decode()
