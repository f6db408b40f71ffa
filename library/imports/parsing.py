"""BibTeX (bibtexparser 2) and CSL-JSON (Zotero, Better BibTeX) into ImportEntry rows; RIS is
read in library/imports/ris.py.

A malformed entry is reported by its line and the others are kept; a file that cannot be read at
all is refused with a reason. LaTeX in fields is decoded to text; no LaTeX command is ever run, so
\\input{} and friends read nothing.

The work a file can cause is bounded before and while it is parsed: every BibTeX block counts
toward the entry limit (@string, @preamble and @comment too), @string abbreviations are limited
in number and in what they expand to, only the fields an import reads are decoded, and CSL-JSON
is refused when nested too deeply or when it holds numbers no reference needs.
"""

import contextlib
import json
import logging
import re
from collections import Counter

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.model import Block
from pylatexenc.latex2text import LatexNodes2Text

from catalog.identity import arxiv_in_prose
from proposals.identifiers import normalise_arxiv, normalise_doi

from .entries import (
    MAX_EXPANDED_CHARS,
    MAX_JSON_DEPTH,
    MAX_NUMBER_DIGITS,
    MAX_STRINGS,
    TITLE_MAX,
    URL_MAX,
    ImportEntry,
    ImportRefused,
    arxiv_from_doi,
    authors_line,
    check_count,
    clean_text,
    names_line,
    year_from,
)
from .ris import is_ris, parse_ris

# bibtexparser logs every malformed block; the import reports them to the reader instead.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)

# Where exports cite a paper's arXiv copy in words: Google Scholar's "arXiv preprint arXiv:…"
# journal, a "note" or "howpublished" of "arXiv:…".
_ARXIV_PROSE_FIELDS = ("journal", "journaltitle", "note", "howpublished", "booktitle")
_BIBTEX_KINDS = {"article": "paper", "inproceedings": "paper", "book": "book", "misc": ""}
# Where a BibTeX block starts: "@" and its type, then "{" or "(" (both are allowed).
_BLOCK_START = re.compile(r"@\s*([A-Za-z]+)\s*[{(]")
_LATEX = LatexNodes2Text(math_mode="verbatim")
# What only the decoder reads right: commands, math, dashes and quotes. Braces that protect
# capitals ("{BERT}") and "~" spaces, in most titles, are simply dropped.
_LATEX_MARKS = re.compile(r"[\\$]|--|``|''")
_PLAIN_MARKS = str.maketrans({"{": None, "}": None, "~": " "})


def parse(text: str, filename: str = "") -> tuple[list[ImportEntry], list[str]]:
    """Entries and problems; JSON is read as CSL-JSON, RIS as RIS, anything else as BibTeX."""
    stripped = text.lstrip()
    if filename.lower().endswith(".json") or stripped[:1] in ("[", "{"):
        return parse_csl_json(text)
    if filename.lower().endswith(".ris") or is_ris(stripped):
        return parse_ris(text)
    return parse_bibtex(text)


def _authors_bibtex(value: str) -> str:
    return authors_line(value.split(" and "))


def _decoded(value: object, limit: int) -> str:
    """A field's text with its LaTeX decoded, cut before decoding: the decoder takes
    milliseconds a field, so it only sees the part that is kept, and only when it is needed."""
    text = value if isinstance(value, str) else str(value or "")
    text = text[: limit * 2]
    if not _LATEX_MARKS.search(text):
        return clean_text(text.translate(_PLAIN_MARKS), limit)
    # pylatexenc's errors are not a documented hierarchy; undecodable text stays as it is.
    with contextlib.suppress(Exception):
        text = _LATEX.latex_to_text(text)
    return clean_text(text, limit)


def _entry_from_fields(line: int, key: str, kind: str, fields: dict) -> ImportEntry:
    # Addresses and identifiers are verbatim fields: "~" in a URL is a tilde, not a space.
    url = clean_text(fields.get("url", ""), URL_MAX)
    doi = normalise_doi(clean_text(fields.get("doi", ""), URL_MAX))
    eprint = clean_text(fields.get("eprint", "") or fields.get("arxivid", ""), 100)
    arxiv = (
        normalise_arxiv(eprint)
        or normalise_arxiv(url)
        or arxiv_from_doi(doi)
        or arxiv_in_prose(*(fields.get(name) for name in _ARXIV_PROSE_FIELDS))
    )
    return ImportEntry(
        line=line,
        key=clean_text(key, 200),
        title=_decoded(fields.get("title", ""), TITLE_MAX),
        authors=_authors_bibtex(_decoded(fields.get("author", ""), 5000)),
        year=year_from(fields.get("year") or fields.get("date")),
        doi=doi,
        arxiv=arxiv,
        url=url,
        kind=_BIBTEX_KINDS.get(kind.lower(), ""),
    )


def _check_blocks(text: str) -> None:
    """Refuse a file with too many blocks before the parser spends any time on it."""
    kinds = Counter(kind.lower() for kind in _BLOCK_START.findall(text))
    others = kinds["string"] + kinds["preamble"] + kinds["comment"]
    what = "blocks (entries, @string, @preamble and @comment)" if others else "entries"
    check_count(sum(kinds.values()), what)
    if kinds["string"] > MAX_STRINGS:
        raise ImportRefused(
            f"The file defines {kinds['string']:,} @string abbreviations; at most "
            f"{MAX_STRINGS:,} can be read. Export it again with the abbreviations expanded."
        )


def _check_expansion(library: Library) -> None:
    """@string references put a definition's text into every field that names it: refuse a
    file whose fields that way grow far beyond what it holds."""
    expanded = sum(
        len(field.value)
        for entry in library.entries
        for field in entry.fields
        if isinstance(field.value, str)
    )
    if expanded > MAX_EXPANDED_CHARS:
        raise ImportRefused(
            "The file's @string abbreviations expand to more than "
            f"{MAX_EXPANDED_CHARS // 1_000_000} million characters; export it again with the "
            "abbreviations expanded, or import a smaller part of your library."
        )


def _line(block: Block) -> int:
    """The line a block starts on, counted from 1 (the parser numbers every block it reads)."""
    assert block.start_line is not None
    return block.start_line + 1


def parse_bibtex(text: str) -> tuple[list[ImportEntry], list[str]]:
    _check_blocks(text)
    try:
        # The default stack: @string references resolved, enclosing braces and quotes removed.
        library = bibtexparser.parse_string(text)
    except Exception as exc:  # the parser's errors are not a documented hierarchy
        raise ImportRefused("This file could not be read as BibTeX.") from exc
    check_count(
        len(library.entries)
        + len(library.strings)
        + len(library.preambles)
        + len(library.failed_blocks)
    )
    _check_expansion(library)
    problems = [
        f"Line {_line(block)}: this entry is malformed (unbalanced braces or a missing "
        "comma?) and was skipped."
        for block in library.failed_blocks
    ]
    entries = []
    for entry in library.entries:
        fields = {field.key.lower(): field.value for field in entry.fields}
        row = _entry_from_fields(_line(entry), entry.key, entry.entry_type, fields)
        if row.has_identity:
            entries.append(row)
        else:
            problems.append(f"Line {row.line}: “{row.key}” has no title, DOI or URL; skipped.")
    if not entries and not problems:
        raise ImportRefused("No BibTeX entries were found in this file.")
    return entries, problems


def _csl_authors(authors: object) -> str:
    names = []
    for author in authors if isinstance(authors, list) else []:
        if isinstance(author, dict):
            parts = (author.get("given"), author.get("family"))
            names.append(" ".join(str(p) for p in parts if p) or str(author.get("literal", "")))
    return names_line(names)


def _csl_year(item: dict) -> int | None:
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return year_from(parts[0][0])
        return year_from(issued.get("raw") or issued.get("literal"))
    return None


def _bounded_number(text: str) -> int:
    # Python refuses to read integers of over 4,300 digits with a ValueError; refuse far sooner.
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ImportRefused(
            f"The file holds a number {len(text):,} digits long; no reference needs one. "
            "Is it a CSL-JSON export?"
        )
    return int(text)


def _depth(value: object, limit: int) -> int:
    """How deeply lists and objects nest in `value`, counting no further than `limit` + 1."""
    deepest, level = 0, [(value, 1)]
    while level:
        node, depth = level.pop()
        if isinstance(node, (list, dict)):
            deepest = max(deepest, depth)
            if depth > limit:
                return deepest
            children = node.values() if isinstance(node, dict) else node
            level.extend((child, depth + 1) for child in children)
    return deepest


def _load_json(text: str) -> object:
    too_deep = ImportRefused(
        f"The file nests lists or objects more than {MAX_JSON_DEPTH} levels deep; a CSL-JSON "
        "export never does."
    )
    try:
        items = json.loads(text, parse_int=_bounded_number)
    except RecursionError as exc:
        raise too_deep from exc
    except ImportRefused:
        raise
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        raise ImportRefused(
            "This file is not valid JSON" + (f" (line {line})." if line else ".")
        ) from exc
    if _depth(items, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise too_deep
    return items


# Zotero writes an arXiv copy's id as its "number" ("arXiv:2009.03300"); others as a note.
_CSL_ARXIV_FIELDS = ("number", "container-title", "note")


def parse_csl_json(text: str) -> tuple[list[ImportEntry], list[str]]:
    items = _load_json(text)
    if isinstance(items, dict):
        items = items.get("items", [items])
    if not isinstance(items, list):
        raise ImportRefused("A CSL-JSON file holds a list of references.")
    check_count(len(items))
    entries, problems = [], []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            problems.append(f"Entry {number}: not a reference; skipped.")
            continue
        url = clean_text(item.get("URL", ""), URL_MAX)
        doi = normalise_doi(clean_text(item.get("DOI", ""), URL_MAX))
        row = ImportEntry(
            line=number,
            key=clean_text(item.get("id", ""), 200),
            title=clean_text(item.get("title", ""), TITLE_MAX),
            authors=_csl_authors(item.get("author")),
            year=_csl_year(item),
            doi=doi,
            arxiv=normalise_arxiv(url)
            or arxiv_from_doi(doi)
            or arxiv_in_prose(*(item.get(name) for name in _CSL_ARXIV_FIELDS)),
            url=url,
            kind="paper" if item.get("type") in ("article-journal", "paper-conference") else "",
        )
        if row.has_identity:
            entries.append(row)
        else:
            problems.append(f"Entry {number}: no title, DOI or URL; skipped.")
    return entries, problems
