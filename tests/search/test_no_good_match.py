"""The honest page: when nothing in the catalog answers a search well, the page says so above
the results, offers to propose a source with the search filled in, and counts the search as a
catalog gap (words only, grouped), which maintainers read in the admin."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from catalog.models import Source
from search.models import CatalogGap
from tests.factories import SourceFactory
from tests.hints import Response, Tiers

pytestmark = pytest.mark.django_db

KV = "paging kv cache blocks fragmentation"
HBM = "hbm bandwidth accelerators memory"


@pytest.fixture
def catalog(tiers: Tiers) -> list[Source]:
    """Enough sources for a latent index: two subjects, twelve sources each."""
    return [
        SourceFactory(title=f"Study {number}", summary=summary, tier=tiers["core"])
        for number, summary in enumerate([KV] * 12 + [HBM] * 12)
    ]


def notice(response: Response) -> str:
    found = re.search(r'<div id="no-good-match".*?</div>', response.content.decode(), re.S)
    return found.group() if found else ""


def test_a_need_the_catalog_does_not_cover_says_so_and_offers_a_proposal(
    client: Client, catalog: list[Source]
) -> None:
    response = client.get("/sources/", {"q": "gradient boosted trees for tabular memory"})
    assert response.status_code == 200
    shown = notice(response)
    assert "Nothing in the catalog answers" in shown
    # The closest partial matches are still listed, below the notice.
    results = response.content.decode().split('id="results"')[1]
    assert any(f'href="/sources/{source.slug}/"' in results for source in catalog)
    assert "/propose/?title=gradient%20boosted%20trees%20for%20tabular%20memory" in shown


def test_a_need_the_catalog_covers_has_no_notice(client: Client, catalog: list[Source]) -> None:
    for query in ("paging kv cache", "why is memory paging fragmented", "hbm bandwidth"):
        response = client.get("/sources/", {"q": query})
        assert notice(response) == "", query
    assert not CatalogGap.objects.exists()


def test_nothing_found_at_all_is_no_good_answer_too(client: Client, catalog: list[Source]) -> None:
    assert notice(client.get("/sources/", {"q": "xylophone"}))


def test_gaps_are_counted_by_their_words_and_keep_nothing_about_the_reader(
    client: Client, catalog: list[Source], reader: User
) -> None:
    client.get("/sources/", {"q": "Gradient boosted  trees for tabular memory"})
    client.force_login(reader)
    client.get("/sources/", {"q": "gradient boosted trees for tabular memory"})
    client.get("/sources/", {"q": "paging kv cache"})  # answered: not a gap
    gap = CatalogGap.objects.get()
    assert (gap.text, gap.searches) == ("gradient boosted trees for tabular memory", 2)
    fields = {field.name for field in CatalogGap._meta.get_fields()}
    assert fields == {"id", "text", "searches", "first_seen", "last_seen"}


def test_maintainers_read_the_gaps_most_searched_first(client: Client, maintainer: User) -> None:
    CatalogGap.objects.create(text="tabular boosting", searches=2)
    CatalogGap.objects.create(text="battery drain", searches=7)
    client.force_login(maintainer)
    page = client.get(reverse("admin:search_cataloggap_changelist")).content.decode()
    assert page.index("battery drain") < page.index("tabular boosting")


def test_a_need_in_everyday_words_the_catalog_answers_in_its_own_has_no_notice(
    client: Client, tiers: Tiers
) -> None:
    # "pictures" and "drawings" are the everyday forms of "image" (search/everyday.py): the
    # sources have none of the reader's words, yet answer most of the need in their own.
    for number, summary in enumerate(["image diffusion sampling"] * 12 + [HBM] * 12):
        SourceFactory(title=f"Study {number}", summary=summary, tier=tiers["core"])
    response = client.get("/sources/", {"q": "pictures drawings kittens"})
    results = response.content.decode().split('id="results"')[1]
    assert "Study 0" in results
    assert notice(response) == ""
    assert not CatalogGap.objects.exists()


def test_a_need_mostly_in_words_no_source_has_says_so_despite_a_stray_match(
    client: Client, catalog: list[Source]
) -> None:
    # A source has two of the three words, but the third is in no source and has no form the
    # catalog knows: a word none has weighs as the rarest there is (a title's number here), so
    # it is most of what is asked.
    response = client.get("/sources/", {"q": "hbm bandwidth tubas"})
    results = response.content.decode().split('id="results"')[1]
    assert "Study 12" in results
    assert "Nothing in the catalog answers" in notice(response)
