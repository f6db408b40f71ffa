"""docs/wiring.md lists every hidden hop the code has: its generated half must match the code.

When this fails, the code gained (or lost) a receiver, registration, on_commit callback,
trigger or template seam: rewrite the page with `WRITE_WIRING=1 pytest tests/test_wiring.py`,
then read the diff and say in the page's prose what the new hop changes.
"""

import os
from pathlib import Path

from .wiring_listing import BEGIN, END, generated, raw_row_writes

PAGE = Path(__file__).resolve().parent.parent / "docs" / "wiring.md"


def test_the_wiring_page_lists_every_hop_the_code_has() -> None:
    text = PAGE.read_text()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    listing = generated()
    if os.environ.get("WRITE_WIRING"):
        PAGE.write_text(text[:start] + listing + text[end:])
        return
    assert text[start:end] == listing, "docs/wiring.md is out of date: see this test's docstring"


def test_every_file_writing_rows_with_raw_sql_says_why_on_the_page() -> None:
    """A file that writes rows with hand-written SQL is named, with its reason, in the page's
    hand-written section: moving such a write out of the models is a decision to explain."""
    text = PAGE.read_text()
    section = text[text.index("## Raw SQL that writes rows") : text.index(BEGIN)]
    found = raw_row_writes()
    assert found, "the scan finds nothing: the search triggers at least are raw SQL"
    assert [path for path in found if f"`{path}`" not in section] == []
