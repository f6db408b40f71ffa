"""A page's own metadata: Highwire citation_* tags (scholarly pages), then Open Graph, then
<title> and the description."""

from html.parser import HTMLParser

from ..titles import clean_title


class _MetaParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, list[str]] = {}
        self.title_parts: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): value or "" for name, value in attrs}
        if tag == "meta":
            key = (values.get("name") or values.get("property") or "").lower().strip()
            if key and values.get("content"):
                self.meta.setdefault(key, []).append(values["content"])
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title and len(self.title_parts) < 50:
            self.title_parts.append(data)


def _first(meta: dict[str, list[str]], *keys: str) -> str:
    for key in keys:
        if meta.get(key):
            return meta[key][0].strip()
    return ""


def page_metadata(html: str) -> dict:
    parser = _MetaParser()
    parser.feed(html)
    parser.close()
    meta = parser.meta
    site_name = _first(meta, "og:site_name")
    # A scholarly page's citation_title is the work's own; other titles carry the site's name.
    title = _first(meta, "citation_title") or clean_title(
        _first(meta, "og:title", "dc.title") or "".join(parser.title_parts), site_name
    )
    return {
        "title": title,
        "authors": meta.get("citation_author") or meta.get("author") or [],
        "date": _first(
            meta, "citation_publication_date", "citation_date", "article:published_time"
        ),
        "venue": _first(
            meta, "citation_journal_title", "citation_conference_title", "og:site_name"
        ),
        "description": _first(meta, "citation_abstract", "og:description", "description"),
        "doi": _first(meta, "citation_doi"),
        "is_paper": bool(meta.get("citation_title")),
    }
