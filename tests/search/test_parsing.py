"""The pieces of search that need no database: parsing, snippets, chart geometry."""

from search.facets import YearChart
from search.parsing import MAX_QUERY_LENGTH, clean_query_text, parse_query
from search.snippets import START_SEL, STOP_SEL, marked_snippet, plain_snippet, words_pattern


def test_parse_words_phrases_exclusions_and_or() -> None:
    query = parse_query('Flash-Attention "ring attention" -hopper or GQA')
    assert query.words == ("flash", "attention", "gqa")
    assert query.phrases == ("ring attention",)
    assert query.excluded == ("hopper",)
    assert query.any_of and query.uses_operators


def test_special_characters_never_reach_the_query() -> None:
    query = parse_query("a:* & !b | (c) <-> d'")
    assert query.words == ("a", "b", "c", "d")
    assert not parse_query("&|!:*()")
    assert parse_query('"unbalanced quote').phrases == ("unbalanced quote",)
    assert not parse_query("-").excluded


def test_clean_text_strips_control_characters_and_caps_length() -> None:
    assert clean_query_text("flash\x00 attention\t\n") == ("flash attention", False)
    text, cut = clean_query_text("x" * 10_000)
    assert len(text) == MAX_QUERY_LENGTH and cut


def test_headline_is_escaped_before_marks_are_added() -> None:
    headline = f"a <b>bold</b> & {START_SEL}kernel{STOP_SEL} \x01"
    assert marked_snippet(headline) == "a &lt;b&gt;bold&lt;/b&gt; &amp; <mark>kernel</mark> "
    assert marked_snippet("no markers") == ""


def test_plain_snippet_windows_and_escapes() -> None:
    text = " ".join(f"w{i}" for i in range(60)) + " <i>kernel</i> fusion"
    snippet = plain_snippet(text, words_pattern(["kernel"]))
    assert snippet.startswith("… w53 ")
    assert "&lt;i&gt;<mark>kernel</mark>&lt;/i&gt;" in snippet
    assert plain_snippet("nothing here", words_pattern(["kernel"])) == ""


def test_year_chart_geometry() -> None:
    chart = YearChart.from_counts({2020: 4, 2022: 1})
    assert chart is not None
    assert [bar.year for bar in chart.bars] == [2020, 2021, 2022]
    assert [bar.height for bar in chart.bars] == [48, 0, 12]
    assert chart.bars[2].x == 20 and chart.bars[2].y == 36
    assert YearChart.from_counts({}) is None


def test_headline_fragments_are_widened_to_words_and_cuts_marked() -> None:
    from search.snippets import FRAGMENT_DELIMITER, headline_snippet

    text = "One two IO-aware kernels three four. Five six seven kernels eight nine ten."
    # ts_headline can start inside a hyphenated word and drop the closing period.
    kernels = f"{START_SEL}kernels{STOP_SEL}"
    headline = f"aware {kernels} three{FRAGMENT_DELIMITER}seven {kernels} eight nine ten"
    snippet = headline_snippet(headline, text)
    assert (
        snippet
        == "… IO-aware <mark>kernels</mark> three … seven <mark>kernels</mark> eight nine ten."
    )
    assert headline_snippet("no markers", text) == ""


def test_first_sentence_is_the_fallback_snippet() -> None:
    from search.snippets import first_sentence

    assert first_sentence("Tiles attention. Then more.") == "Tiles attention."
    long = " ".join(f"w{i}" for i in range(50))
    assert first_sentence(long).endswith(" …") and len(first_sentence(long).split()) == 31
