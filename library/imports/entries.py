"""What an import keeps of each reference: enough to match it and to propose it."""

import re
from dataclasses import asdict, dataclass

from catalog.identity import normalise_arxiv

MAX_BYTES = 5 * 1024 * 1024
MAX_ENTRIES = 2000
# BibTeX @string abbreviations (journal names, months): real files define dozens to a few
# hundred; each one counts toward MAX_ENTRIES as well.
MAX_STRINGS = 1000
# What the @string references may expand a file's fields to, in characters: a little over
# the largest file, so an abbreviation used everywhere cannot multiply the work.
MAX_EXPANDED_CHARS = 2 * MAX_BYTES
# CSL-JSON: a reference is a few levels deep (item, issued, date-parts, parts), and its numbers
# are years and page counts.
MAX_JSON_DEPTH = 16
MAX_NUMBER_DIGITS = 20
TITLE_MAX = 300
AUTHORS_MAX = 300
URL_MAX = 2000
_SPACE = re.compile(r"\s+")


class ImportRefused(ValueError):
    """The whole file is refused; the message says why, for the reader."""


def clean_text(value: object, limit: int) -> str:
    """One line of plain text at most `limit` characters long (hostile fields are cut)."""
    if not isinstance(value, str):
        value = "" if value is None else str(value)
    text = _SPACE.sub(" ", value.replace("\x00", "")).strip().strip("{}").strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass
class ImportEntry:
    line: int
    key: str = ""
    title: str = ""
    authors: str = ""
    year: int | None = None
    doi: str = ""
    arxiv: str = ""
    url: str = ""
    kind: str = ""

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "ImportEntry":
        fields = cls.__dataclass_fields__
        return cls(**{name: value for name, value in data.items() if name in fields})

    @property
    def has_identity(self) -> bool:
        return bool(self.title or self.doi or self.arxiv or self.url)


def names_line(names: list[str]) -> str:
    """People's names as one line: "A, B, C", or the first "et al." past three."""
    people = [name for name in names if name]
    text = f"{people[0]} et al." if len(people) > 3 else ", ".join(people)
    return clean_text(text, AUTHORS_MAX)


def authors_line(names: list[str]) -> str:
    """ "Family, Given" names as one line of "Given Family" (names_line)."""
    return names_line(
        [" ".join(reversed([p.strip() for p in n.split(",", 1)])).strip() for n in names]
    )


def arxiv_from_doi(doi: str) -> str:
    """The arXiv id in an arXiv DOI (10.48550/arXiv.…), or ""."""
    prefix = "10.48550/arxiv."
    return normalise_arxiv(doi.removeprefix(prefix)) if doi.startswith(prefix) else ""


def year_from(value: object) -> int | None:
    match = re.search(r"\b(1[89]\d\d|20\d\d|2100)\b", str(value or ""))
    return int(match[1]) if match else None


def read_upload(data: bytes) -> str:
    """The upload as text, or ImportRefused when it is too big or not text at all."""
    if len(data) > MAX_BYTES:
        raise ImportRefused(
            f"The file is {len(data) / 1024 / 1024:.1f} MB; at most 5 MB can be imported. "
            "Export a smaller part of your library, or split the file."
        )
    if b"\x00" in data[:MAX_BYTES]:
        raise ImportRefused(
            "This is not a BibTeX, RIS or CSL-JSON text file (it holds binary data)."
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def check_count(count: int, what: str = "entries") -> None:
    if count > MAX_ENTRIES:
        raise ImportRefused(
            f"The file holds {count:,} {what}; at most {MAX_ENTRIES:,} can be imported at once. "
            "Split it and import the parts one after the other."
        )
