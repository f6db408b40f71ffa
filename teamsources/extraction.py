"""A file's text for the team's search, read with bounds: an upload is untrusted input.

Markdown is kept as written (UTF-8 only). A PDF must start with the PDF signature; its text is
extracted page by page with pypdf, stopping at TEAM_SOURCE_MAX_PAGES pages or
TEAM_SOURCE_MAX_TEXT characters, whichever comes first, so a PDF that inflates to gigabytes
is cut short rather than read to the end. Nothing here reaches the network.
"""

import logging
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from pypdf import PdfReader

log = logging.getLogger(__name__)

PDF_SIGNATURE = b"%PDF-"
MARKDOWN_SUFFIXES = (".md", ".markdown", ".txt")


class UnreadableFile(ValueError):
    """The message is shown to the reader under the file field."""


@dataclass(frozen=True)
class Extracted:
    file_type: str  # "pdf" or "markdown"
    text: str
    truncated: bool


def extract(upload: IO[bytes], name: str) -> Extracted:
    head = upload.read(len(PDF_SIGNATURE))
    upload.seek(0)
    lowered = name.lower()
    if lowered.endswith(".pdf") or head == PDF_SIGNATURE:
        if head != PDF_SIGNATURE:
            raise UnreadableFile(
                "This file is named as a PDF but is not one: choose the PDF itself."
            )
        return _pdf_text(upload)
    if lowered.endswith(MARKDOWN_SUFFIXES):
        return _markdown_text(upload)
    raise UnreadableFile("Upload a PDF or a Markdown file (.pdf, .md).")


def _limit(text: str) -> tuple[str, bool]:
    most = settings.TEAM_SOURCE_MAX_TEXT
    return (text[:most], True) if len(text) > most else (text, False)


def _markdown_text(upload: IO[bytes]) -> Extracted:
    try:
        text = upload.read().decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableFile("This Markdown file is not UTF-8 text: save it as UTF-8.") from None
    if "\x00" in text:
        raise UnreadableFile("This file holds binary data, not Markdown text.")
    text, truncated = _limit(text)
    return Extracted("markdown", text, truncated)


def _pdf_text(upload: IO[bytes]) -> Extracted:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(upload, strict=False)
        if reader.is_encrypted:
            raise UnreadableFile("This PDF is password-protected: upload a copy without one.")
        return _pages_text(reader)
    except UnreadableFile:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, RecursionError) as exc:
        log.info("team source PDF refused: %s", type(exc).__name__)
        raise UnreadableFile("This PDF could not be read: it may be damaged.") from None


def _pages_text(reader: "PdfReader") -> Extracted:
    pages = reader.pages
    most_pages, most_text = settings.TEAM_SOURCE_MAX_PAGES, settings.TEAM_SOURCE_MAX_TEXT
    parts: list[str] = []
    length, truncated = 0, len(pages) > most_pages
    for page in pages[:most_pages]:
        text = page.extract_text() or ""
        parts.append(text)
        length += len(text)
        if length > most_text:
            truncated = True
            break
    text, cut = _limit("\n".join(parts))
    return Extracted("pdf", text, truncated or cut)
