"""BibTeX (bibtexparser 2) and CSL-JSON (Zotero, Better BibTeX) into ImportEntry rows.

A malformed entry is reported by its line and the others are kept; a file that cannot be read at
all is refused with a reason. LaTeX in fields is decoded to text; no LaTeX command is ever run, so
\\input{} and friends read nothing.
"""

import json
import logging

import bibtexparser
from bibtexparser.middlewares import LatexDecodingMiddleware

from proposals.identifiers import normalise_arxiv, normalise_doi

from .entries import (
    AUTHORS_MAX,
    TITLE_MAX,
    URL_MAX,
    ImportEntry,
    ImportRefused,
    check_count,
    clean_text,
    year_from,
)

# bibtexparser logs every malformed block; the import reports them to the reader instead.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)

_BIBTEX_KINDS = {"article": "paper", "inproceedings": "paper", "book": "book", "misc": ""}


def parse(text: str, filename: str = "") -> tuple[list[ImportEntry], list[str]]:
    """Entries and problems; JSON is read as CSL-JSON, anything else as BibTeX."""
    stripped = text.lstrip()
    if filename.lower().endswith(".json") or stripped[:1] in ("[", "{"):
        return parse_csl_json(text)
    return parse_bibtex(text)


def _authors_bibtex(value: str) -> str:
    names = [" ".join(reversed([p.strip() for p in n.split(",", 1)])) for n in value.split(" and ")]
    names = [name for name in names if name]
    text = f"{names[0]} et al." if len(names) > 3 else ", ".join(names)
    return clean_text(text, AUTHORS_MAX)


def _entry_from_fields(line: int, key: str, kind: str, fields: dict) -> ImportEntry:
    url = clean_text(fields.get("url", ""), URL_MAX)
    doi = normalise_doi(clean_text(fields.get("doi", ""), URL_MAX))
    eprint = clean_text(fields.get("eprint", "") or fields.get("arxivid", ""), 100)
    arxiv = normalise_arxiv(eprint) or normalise_arxiv(url) or _arxiv_from_doi(doi)
    return ImportEntry(
        line=line,
        key=clean_text(key, 200),
        title=clean_text(fields.get("title", ""), TITLE_MAX),
        authors=_authors_bibtex(clean_text(fields.get("author", ""), 5000)),
        year=year_from(fields.get("year") or fields.get("date")),
        doi=doi,
        arxiv=arxiv,
        url=url,
        kind=_BIBTEX_KINDS.get(kind.lower(), ""),
    )


def _arxiv_from_doi(doi: str) -> str:
    prefix = "10.48550/arxiv."
    return normalise_arxiv(doi.removeprefix(prefix)) if doi.startswith(prefix) else ""


def parse_bibtex(text: str) -> tuple[list[ImportEntry], list[str]]:
    try:
        library = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()])
    except Exception as exc:  # the parser's errors are not a documented hierarchy
        raise ImportRefused("This file could not be read as BibTeX.") from exc
    check_count(len(library.entries) + len(library.failed_blocks))
    problems = [
        f"Line {block.start_line + 1}: this entry is malformed (unbalanced braces or a missing "
        "comma?) and was skipped."
        for block in library.failed_blocks
    ]
    entries = []
    for entry in library.entries:
        fields = {field.key.lower(): field.value for field in entry.fields}
        row = _entry_from_fields(entry.start_line + 1, entry.key, entry.entry_type, fields)
        if row.has_identity:
            entries.append(row)
        else:
            problems.append(f"Line {row.line}: “{row.key}” has no title, DOI or URL; skipped.")
    if not entries and not problems:
        raise ImportRefused("No BibTeX entries were found in this file.")
    return entries, problems


def _csl_authors(authors) -> str:
    names = []
    for author in authors if isinstance(authors, list) else []:
        if isinstance(author, dict):
            parts = (author.get("given"), author.get("family"))
            names.append(" ".join(str(p) for p in parts if p) or str(author.get("literal", "")))
    text = f"{names[0]} et al." if len(names) > 3 else ", ".join(names)
    return clean_text(text, AUTHORS_MAX)


def _csl_year(item: dict) -> int | None:
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return year_from(parts[0][0])
        return year_from(issued.get("raw") or issued.get("literal"))
    return None


def parse_csl_json(text: str) -> tuple[list[ImportEntry], list[str]]:
    try:
        items = json.loads(text)
    except ValueError as exc:
        raise ImportRefused(f"This file is not valid JSON (line {exc.lineno}).") from exc
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
            arxiv=normalise_arxiv(url) or _arxiv_from_doi(doi),
            url=url,
            kind="paper" if item.get("type") in ("article-journal", "paper-conference") else "",
        )
        if row.has_identity:
            entries.append(row)
        else:
            problems.append(f"Entry {number}: no title, DOI or URL; skipped.")
    return entries, problems
