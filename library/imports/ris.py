"""RIS (EndNote, Mendeley, Zotero, Papers) into ImportEntry rows, read with rispy.

A reference runs from its TY line to its ER line. One without an ER line is reported by the line
it starts on and skipped; the others are kept. The number of references is checked before any is
parsed, and every field an import keeps is cut to its limit.
"""

import re
from collections.abc import Iterator

import rispy

from catalog.identity import arxiv_in_prose, normalise_arxiv, normalise_doi

from .entries import (
    TITLE_MAX,
    URL_MAX,
    ImportEntry,
    ImportRefused,
    arxiv_from_doi,
    authors_line,
    check_count,
    clean_text,
    year_from,
)

_START = re.compile(r"^TY  -", re.MULTILINE)
_END = re.compile(r"^ER  -")
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)
_HEAD_CHARS = 4096
# RIS reference types read as papers and books; the rest (web pages, software, …) carry none.
_KINDS = {
    **dict.fromkeys(("JOUR", "EJOUR", "JFULL", "CONF", "CPAPER", "INPR", "MANSCPT"), "paper"),
    **dict.fromkeys(("BOOK", "EBOOK", "EDBOOK"), "book"),
}
# Where RIS files cite an arXiv copy in words: the journal (Google Scholar's "arXiv preprint
# arXiv:…"), the secondary title, or a note.
_PROSE = ("journal_name", "secondary_title", "alternate_title3", "notes")


def is_ris(text: str) -> bool:
    """Whether `text` reads as RIS: a TY line near its start (some exports put a few header
    lines first, "Provider: …") and no BibTeX entry there."""
    head = text[:_HEAD_CHARS]
    return bool(_START.search(head)) and not _BIBTEX_ENTRY.search(head)


def _records(text: str) -> Iterator[tuple[int, str | None]]:
    """Each reference's first line number and its text, None when it has no ER line."""
    lines = text.splitlines()
    start: int | None = None
    for number, line in enumerate(lines, start=1):
        if line.startswith("TY  -"):
            if start is not None:
                yield start, None
            start = number
        elif start is not None and _END.match(line):
            yield start, "\n".join(lines[start - 1 : number])
            start = None
    if start is not None:
        yield start, None


def _strings(value: object) -> list[str]:
    values = value if isinstance(value, list) else [value]
    return [item for item in values if isinstance(item, str)]


def _entry(line: int, reference: dict) -> ImportEntry:
    title = next(
        (
            t
            for key in ("title", "primary_title", "short_title")
            for t in _strings(reference.get(key))
        ),
        "",
    )
    urls = [clean_text(url, URL_MAX) for url in _strings(reference.get("urls"))]
    doi = normalise_doi(clean_text(" ".join(_strings(reference.get("doi")))[:URL_MAX], URL_MAX))
    prose = [text for key in _PROSE for text in _strings(reference.get(key))]
    arxiv = (
        next((found for url in urls if (found := normalise_arxiv(url))), "")
        or arxiv_from_doi(doi)
        or arxiv_in_prose(*prose)
    )
    authors = _strings(reference.get("authors")) or _strings(reference.get("first_authors"))
    dates = (reference.get(key) for key in ("year", "publication_year", "date"))
    return ImportEntry(
        line=line,
        key=clean_text(" ".join(_strings(reference.get("id"))), 200),
        title=clean_text(title, TITLE_MAX),
        authors=authors_line(authors[:50]),
        year=next((year for value in dates if (year := year_from(value))), None),
        doi=doi,
        arxiv=arxiv,
        url=urls[0] if urls else "",
        kind=_KINDS.get(str(reference.get("type_of_reference", "")).upper(), ""),
    )


def parse_ris(text: str) -> tuple[list[ImportEntry], list[str]]:
    check_count(len(_START.findall(text)))
    entries: list[ImportEntry] = []
    problems: list[str] = []
    for line, record in _records(text):
        if record is None:
            problems.append(f"Line {line}: this reference has no end (ER) line and was skipped.")
            continue
        try:
            (reference,) = rispy.loads(record, skip_unknown_tags=True)
        except Exception:  # rispy's errors are not a documented hierarchy
            problems.append(f"Line {line}: this reference could not be read and was skipped.")
            continue
        entry = _entry(line, reference)
        if entry.has_identity:
            entries.append(entry)
        else:
            problems.append(f"Line {line}: this reference has no title, DOI or URL; skipped.")
    if not entries and not problems:
        raise ImportRefused("No RIS references were found in this file.")
    return entries, problems
