"""Citations of sources: BibTeX (written with bibtexparser) and CSL-JSON; RIS is written in
citations_ris.py from the same classification.

Both formats start from one neutral reading of a Source (`Citation`), so a source is classified
once: a paper at a conference is `inproceedings`/`paper-conference`, in a journal
`article`/`article-journal`, on arXiv only an `article` with its eprint, a book is a book, and
documentation, repositories, specifications and web pages are `misc` with their URL and the date
we last looked at them.
"""

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

import bibtexparser
from bibtexparser.library import Library
from bibtexparser.model import Entry, Field
from pylatexenc.latexencode import UnicodeToLatexEncoder

from .models import Source

ARXIV_ID = re.compile(r"arxiv\.org/(?:abs|pdf)/(?P<id>[0-9]{4}\.[0-9]{4,5}|[a-z\-]+/[0-9]{7})")
CONFERENCE = re.compile(
    r"\b(proceedings|conference|symposium|workshop|neurips|neural information processing"
    r"|icml|iclr|mlsys|osdi|sosp|nsdi|isca|micro-\d+|sigcomm|asplos|eurosys|fast|atc|emnlp"
    r"|acl|naacl|eacl|cvpr|iccv|eccv|mapl|sc\d\d|ppopp|hpca|kdd|aaai|ijcai)\b",
    re.IGNORECASE,
)
JOURNAL = re.compile(
    r"\b(journal|transactions|letters|magazine|communications of|ieee micro|review)\b",
    re.IGNORECASE,
)
REPORT = re.compile(r"\b(technical report|tech report)\b", re.IGNORECASE)
PREPRINT = re.compile(r"\b(arxiv|corr)\b", re.IGNORECASE)
# "X et al." in short records; the full lists of long papers end with ", and others".
ET_AL = re.compile(r",?\s*\b(?:et al\b\.?|and others\s*$)", re.IGNORECASE)
EDITORS = re.compile(r"\(eds?\.\)", re.IGNORECASE)
NAME_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*")
ORGANISATION_WORDS = re.compile(
    r"\b(foundation|authors|project|org|cloud|face|team|labs?|inc|ltd|consortium|research"
    r"|corporation|university|institute|group|community|contributors|for)\b",
    re.IGNORECASE,
)
KEY_STOPWORDS = {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "how"}

_latex = UnicodeToLatexEncoder(
    non_ascii_only=False,
    replacement_latex_protection="braces-all",
    unknown_char_policy="keep",
    unknown_char_warning=False,
)


@dataclass(frozen=True)
class Person:
    family: str = ""
    given: str = ""
    literal: str = ""


@dataclass
class Citation:
    source: Source
    bibtex_type: str
    csl_type: str
    authors: list[Person] = field(default_factory=list)
    and_others: bool = False
    container: str = ""
    container_field: str = ""
    publisher: str = ""
    institution: str = ""
    arxiv_id: str = ""
    accessed: date | None = None

    @property
    def title(self) -> str:
        """The full published title where the catalog has one; the display title otherwise."""
        return self.source.full_title or self.source.title

    @property
    def short_title(self) -> str:
        """The catalog's display title, when it differs from the full title."""
        return self.source.title if self.source.shows_full_title else ""

    @property
    def doi(self) -> str:
        return self.source.doi

    @property
    def isbn(self) -> str:
        return self.source.isbn

    @property
    def year(self) -> int | None:
        return self.source.year

    @property
    def url(self) -> str:
        return self.source.url


def parse_authors(text: str) -> tuple[list[Person], bool]:
    """Split a free-text author line ("A B, C D, and E F", "X et al.", "NVIDIA") into people."""
    text = EDITORS.sub("", text or "").strip()
    and_others = bool(ET_AL.search(text))
    text = ET_AL.sub("", text).strip(" ,")
    names = [name.strip() for name in NAME_SEPARATOR.split(text) if name.strip()]
    if len(names) == 1 and not and_others:
        name = names[0]
        if " " not in name or ORGANISATION_WORDS.search(name) or name.startswith("The "):
            return [Person(literal=name)], False
    people = []
    for name in names:
        if ORGANISATION_WORDS.search(name):
            people.append(Person(literal=name))
            continue
        given, _, family = name.rpartition(" ")
        people.append(Person(family=family, given=given))
    return people, and_others


def classify(source: Source) -> Citation:
    """Which kind of publication a source is, in BibTeX's and CSL's vocabularies."""
    venue = source.venue.strip()
    authors, and_others = parse_authors(source.authors)
    citation = Citation(
        source=source,
        bibtex_type="misc",
        csl_type="webpage",
        authors=authors,
        and_others=and_others,
        accessed=source.verified_on or (source.updated.date() if source.updated else None),
    )
    match = ARXIV_ID.search(source.url or "")
    citation.arxiv_id = source.arxiv_id or (match["id"] if match else "")
    Kind = Source.Kind
    if source.kind == Kind.PAPER:
        if venue and CONFERENCE.search(venue):
            citation.bibtex_type, citation.csl_type = "inproceedings", "paper-conference"
            citation.container, citation.container_field = venue, "booktitle"
        elif venue and JOURNAL.search(venue):
            citation.bibtex_type, citation.csl_type = "article", "article-journal"
            citation.container, citation.container_field = venue, "journal"
        elif venue and REPORT.search(venue):
            citation.bibtex_type, citation.csl_type = "techreport", "report"
            citation.institution = REPORT.sub("", venue).strip(" ,") or venue
        elif PREPRINT.search(venue) or (citation.arxiv_id and not venue):
            citation.bibtex_type, citation.csl_type = "article", "article"
            citation.container = "arXiv preprint" + (
                f" arXiv:{citation.arxiv_id}" if citation.arxiv_id else ""
            )
            citation.container_field = "journal"
        elif venue:
            # A named venue that is no conference and no report is a journal whose name says
            # nothing of it ("Neurocomputing", "Nature"); an arXiv copy stays as its eprint.
            citation.bibtex_type, citation.csl_type = "article", "article-journal"
            citation.container, citation.container_field = venue, "journal"
        else:
            citation.csl_type = "article"
    elif source.kind == Kind.BOOK:
        citation.bibtex_type, citation.csl_type = "book", "book"
        citation.publisher = venue
    elif source.kind == Kind.WHITEPAPER:
        institution = venue or (authors[0].literal if len(authors) == 1 else "")
        if institution:
            citation.bibtex_type, citation.csl_type = "techreport", "report"
            citation.institution = institution
        else:
            citation.csl_type = "report"
    elif source.kind == Kind.REPOSITORY:
        citation.csl_type = "software"
    elif source.kind == Kind.SPECIFICATION:
        citation.csl_type = "standard"
        citation.publisher = venue
    elif source.kind == Kind.ARTICLE:
        citation.csl_type = "post-weblog" if venue else "webpage"
        citation.container = venue
    else:
        citation.container = venue
    return citation


def _ascii_word(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", ascii_text.lower())


def base_key(source: Source) -> str:
    """surname + year + first title word, in lowercase ASCII: `dao2022flashattention`."""
    people, _ = parse_authors(source.authors)
    who = ""
    if people:
        first = people[0]
        who = _ascii_word(first.family or first.literal.split()[0])
    words = [_ascii_word(word) for word in re.split(r"[\s\-:/]+", source.title)]
    words = [word for word in words if word]
    title_word = next((w for w in words if w not in KEY_STOPWORDS), words[0] if words else "")
    key = f"{who}{source.year or ''}{title_word}"
    return key or _ascii_word(source.slug) or f"source{source.pk}"


def citation_keys(sources: Iterable[Source]) -> dict[int, str]:
    """Keys for a set of sources: the base key, and b, c… for the second, third… source sharing
    it, counted in slug order so the same set gives the same keys whatever order it came in."""
    keys: dict[int, str] = {}
    seen: dict[str, int] = {}
    for source in sorted(sources, key=lambda s: s.slug):
        key = base_key(source)
        count = seen.get(key, 0)
        seen[key] = count + 1
        keys[source.pk] = key if count == 0 else f"{key}{_suffix(count)}"
    return keys


def _suffix(count: int) -> str:
    letters = ""
    while count:
        count, rest = divmod(count, 26)
        letters = "abcdefghijklmnopqrstuvwxyz"[rest] + letters
    return letters


def latex(text: str) -> str:
    """Text as LaTeX: specials escaped (& % $ # _ { } ~ ^ \\), non-ASCII as LaTeX macros."""
    text = text.replace("\u2019", "'").replace("\u2018", "`")
    return _latex.unicode_to_latex(text)


def _url(url: str) -> str:
    # URLs stay verbatim for the url package; only braces would unbalance the field.
    return url.replace("{", "%7B").replace("}", "%7D").replace("\\", "%5C")


def _bibtex_name(person: Person) -> str:
    if person.literal:
        return "{" + latex(person.literal) + "}"
    if not person.given:
        return latex(person.family)
    return f"{latex(person.family)}, {latex(person.given)}"


def bibtex_entry(citation: Citation, key: str) -> Entry:
    fields: list[Field] = []

    def add(name: str, value: str) -> None:
        if value:
            fields.append(Field(name, value))

    names = [_bibtex_name(person) for person in citation.authors]
    if citation.and_others and names:
        names.append("others")
    add("author", " and ".join(names))
    # Double braces keep the title's capitalisation (acronyms, product names) in every style.
    add("title", "{" + latex(citation.title) + "}")
    if citation.short_title:
        add("shorttitle", "{" + latex(citation.short_title) + "}")
    if citation.container_field == "howpublished":
        add("howpublished", latex(citation.container))
    elif citation.container_field:
        add(citation.container_field, latex(citation.container))
    add("publisher", latex(citation.publisher))
    add("institution", latex(citation.institution))
    add("year", str(citation.year) if citation.year else "")
    add("doi", _url(citation.doi))
    add("isbn", citation.isbn)
    if citation.arxiv_id:
        add("eprint", citation.arxiv_id)
        add("archivePrefix", "arXiv")
    if citation.url:
        add("url", _url(citation.url))
        if citation.bibtex_type == "misc" and citation.container_field != "howpublished":
            add("howpublished", "\\url{" + _url(citation.url) + "}")
        if citation.accessed:
            add("urldate", citation.accessed.isoformat())
            if citation.bibtex_type == "misc":
                add("note", f"Accessed {citation.accessed.isoformat()}")
    return Entry(citation.bibtex_type, key, fields)


def to_bibtex(sources: Iterable[Source]) -> str:
    """One .bib document for the given sources, in the order given."""
    sources = list(sources)
    keys = citation_keys(sources)
    library = Library([bibtex_entry(classify(source), keys[source.pk]) for source in sources])
    return bibtexparser.write_string(library)


def _csl_name(person: Person) -> dict[str, str]:
    if person.literal:
        return {"literal": person.literal}
    if not person.given:
        return {"family": person.family}
    return {"family": person.family, "given": person.given}


def csl_item(citation: Citation, key: str) -> dict[str, object]:
    item: dict[str, object] = {"id": key, "type": citation.csl_type, "title": citation.title}
    if citation.short_title:
        item["title-short"] = citation.short_title
    if citation.doi:
        item["DOI"] = citation.doi
    if citation.isbn:
        item["ISBN"] = citation.isbn
    if citation.authors:
        item["author"] = [_csl_name(person) for person in citation.authors]
    if citation.year:
        item["issued"] = {"date-parts": [[citation.year]]}
    if citation.container and citation.container_field != "howpublished":
        item["container-title"] = citation.container
    elif citation.container:
        item["publisher"] = citation.container
    if citation.publisher:
        item["publisher"] = citation.publisher
    if citation.institution:
        item["publisher"] = citation.institution
    if citation.arxiv_id:
        item["number"] = f"arXiv:{citation.arxiv_id}"
    if citation.url:
        item["URL"] = citation.url
        if citation.accessed:
            accessed = citation.accessed
            item["accessed"] = {"date-parts": [[accessed.year, accessed.month, accessed.day]]}
    if citation.and_others:
        item["note"] = "Further authors not listed (et al.)."
    return item


def to_csl(sources: Iterable[Source]) -> list[dict[str, object]]:
    """CSL-JSON items (a list) for the given sources, in the order given."""
    sources = list(sources)
    keys = citation_keys(sources)
    return [csl_item(classify(source), keys[source.pk]) for source in sources]


def filename(stem: str, extension: str) -> str:
    """A safe download name: ASCII letters, digits and dashes."""
    safe = re.sub(r"[^A-Za-z0-9]+", "-", unicodedata.normalize("NFKD", stem)).strip("-").lower()
    return f"{safe or 'citations'}.{extension}"
