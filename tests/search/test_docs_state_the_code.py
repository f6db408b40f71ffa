"""docs/search.md states the ranking's weights and prior as the code has them."""

import re

from django.conf import settings

from search.described import ALL_WORDS_BONUS, DESCRIBED_WEIGHTS, nudge

PAGE = (settings.BASE_DIR / "docs" / "search.md").read_text()


def test_the_any_word_weights_are_the_codes() -> None:
    summary, topics, names, title = DESCRIBED_WEIGHTS
    stated = re.search(
        r"`DESCRIBED_WEIGHTS`: title ([\d.]+), aliases and authors ([\d.]+), "
        r"summary ([\d.]+), topic names and venue\s+([\d.]+)",
        PAGE,
    )
    assert stated is not None
    assert tuple(map(float, stated.groups())) == (title, names, summary, topics)


def test_the_fused_order_is_the_codes() -> None:
    assert f"`ALL_WORDS_BONUS` = {ALL_WORDS_BONUS}" in PAGE
    assert nudge(8.0) == 2.0  # a cube root, as the page says
    assert "prior's cube root" in PAGE and "square root" not in PAGE
