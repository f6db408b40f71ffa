"""Everyday words for what the field names otherwise (search/everyday.py): one way, as forms of
the words a query spells, on both databases."""

import pytest

from search.equivalents import alternatives
from search.everyday import EVERYDAY
from search.page import search_sources
from search.parsing import SearchParams
from tests.factories import SourceFactory
from tests.hints import Tiers


def test_an_everyday_word_also_searches_the_fields_words() -> None:
    found = alternatives(("graphics", "card", "memory"))
    assert "gpu" in found["graphics"] and "gpu" in found["card"]
    assert "speech" in alternatives(("spoken", "words"))["spoken"]
    # Side by side in any order: "history of the chat" spells "chat history".
    assert "kv cache" in alternatives(("history", "chat"))["history"]


def test_the_fields_own_words_are_searched_as_typed() -> None:
    assert "gpu" not in alternatives(("gpu", "memory"))
    assert alternatives(("speech", "recognition")).get("speech", ()) == ()


def test_every_row_names_everyday_forms_and_field_forms_apart() -> None:
    for everyday, fields in EVERYDAY:
        assert everyday and fields and isinstance(everyday, tuple), everyday
        assert not set(everyday) & set(fields), everyday


@pytest.mark.django_db
def test_a_need_in_everyday_words_finds_the_source_in_the_fields_words(tiers: Tiers) -> None:
    SourceFactory(
        slug="asr",
        title="Robust speech recognition",
        summary="Transcription of audio in many languages.",
        tier=tiers["core"],
    )
    SourceFactory(
        slug="recordings-of-talks",
        title="Talks about model serving",
        summary="Slides and notes from a serving workshop.",
        tier=tiers["core"],
    )
    page = search_sources(SearchParams(q="turn voice memos into captions"))
    assert [source.slug for source in page.page.object_list][:1] == ["asr"]
