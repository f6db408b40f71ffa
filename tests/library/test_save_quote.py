"""A passage brought to /save/ by the bookmarklet or a phone's share route: tidied into a
text-quote selector, then a note for the reader or a thread for one of their teams."""

import re
from html import unescape
from urllib.parse import unquote

import pytest
from django.http import QueryDict
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from catalog.models import Source
from discussions.models import Thread
from library.quoting import CONTEXT_SENT, QUOTE_MAX, SENT_BYTES_MAX, Passage, read_passage
from notes.models import Note
from tests.factories import UserFactory, join_team
from tests.hints import Response, SmallCatalog, found
from tests.production.test_entrypoint import load_gunicorn_config

pytestmark = pytest.mark.django_db

PASSAGE = "We propose FlashAttention, an IO-aware exact attention algorithm"


@pytest.fixture
def flash(small_catalog: SmallCatalog) -> Source:
    flash = small_catalog["flash"]
    flash.url = "https://arxiv.org/abs/2205.14135"
    flash.arxiv_id = "2205.14135"
    flash.save()
    return flash


def _params(**values: str) -> QueryDict:
    query = QueryDict(mutable=True)
    query.update(values)
    return query


def passage_in(params: QueryDict) -> tuple[Passage, str]:
    """The passage a test sent, which must be there, and the address shared with it."""
    passage, shared = read_passage(params)
    assert passage is not None
    return passage, shared


def _save(client: Client, **params: str) -> Response:
    params.setdefault("url", "https://arxiv.org/html/2205.14135v2")
    return client.get("/save/", params)


# The bookmarklet.


def test_the_bookmarklet_sends_the_canonical_address_and_the_selection(
    client: Client, settings: Settings
) -> None:
    settings.SITE_DOMAIN = "reading.example.org"
    page = client.get("/save/bookmarklet/").content.decode()
    code = unquote(
        unescape(found(re.search(r'<a id="bookmarklet"[^>]*href="([^"]*)"', page)).group(1))
    )
    assert code.startswith("javascript:")
    # Still only a navigation to this site, with the page's address and title.
    assert "location.href='http://reading.example.org/save/?'+a" in code
    assert "a='url='+e(u)+'&title='+e(d.title)" in code
    # The canonical link wins over the address bar when the page names one.
    assert "link[rel=canonical]" in code
    for name in ("quote", "prefix", "suffix", "selected"):
        assert f"&{name}='+" in code
    # No placeholder is left, and nothing a javascript: address would percent-decode.
    for placeholder in ("SAVE", "SENT", "CONTEXT", "BYTES"):
        assert placeholder not in code
    assert "%" not in code
    assert f"q=t(q,{QUOTE_MAX + 100})" in code


def test_the_phone_route_says_how_to_send_a_passage(client: Client, settings: Settings) -> None:
    settings.SITE_DOMAIN = "reading.example.org"
    page = client.get("/save/bookmarklet/").content.decode()
    assert "<code>&amp;text=</code>" in page


def test_the_longest_address_it_sends_fits_the_servers_request_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The quote's bytes, then the context in the widest UTF-8 encoding, leave room for the
    page's address and title."""
    # A CJK character: one UTF-16 unit of the bookmarklet's count, nine bytes once encoded.
    longest_context = 2 * CONTEXT_SENT * len("%E4%B8%80")
    room = load_gunicorn_config(monkeypatch)["limit_request_line"] - SENT_BYTES_MAX
    assert room - longest_context >= 1_000


# Reading the passage.


def test_a_passage_is_tidied_and_its_context_kept_to_whole_words() -> None:
    passage, shared = passage_in(
        _params(
            quote="  We propose\n   FlashAttention,\tan IO-aware  ",
            # As the bookmarklet sends them: 100 characters each, cut inside a word.
            prefix=("x" * 60 + " tion of the quadratic cost of self-attention.\n\n     ")[-100:],
            suffix=("  exact attention algorithm that uses tiling to reduce the num" + "y" * 60)[
                :100
            ],
            selected="45",
        )
    )
    assert shared == ""
    assert passage.exact == "We propose\nFlashAttention, an IO-aware"
    # At most 32 characters on either side, never a cut word.
    assert passage.prefix == "cost of self-attention."
    assert passage.suffix == "exact attention algorithm that"
    # Fewer characters than it sends: the page began or ended there, every word is whole.
    short, _ = passage_in(_params(quote="x", prefix="Abstract. We", suffix="that uses"))
    assert (short.prefix, short.suffix) == ("Abstract. We", "that uses")
    assert not passage.cut and passage.notice == ""


def test_a_selection_longer_than_a_quote_is_cut_at_a_word_and_said() -> None:
    words = ("tiling " * 400).strip()  # 2,799 characters
    passage, _ = passage_in(_params(quote=words))
    assert len(passage.exact) <= QUOTE_MAX
    assert passage.exact.endswith("tiling")
    # What follows the kept words is their context now, so the selector still matches.
    assert passage.suffix.startswith("tiling")
    assert passage.cut
    assert "You selected 2,799 characters; a quote holds 2,000" in passage.notice


def test_the_bookmarklet_says_when_it_sent_less_than_was_selected() -> None:
    sent = "alpha beta gamma delt"
    passage, _ = passage_in(_params(quote=sent, selected="9000", suffix="ignored words"))
    assert passage.exact == "alpha beta gamma"
    assert passage.suffix == ""
    assert "You selected 9,000 characters" in passage.notice


def test_a_phone_shares_the_passage_as_text_with_the_address_in_it() -> None:
    passage, shared = passage_in(
        _params(text="“IO-aware exact attention” https://arxiv.org/html/2205.14135v2")
    )
    assert passage.exact == "IO-aware exact attention"
    assert shared == "https://arxiv.org/html/2205.14135v2"


def test_no_selection_is_no_passage() -> None:
    assert read_passage(_params(quote="  \n ")) == (None, "")
    assert read_passage(_params(text="https://example.org/a")) == (None, "https://example.org/a")


def test_the_quote_limit_is_what_notes_and_threads_hold() -> None:
    assert QUOTE_MAX == Note.QUOTE_MAX == Thread.QUOTE_MAX


# The save page with a passage.


def test_without_a_passage_the_save_page_is_as_before(signed_in: Client, flash: Source) -> None:
    page = _save(signed_in).content.decode()
    assert "Save to your library" in page
    assert "Note for me" not in page and "thread-quote" not in page


def test_a_matched_page_offers_a_note_and_a_thread_for_the_readers_teams(
    signed_in: Client, reader: User, flash: Source
) -> None:
    join_team(reader, slug="kernels")
    join_team(UserFactory(), slug="strangers")
    response = _save(
        signed_in, quote=PASSAGE, prefix="Transformers are slow and memory-hungry.", suffix="that"
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Note for me" in page and "Start a team thread" in page
    # The note's form: the quote filled in, posting to the notes' own address.
    note_form = found(re.search(r'<form class="note-form".*?</form>', page, re.S)).group(0)
    assert 'action="/sources/flashattention/notes/new/"' in note_form
    assert f">\n{PASSAGE}</textarea>" in note_form or f">{PASSAGE}</textarea>" in note_form
    assert "csrfmiddlewaretoken" in note_form
    # The thread's form: the text-quote selector filled in, for the reader's own team only.
    thread_form = found(
        re.search(
            r'<form method="post" action="/sources/flashattention/discussion/".*?</form>',
            page,
            re.S,
        )
    ).group(0)
    assert "data-hx-post" not in thread_form
    assert 'value="kernels"' in thread_form and "strangers" not in page.lower()
    assert 'value="are slow and memory-hungry."' in thread_form
    assert 'value="that"' in thread_form
    assert "csrfmiddlewaretoken" in thread_form


def test_starting_the_thread_from_the_save_page_keeps_the_selector(
    signed_in: Client, reader: User, flash: Source
) -> None:
    team = join_team(reader, slug="kernels")
    response = signed_in.post(
        "/sources/flashattention/discussion/",
        {
            "team": "kernels",
            "title": "Why is it exact?",
            "quote_exact": PASSAGE,
            "quote_prefix": "memory-hungry.",
            "quote_suffix": "that",
            "is_question": "on",
        },
    )
    thread = Thread.objects.get(team=team)
    assert response.status_code == 302 and response["Location"] == thread.get_absolute_url()
    assert (thread.quote_exact, thread.quote_prefix, thread.quote_suffix) == (
        PASSAGE,
        "memory-hungry.",
        "that",
    )
    assert thread.is_question


def test_a_thread_form_with_an_error_comes_back_whole_and_without_htmx(
    signed_in: Client, reader: User, flash: Source
) -> None:
    join_team(reader, slug="kernels")
    response = signed_in.post(
        "/sources/flashattention/discussion/",
        {"team": "kernels", "title": "", "quote_exact": PASSAGE},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert PASSAGE in page
    form = found(
        re.search(r'<form method="post" action="/sources/flashattention/discussion/"[^>]*>', page)
    )
    assert "data-hx-post" not in form.group(0)


def test_a_reader_without_a_team_is_offered_the_note_alone(
    signed_in: Client, flash: Source
) -> None:
    page = _save(signed_in, quote=PASSAGE).content.decode()
    assert 'action="/sources/flashattention/notes/new/"' in page
    assert "/sources/flashattention/discussion/" not in page
    assert "Join a team" in page


def test_the_note_form_saves_a_private_note_with_the_quote(
    signed_in: Client, reader: User, flash: Source
) -> None:
    response = signed_in.post(
        "/sources/flashattention/notes/new/",
        {"body": "Tiling is the trick.", "quote": PASSAGE, "locator": "", "visibility": "private"},
    )
    assert response.status_code == 302
    note = Note.objects.get(user=reader)
    assert (note.quote, note.visibility, note.source) == (PASSAGE, "private", flash)


def test_a_too_long_passage_is_cut_with_a_clear_message(
    signed_in: Client, reader: User, flash: Source
) -> None:
    join_team(reader, slug="kernels")
    long = ("attention " * 300).strip()
    page = _save(signed_in, quote=long).content.decode()
    assert "You selected 2,999 characters; a quote holds 2,000." in page
    thread_form = found(
        re.search(
            r'<form method="post" action="/sources/flashattention/discussion/".*?</form>',
            page,
            re.S,
        )
    ).group(0)
    kept = re.search(r"<textarea[^>]*quote_exact[^>]*>\n?(.*?)</textarea>", thread_form, re.S)
    assert kept and len(unescape(kept.group(1))) <= QUOTE_MAX


def test_an_unmatched_page_offers_the_proposal_and_keeps_the_passage(
    signed_in: Client, flash: Source
) -> None:
    response = signed_in.get(
        "/save/", {"url": "https://example.org/post/", "title": "A post", "quote": "A <b>claim</b>"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'href="/propose/?url=https%3A%2F%2Fexample.org%2Fpost&amp;title=A+post"' in page
    assert "Note for me" not in page
    # The passage is on the page, escaped, ready to copy with where it came from.
    assert "&gt; A &lt;b&gt;claim&lt;/b&gt;" in page
    assert "[A post](https://example.org/post)" in page
    assert "<b>claim</b>" not in page


def test_a_refused_address_keeps_the_passage_too(signed_in: Client, flash: Source) -> None:
    response = signed_in.get("/save/", {"url": "javascript:alert(1)", "quote": PASSAGE})
    assert response.status_code == 400
    assert PASSAGE in response.content.decode()


def test_the_share_route_finds_the_page_in_the_text(
    signed_in: Client, reader: User, flash: Source
) -> None:
    join_team(reader, slug="kernels")
    page = signed_in.get(
        "/save/", {"text": f"“{PASSAGE}” https://arxiv.org/html/2205.14135v2"}
    ).content.decode()
    assert "Start a team thread" in page and "FlashAttention" in page


def test_visitors_log_in_first_and_come_back_with_the_passage(
    client: Client, flash: Source
) -> None:
    response = client.get("/save/", {"url": flash.url, "quote": PASSAGE})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert (
        "quote%3DWe%2Bpropose" in response["Location"]
        or "quote%3DWe%20propose" in (response["Location"])
    )
