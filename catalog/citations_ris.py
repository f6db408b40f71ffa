"""Citations as RIS, the format EndNote reads best (Zotero and Mendeley read it too), written with
rispy from the same classification as the BibTeX and CSL-JSON (catalog/citations.py)."""

import re
from collections.abc import Iterable

import rispy

from .citations import Citation, Person, citation_keys, classify
from .models import Source

# RIS reference types for CSL's. A preprint is a journal article whose journal names the archive,
# as Google Scholar writes it ("arXiv preprint arXiv:…").
_TYPES = {
    "paper-conference": "CPAPER",
    "article-journal": "JOUR",
    "article": "JOUR",
    "book": "BOOK",
    "report": "RPRT",
    "software": "COMP",
    "standard": "STAND",
    "post-weblog": "BLOG",
    "webpage": "ELEC",
}
# RIS is one field a line: a line break in a value would end it and start another field.
_LINE_BREAK = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")


class _Writer(rispy.RisWriter):
    """rispy's writer without the "1.", "2." it puts above each reference: no other RIS
    writer does, and some readers take it for a broken line."""

    def set_header(self, count: int) -> str:
        return ""


def _one_line(text: str) -> str:
    return _LINE_BREAK.sub(" ", text).strip()


def _name(person: Person) -> str:
    if person.literal:
        return person.literal
    return f"{person.family}, {person.given}" if person.given else person.family


def ris_reference(citation: Citation, key: str) -> dict[str, object]:
    """One reference, as rispy writes it: keys are rispy's names for the RIS tags."""
    reference: dict[str, object] = {
        "type_of_reference": _TYPES.get(citation.csl_type, "GEN"),
        "id": key,
        "title": citation.title,
        "short_title": citation.short_title,
        "authors": [_name(person) for person in citation.authors],
        "year": str(citation.year or ""),
        "secondary_title": citation.container if citation.container_field != "howpublished" else "",
        "publisher": citation.publisher or citation.institution,
        "doi": citation.doi,
        "issn": citation.isbn,
        "urls": [citation.url] if citation.url else [],
        "access_date": citation.accessed.strftime("%Y/%m/%d") if citation.accessed else "",
    }
    notes = [f"arXiv:{citation.arxiv_id}"] if citation.arxiv_id else []
    if citation.and_others:
        notes.append("Further authors not listed (et al.).")
    reference["notes"] = notes
    return {
        name: [_one_line(v) for v in value] if isinstance(value, list) else _one_line(str(value))
        for name, value in reference.items()
        if value
    }


def to_ris(sources: Iterable[Source]) -> str:
    """One .ris document for the given sources, in the order given."""
    sources = list(sources)
    keys = citation_keys(sources)
    references = [ris_reference(classify(source), keys[source.pk]) for source in sources]
    return rispy.dumps(references, implementation=_Writer)
