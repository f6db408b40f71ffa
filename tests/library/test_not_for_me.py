""" "Not for me" on For you: a dismissed source does not come back, its reason moves the rest,
and the reader can take it back from the source's page or My library."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from catalog.models import Source
from catalog.related.vectors import catalog_vectors
from catalog.services import LoadReport
from library.models import Bookmark, Dismissal
from library.recommendations import ranked_rows, recommendations_for
from tests.hints import Grow, Response, SmallCatalog

pytestmark = pytest.mark.django_db

FOR_YOU = "/library/for-you/"


def finish(reader: User, *slugs: object) -> None:
    for slug in slugs:
        Bookmark.objects.create(user=reader, source=Source.objects.get(slug=slug), status="read")


def slugs_of(reader: User) -> list[str]:
    return [pick.source.slug for pick in recommendations_for(reader).picks]


def dismiss(
    client: Client, slug: str, reason: str = "not_relevant", *, hx: bool = False
) -> Response:
    url = reverse("library:dismiss", args=[slug])
    headers = {"HX-Request": "true"} if hx else {}
    return client.post(url, {"reason": reason, "next": FOR_YOU}, headers=headers)


@pytest.fixture
def attention_reader(client: Client, reader: User, full_catalog: LoadReport) -> User:
    finish(reader, "flashattention", "flashattention-2", "flashattention-3")
    client.force_login(reader)
    return reader


def test_every_recommendation_has_a_not_for_me_form(client: Client, attention_reader: User) -> None:
    html = client.get(FOR_YOU).content.decode()
    for slug in slugs_of(attention_reader):
        assert f'action="{reverse("library:dismiss", args=[slug])}"' in html
    assert 'name="reason"' in html and "Too advanced" in html


def test_a_dismissed_source_does_not_come_back(client: Client, attention_reader: User) -> None:
    assert "flashattention-4" in slugs_of(attention_reader)
    response = dismiss(client, "flashattention-4")
    assert response.status_code == 302 and response["Location"] == FOR_YOU
    assert "flashattention-4" not in slugs_of(attention_reader)
    page = client.get(FOR_YOU).content.decode()
    assert "FlashAttention-4" not in page.split('<h2 class="visually-hidden">Suggestions')[1]
    # Dismissing again (another tab) changes the reason, never adds a second row.
    dismiss(client, "flashattention-4", "too_advanced")
    assert Dismissal.objects.get(user=attention_reader).reason == "too_advanced"


def _score(reader: User, slug: str, dismissed: dict[int, str]) -> float:
    vectors = catalog_vectors()
    saved = dict(Bookmark.objects.filter(user=reader).values_list("source_id", "status"))
    row = vectors.row_of[Source.objects.get(slug=slug).pk]
    return {candidate: score for candidate, score, _ in ranked_rows(vectors, saved, dismissed)}.get(
        row, 0.0
    )


def _closest_other_pick(reader: User, slug: str, picks: list[str]) -> str:
    """The pick (other than `slug`) whose text is closest to `slug`'s."""
    vectors = catalog_vectors()
    target = vectors.matrix[vectors.row_of[Source.objects.get(slug=slug).pk]]
    others = [s for s in picks if s != slug]
    rows = [vectors.row_of[Source.objects.get(slug=s).pk] for s in others]
    similarity = (vectors.matrix[rows] @ target.T).toarray().ravel()
    return others[int(similarity.argmax())]


@pytest.mark.parametrize(
    ("reason", "moves"),
    [("not_relevant", "down"), ("too_basic", "down"), ("read_elsewhere", "up")],
)
def test_the_reason_moves_what_is_like_the_dismissed_source(
    client: Client, attention_reader: User, reason: str, moves: str
) -> None:
    picks = slugs_of(attention_reader)
    dismissed_slug = picks[0]
    neighbour = _closest_other_pick(attention_reader, dismissed_slug, picks)
    before = _score(attention_reader, neighbour, {})
    dismiss(client, dismissed_slug, reason)
    dismissed = dict(Dismissal.objects.values_list("source_id", "reason"))
    after = _score(attention_reader, neighbour, dismissed)
    assert (after < before) if moves == "down" else (after > before), (neighbour, before, after)


def test_the_next_page_changes_beyond_the_one_left_out(
    client: Client, attention_reader: User
) -> None:
    before = slugs_of(attention_reader)
    for slug in before[:3]:
        dismiss(client, slug, "not_relevant")
    after = slugs_of(attention_reader)
    assert not set(before[:3]) & set(after)
    rest = [slug for slug in before if slug not in before[:3]]
    # Not simply the old list without the three: what was like them moved down.
    assert after[: len(rest)] != rest


def test_htmx_swaps_the_card_for_a_notice_with_undo(client: Client, attention_reader: User) -> None:
    response = dismiss(client, "flashattention-4", "too_basic", hx=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'role="status"' in html and "(too basic)" in html
    assert reverse("library:undismiss", args=["flashattention-4"]) in html
    assert "<html" not in html


def test_undo_from_the_source_page(client: Client, attention_reader: User) -> None:
    dismiss(client, "flashattention-4")
    source = Source.objects.get(slug="flashattention-4")
    page = client.get(source.get_absolute_url()).content.decode()
    undo = reverse("library:undismiss", args=[source.slug])
    assert "Not for me" in page and f'action="{undo}"' in page
    response = client.post(undo, {"next": source.get_absolute_url()})
    assert response.status_code == 302 and response["Location"] == source.get_absolute_url()
    assert not Dismissal.objects.exists()
    assert "flashattention-4" in slugs_of(attention_reader)
    assert "Not for me" not in client.get(source.get_absolute_url()).content.decode()


def test_my_library_lists_what_is_hidden_with_undo(client: Client, attention_reader: User) -> None:
    dismiss(client, "flashattention-4", "read_elsewhere")
    page = client.get(reverse("library:index")).content.decode()
    assert "Hidden from your recommendations" in page
    assert "FlashAttention-4" in page and "already read elsewhere" in page
    assert reverse("library:undismiss", args=["flashattention-4"]) in page


def test_search_still_finds_a_dismissed_source(client: Client, attention_reader: User) -> None:
    dismiss(client, "flashattention-4")
    page = client.get(reverse("pages:source-list"), {"q": "FlashAttention-4"}).content.decode()
    assert "FlashAttention-4" in page


def test_one_reader_s_dismissal_is_not_another_s(
    client: Client, attention_reader: User, other_reader: User
) -> None:
    finish(other_reader, "flashattention", "flashattention-2", "flashattention-3")
    dismiss(client, "flashattention-4")
    assert "flashattention-4" in slugs_of(other_reader)
    client.force_login(other_reader)
    client.post(reverse("library:undismiss", args=["flashattention-4"]), {"next": FOR_YOU})
    assert Dismissal.objects.filter(user=attention_reader).exists()


def test_a_bad_reason_saves_nothing_and_says_why(client: Client, attention_reader: User) -> None:
    response = dismiss(client, "flashattention-4", "boring")
    assert response.status_code == 302
    assert not Dismissal.objects.exists()
    page = client.get(FOR_YOU).content.decode()
    assert "Choose why the source is not for you" in page


def test_anonymous_visitors_log_in_and_get_changes_nothing(
    client: Client, full_catalog: LoadReport
) -> None:
    response = dismiss(client, "flashattention-4")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(reverse("library:dismiss", args=["flashattention-4"])).status_code == 405
    assert not Dismissal.objects.exists()


def test_an_unknown_source_is_404(client: Client, attention_reader: User) -> None:
    assert dismiss(client, "no-such-source").status_code == 404


def test_a_dismissed_start_here_step_is_skipped(
    client: Client, reader: User, small_catalog: SmallCatalog
) -> None:
    client.force_login(reader)
    first = small_catalog["path"][0]
    dismiss(client, first.slug, "too_basic")
    html = client.get(FOR_YOU).content.decode()
    assert "Start here, step 2" in html and "Start here, step 1" not in html


def test_for_you_queries_stay_flat_with_more_dismissals(
    client: Client, reader: User, many_sources: Grow
) -> None:
    sources = many_sources(60)
    client.force_login(reader)
    for source in sources[:5]:
        Bookmark.objects.create(user=reader, source=source, status="read")
    Dismissal.objects.create(user=reader, source=sources[5])
    client.get(FOR_YOU)
    with CaptureQueriesContext(connection) as few:
        client.get(FOR_YOU)
    for source in sources[6:40]:
        Dismissal.objects.create(user=reader, source=source, reason="too_basic")
    with CaptureQueriesContext(connection) as many:
        client.get(FOR_YOU)
    assert len(many.captured_queries) <= len(few.captured_queries)
    page = client.get(reverse("library:index"))
    assert page.status_code == 200
